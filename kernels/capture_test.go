package kernels

import (
	"math/rand"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/render"
)

// drawBoth draws p on the CPU and on g onto copies of one random RGBA frame and fails on
// a difference beyond EmuTolerance.
func drawBoth(t *testing.T, rng *rand.Rand, g *GPU, p *render.Primitives, w, h int) {
	t.Helper()
	cpu := newTestCPU(t, g.Font().Size)
	a := make([]byte, 4*w*h)
	rng.Read(a)
	b := slices.Clone(a)
	if err := cpu.Draw(&composite.RGBA{Pix: a, Stride: 4 * w, W: w, H: h}, p); err != nil {
		t.Fatal(err)
	}
	if err := g.Draw(&composite.RGBA{Pix: b, Stride: 4 * w, W: w, H: h}, p); err != nil {
		t.Fatal(err)
	}
	if worst, over := diffBytes(a, b, EmuTolerance); over > 0 {
		t.Fatalf("%d bytes differ by more than %d (largest %d)", over, EmuTolerance, worst)
	}
}

func TestGraphReplaysNewData(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g := newTestGPU(t, 12, false)
	for i := 0; i < 4; i++ {
		drawBoth(t, rng, g, randomScene(rng, 200, 150, g.Font()), 200, 150)
	}
	if g.Captures() != 1 {
		t.Errorf("%d captures for four frames of one size and small scenes, want 1", g.Captures())
	}
	dev := g.dev.(*EmuDevice)
	want := []string{"tk_begin", "tk_curve_chords", "tk_scan_sums_chords", "tk_scan_mid_chords", "tk_scan_apply_chords",
		"tk_bin_count", "tk_scan_sums_bins", "tk_scan_mid_bins", "tk_scan_apply_bins", "tk_bin_cursor", "tk_bin_fill",
		"tk_bin_sort", "tk_boxes", "tk_lines", "tk_curves", "tk_labels", "tk_composite"}
	if got := dev.GraphKernels(g.graph); !slices.Equal(got, want) {
		t.Errorf("graph launches %v, want %v", got, want)
	}
	if dev.Graphs() != 1 {
		t.Errorf("%d live graphs, want 1", dev.Graphs())
	}
}

// TestTimedStages: a timed backend launches the stages one by one with events between them
// (an event recorded in a graph cannot be timed), reports every stage's time, and draws the
// same pictures.
func TestTimedStages(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g := newTestGPU(t, 12, true)
	for range 3 {
		drawBoth(t, rng, g, randomScene(rng, 200, 150, g.Font()), 200, 150)
		for s := render.StageBin; s < render.NumStages; s++ {
			if g.Timings()[s] <= 0 {
				t.Errorf("stage %v: time %v", s, g.Timings()[s])
			}
		}
	}
	if g.Captures() != 0 || g.dev.(*EmuDevice).Graphs() != 0 {
		t.Errorf("a timed backend captured %d graphs", g.Captures())
	}
}

func TestSizeChangeRecaptures(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g := newTestGPU(t, 12, false)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, g.Font()), 130, 70)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, g.Font()), 130, 70)
	drawBoth(t, rng, g, randomScene(rng, 200, 140, g.Font()), 200, 140)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, g.Font()), 130, 70)
	if g.Captures() != 3 {
		t.Errorf("%d captures for sizes A, A, B, A: want 3", g.Captures())
	}
	if n := g.dev.(*EmuDevice).Graphs(); n != 1 {
		t.Errorf("%d live graphs: old graphs are not freed", n)
	}
}

func TestCapacityGrowth(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g := newTestGPU(t, 12, false)
	const w, h = 320, 320
	drawBoth(t, rng, g, randomScene(rng, w, h, g.Font()), w, h)
	// More boxes than the first capacity: the per-primitive grids grow, so a new capture.
	p := &render.Primitives{}
	for i := range 3 * minCap {
		p.Boxes = append(p.Boxes, render.Box{X: float32(i % 300), Y: float32(i % 290), W: 20, H: 20, Stroke: 2,
			StrokeColor: render.RGBA{R: 0.5, A: 0.5}})
	}
	drawBoth(t, rng, g, p, w, h)
	if g.Captures() != 2 {
		t.Errorf("%d captures after the box count outgrew its capacity, want 2", g.Captures())
	}
	// Long lines crossing many tiles: their bin list outgrows its buffer. The grids do not
	// change (the buffer's address is in the parameter block), so no new capture, but the
	// frame runs again and must still be right.
	p = &render.Primitives{}
	for i := range 60 {
		p.Lines = append(p.Lines, render.Line{X0: 0, Y0: float32(i * 5), X1: w, Y1: float32(h - i*5), Width: 3,
			Color: render.RGBA{G: 0.4, A: 0.4}})
	}
	before := g.regrows
	drawBoth(t, rng, g, p, w, h)
	if g.regrows != before+1 || g.Captures() != 2 {
		t.Errorf("after the line bins overflowed: %d regrows (want 1), %d captures (want 2)", g.regrows-before, g.Captures())
	}
	drawBoth(t, rng, g, p, w, h)
	if g.regrows != before+1 {
		t.Errorf("the grown bin buffer did not suffice for the same frame again")
	}
}

func TestEmuEnforcesCaptureRules(t *testing.T) {
	d := NewEmuDevice(EmuOptions{Workers: 1})
	defer d.Close()
	buf, err := d.Alloc(int(sizeofParams))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	if d.CopyIn(buf, []byte{1}) == nil || d.CopyOut(make([]byte, 1), buf) == nil || d.Sync() == nil {
		t.Error("copies or Sync during capture did not fail")
	}
	if err := d.Launch("tk_begin", Dim3{1, 1, 1}, Dim3{1, 1, 1}, buf); err != nil {
		t.Fatal(err)
	}
	ev, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if d.Record(ev) == nil {
		t.Error("an event recorded during capture did not fail")
	}
	gr, err := d.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	if got := d.GraphKernels(gr); !slices.Equal(got, []string{"tk_begin"}) {
		t.Errorf("graph holds %v", got)
	}
	if d.CopyIn(buf+Ptr(sizeofParams)-1, []byte{1, 2}) == nil {
		t.Error("a copy past the end of an allocation did not fail")
	}
	if d.Launch("tk_nope", Dim3{1, 1, 1}, Dim3{1, 1, 1}, buf) == nil {
		t.Error("launching an unknown kernel did not fail")
	}
}
