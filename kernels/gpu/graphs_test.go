package gpu

import (
	"math/rand/v2"
	"strings"
	"testing"

	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// TestHostGraphsOnEmu draws the radius, Delaunay and tree graphs through overlay.Drawer on
// the CPU renderer and on the GPU backend over the emulated device: the links are built on
// the host for both (the device builds kNN links only, and is not asked to), so the GPU
// backend draws them as lines; the pictures must match within the tolerance, frame by frame
// with hysteresis, and both must draw knn.Graph's links.
func TestHostGraphsOnEmu(t *testing.T) {
	const w, h = 320, 200
	rng := rand.New(rand.NewPCG(uint64(testSeed(t)), 26))
	for _, graph := range knn.Graphs[1:] {
		st := overlay.DefaultStyle()
		st.Labels, st.CurveWidth, st.Trail = false, 1.5, 3
		lo := knn.Options{K: 1, Graph: graph, Hysteresis: 0.15, MaxDist: 80, MaxDegree: 5}
		o := overlay.Options{Style: st, Links: lo, Backend: overlay.BackendOptions{Workers: 2}}
		cpu, gpu, g := linkedDrawers(t, device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
		ref, err := knn.New(lo)
		if err != nil {
			t.Fatal(err)
		}
		defer ref.Close()
		base := linkedScene(rng, 70, 1, w, h)
		for f := 1; f <= 4; f++ {
			tf := &scene.Frame{Index: f, Boxes: base.Boxes}
			for _, p := range base.Points[:30+10*f] {
				p.X += float32(rng.Float64()*4 - 2)
				tf.Points = append(tf.Points, p)
			}
			drawTracked(t, cpu, gpu, tf, w, h)
			if g.links != nil {
				t.Fatalf("%s: the device was asked to build the links", graph)
			}
			edges, err := ref.Update(tf.Points)
			if err != nil {
				t.Fatal(err)
			}
			nc, _ := cpu.Links()
			ng, err := gpu.Links()
			if err != nil || nc != ng || nc != len(edges) || nc == 0 {
				t.Fatalf("%s, frame %d: %d links on the CPU, %d (%v) on the device, %d by knn.Graph", graph, f, nc, ng, err, len(edges))
			}
		}
	}
}

// TestDeviceRefusesHostGraphs: the device's link update builds kNN links only; asked for
// another graph it says so rather than drawing kNN links in its place.
func TestDeviceRefusesHostGraphs(t *testing.T) {
	g := newTestGPU(t, false)
	err := g.StartLinks(knn.Options{K: 3, Graph: knn.GraphDelaunay})
	if err == nil || !strings.Contains(err.Error(), "kNN links only") {
		t.Fatalf("StartLinks with the Delaunay graph: %v", err)
	}
}
