package gpu

import (
	"fmt"
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trackink/internal/knntest"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// linkOptions are the option sets the device's links are held to knn.Graph under: each cap
// alone and together, hysteresis on and off, K from 1 to 8.
var linkOptions = []knn.Options{
	{K: 3},
	{K: 4, Hysteresis: 0.15},
	{K: 5, Hysteresis: 0.3, MaxDist: 120, MaxDY: 60},
	{K: 6, Hysteresis: 0.15, MaxDegree: 3},
	{K: 2, MaxDegree: 1, MaxDist: 200},
	{K: 1, Hysteresis: 0.2, MaxDY: 30},
	{K: 8, Hysteresis: 0.1, MaxDegree: 4, MaxDY: 80, MaxDist: 150},
}

// trackFrames plays a tracker's output over a point set: each frame the tracks jitter and
// drift, each skips a frame now and then (vanishing, then reappearing), the input order is
// shuffled, and frames 4 and 9 hold one point and none. With grow the frame holds more of
// the tracks as it goes on (5 at first), so the device's buffers grow under a live state.
type trackFrames struct {
	rng   *rand.Rand
	base  []scene.Point
	shape string
	grow  bool
	frame int
}

func (s *trackFrames) next() []scene.Point {
	f := s.frame
	s.frame++
	switch f {
	case 4:
		return s.base[:1]
	case 9:
		return nil
	}
	base := s.base
	if s.grow {
		base = base[:min(len(base), 5+f*len(base)/10)]
	}
	var cur []scene.Point
	for _, p := range base {
		if s.rng.IntN(12) == 0 {
			continue
		}
		if s.shape != "duplicates" && s.shape != "lattice" {
			p.X += float32(s.rng.Float64()*4 - 2 + float64(f))
			p.Y += float32(s.rng.Float64()*4 - 2)
		}
		cur = append(cur, p)
	}
	s.rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
	return cur
}

// newTestLinks returns the device's link update with o on a poisoned emulated device.
func newTestLinks(t *testing.T, o knn.Options) *LinkGraph {
	t.Helper()
	lg, err := NewLinkGraph(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lg.Close() })
	return lg
}

// compareFrames runs frames through knn.Graph and the device's link update with the same
// options, and fails at the first frame whose links differ.
func compareFrames(t *testing.T, o knn.Options, lg knn.Linker, name string, frames func() []scene.Point, n int) {
	t.Helper()
	g, err := knn.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for f := range n {
		pts := frames()
		want, err := g.Update(pts)
		if err != nil {
			t.Fatal(err)
		}
		if err := lg.Update(pts); err != nil {
			t.Fatalf("%s, frame %d: %v", name, f, err)
		}
		got, err := lg.Edges()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%+v, %s, frame %d of %d points: the device drew %d links, knn.Graph %d\ndevice %v\nknn    %v",
				o, name, f, len(pts), len(got), len(want), idPairs(pts, got), idPairs(pts, want))
		}
	}
}

// idPairs names edges by their track ids (−1 for an index outside pts), for messages.
func idPairs(pts []scene.Point, es []knn.Edge) [][2]int {
	id := func(i int32) int {
		if i < 0 || int(i) >= len(pts) {
			return -1
		}
		return pts[i].ID
	}
	var out [][2]int
	for _, e := range es {
		out = append(out, [2]int{id(e.A), id(e.B)})
	}
	return out
}

// TestLinksMatchGraph holds the device's link update (the kernels on the emulated device)
// to knn.Graph frame by frame: every option set on every point shape knn's own tests use
// (random, clustered, collinear, duplicates, lattice, far from the origin), with tracks
// appearing and vanishing, shuffled input, frames of one point and none, and frames that
// grow the buffers while the previous frame's state is live.
func TestLinksMatchGraph(t *testing.T) {
	seed := uint64(testSeed(t))
	for i, o := range linkOptions {
		for j, shape := range knntest.Shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(i*len(knntest.Shapes)+j)))
			s := &trackFrames{rng: rng, base: knntest.Points(rng, shape, 20+rng.IntN(100)), shape: shape, grow: j%2 == 0}
			compareFrames(t, o, newTestLinks(t, o), shape, s.next, 12)
		}
	}
}

// frameList plays fixed frames.
func frameList(frames ...[]scene.Point) func() []scene.Point {
	return func() []scene.Point {
		f := frames[0]
		frames = frames[1:]
		return f
	}
}

func pts(ps ...[3]float32) []scene.Point {
	out := make([]scene.Point, len(ps))
	for i, p := range ps {
		out[i] = scene.Point{ID: int(p[0]), X: p[1], Y: p[2]}
	}
	return out
}

// TestLinksAtTheEdges plays the frames where the rules' margins decide, each against
// knn.Graph: a newcomer displacing an old neighbour only once it beats it by 1+h, a track
// that returns starting afresh, links hovering at MaxDist and MaxDY, and a hub of 300
// points on one spot (one grid cell, hundreds of links a point under MaxDegree).
func TestLinksAtTheEdges(t *testing.T) {
	suitors := func(x1, x2 float32) []scene.Point {
		return pts([3]float32{0, 0, 0}, [3]float32{1, x1, 0}, [3]float32{2, -x2, 0}, [3]float32{3, x1, 1}, [3]float32{4, -x2, 1})
	}
	pair := func(d float32) []scene.Point { return pts([3]float32{7, 0, 0}, [3]float32{9, d, 0}) }
	tilt := func(dy float32) []scene.Point { return pts([3]float32{7, 0, 0}, [3]float32{9, 200, dy}) }
	hub := make([]scene.Point, 300)
	for i := range hub {
		hub[i] = scene.Point{ID: 1000 - 3*i, X: 5, Y: float32(i % 2)}
	}
	for _, c := range []struct {
		name   string
		o      knn.Options
		frames [][]scene.Point
	}{
		{"suitors", knn.Options{K: 1, Hysteresis: 0.15},
			[][]scene.Point{suitors(10, 10.5), suitors(11, 10.5), suitors(12.1, 10.5), suitors(11, 10.5)}},
		{"return", knn.Options{K: 1, Hysteresis: 0.15},
			[][]scene.Point{suitors(10, 10.5), suitors(11, 10.5)[1:], suitors(11, 10.5), suitors(11, 10.5)[:2], suitors(11, 10.5)}},
		{"max-dist", knn.Options{K: 1, MaxDist: 100, Hysteresis: 0.15},
			[][]scene.Point{pair(95), pair(85), pair(99), pair(101), pair(95), pair(100)}},
		{"max-dy", knn.Options{K: 1, MaxDY: 50, Hysteresis: 0.15},
			[][]scene.Point{tilt(-48), tilt(40), tilt(-49), tilt(51), tilt(50)}},
		{"hub", knn.Options{K: 4, MaxDegree: 3, Hysteresis: 0.15}, [][]scene.Point{hub, hub, hub[:150]}},
	} {
		compareFrames(t, c.o, newTestLinks(t, c.o), c.name, frameList(c.frames...), len(c.frames))
	}
}

// TestLinksRejectWhatKnnRejects: a repeated id or a non-finite coordinate fails the frame
// with knn's error, and an id past 32 bits (which knn takes) with the device's; a rejected
// frame leaves the device's state alone, as it leaves knn.Graph's: the next frame keeps the
// neighbour it would have kept without it (hysteresis).
func TestLinksRejectWhatKnnRejects(t *testing.T) {
	suitors := func(x1 float32) []scene.Point { // 0 chooses between 1 at x1 and 2 at −10.5
		return pts([3]float32{0, 0, 0}, [3]float32{1, x1, 0}, [3]float32{2, -10.5, 0}, [3]float32{3, x1, 1}, [3]float32{4, -10.5, 1})
	}
	for _, c := range []struct {
		pts  []scene.Point
		want string
		knn  bool // knn.Graph rejects it too
	}{
		{pts([3]float32{1, 0, 0}, [3]float32{2, 1, 0}, [3]float32{1, 2, 0}), "appears twice", true},
		{pts([3]float32{1, 0, 0}, [3]float32{2, float32(math.NaN()), 0}), "non-finite", true},
		{pts([3]float32{1, 0, float32(math.Inf(-1))}, [3]float32{2, 0, 0}), "non-finite", true},
		{[]scene.Point{{ID: 1}, {ID: 1 << 40}}, "32-bit", false},
	} {
		o := knn.Options{K: 1, Hysteresis: 0.15}
		lg := newTestLinks(t, o)
		g, _ := knn.New(o)
		defer g.Close()
		linked := func(f []scene.Point, a, b int) {
			t.Helper()
			want, err := g.Update(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := lg.Update(f); err != nil {
				t.Fatal(err)
			}
			got, err := lg.Edges()
			if err != nil || !slices.Equal(got, want) || !slices.Contains(idPairs(f, got), [2]int{a, b}) {
				t.Fatalf("device %v (%v), knn.Graph %v; want %d–%d", idPairs(f, got), err, idPairs(f, want), a, b)
			}
		}
		linked(suitors(10), 0, 1)
		if err := lg.Update(c.pts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error saying %q", c.pts, err, c.want)
		}
		if c.knn {
			if _, err := g.Update(c.pts); err == nil {
				t.Fatalf("knn.Graph took %v", c.pts)
			}
		}
		linked(suitors(11), 0, 1) // 1 is farther than 2 now, but within 1+h: 0 keeps it
		linked(suitors(13), 0, 2) // past 1+h: 0 takes 2
	}
}

// linkedScene is a tracker's frame on a w × h picture for the drawing tests: points with
// palette and own (translucent) colours, and two boxes with classes, whose tracks' points
// take their class's colour when the style colours by class.
func linkedScene(rng *rand.Rand, n, index, w, h int) *scene.Frame {
	tf := &scene.Frame{Index: index}
	for i := range n {
		p := scene.Point{ID: 3*i + 1, X: float32(rng.Float64() * float64(w)), Y: float32(rng.Float64() * float64(h))}
		if i%4 == 0 {
			p.HasColor, p.Color = true, scene.Color{R: uint8(rng.IntN(256)), G: uint8(rng.IntN(256)), B: 40, A: uint8(100 + rng.IntN(156))}
		}
		tf.Points = append(tf.Points, p)
	}
	rng.Shuffle(len(tf.Points), func(i, j int) { tf.Points[i], tf.Points[j] = tf.Points[j], tf.Points[i] })
	tf.Boxes = []scene.Box{{ID: 1, X: 10, Y: 10, W: float32(w) / 3, H: float32(h) / 4, Class: "person"},
		{ID: 4, X: float32(w) / 2, Y: 20, W: 30, H: 40, Class: "car"}}
	return tf
}

// linkedDrawers returns a Drawer on the CPU renderer (links by knn.Graph) and one on the GPU
// backend over dev (links on the device), with the same options.
func linkedDrawers(t *testing.T, dev device.Device, o overlay.Options) (cpu, gpu *overlay.Drawer, g *Backend) {
	t.Helper()
	o.NewBackend = render.NewBackend
	cpu, err := overlay.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cpu.Close() })
	o.NewBackend = func(bo overlay.BackendOptions) (overlay.Backend, error) {
		b, err := New(dev, bo)
		g = b
		return b, err
	}
	if gpu, err = overlay.New(o); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gpu.Close() })
	return cpu, gpu, g
}

// TestDrawLinkedMatchesCPU draws tracked frames through overlay.Drawer twice: on the CPU
// renderer, whose links come from knn.Graph and the Builder, and on the GPU backend, which
// takes the points and the colours they lend their links instead and builds the links in
// its graph. Each frame the device's link primitives must be the Builder's, byte for byte
// (colours, control points, order), the slots past them out of the frame, the link count
// the same, and the pictures equal within EmuTolerance, with trails and point disks
// following the link slots. Colours by track, by class and the style's link colour; links
// fading with length (linkFade against overlay.LinkFade), and the add and screen blends.
func TestDrawLinkedMatchesCPU(t *testing.T) {
	const w, h = 320, 200
	rng := rand.New(rand.NewPCG(uint64(testSeed(t)), 3))
	linkColor, _ := overlay.ParseOptionalColor("#40c0ff80")
	for _, look := range []struct {
		colorBy   overlay.ColorBy
		linkColor overlay.OptionalColor
		fade      float32
		blend     string
	}{{overlay.ByTrack, overlay.OptionalColor{}, 0, ""}, {overlay.ByClass, overlay.OptionalColor{}, 0, ""}, {overlay.ByTrack, linkColor, 0, ""},
		{overlay.ByTrack, overlay.OptionalColor{}, 70, "add"}, {overlay.ByClass, overlay.OptionalColor{}, overlay.Auto, "screen"}} {
		st := overlay.DefaultStyle()
		st.Trail, st.Labels, st.CurveWidth, st.Bend = 4, false, 1.5, -0.4
		st.ColorBy, st.LinkColor = look.colorBy, look.linkColor
		st.LinkFade, st.Blend = look.fade, look.blend
		lo := knn.Options{K: 4, Hysteresis: 0.15, MaxDegree: 4, MaxDist: 90}
		o := overlay.Options{Style: st, Links: lo, Backend: overlay.BackendOptions{Workers: 2}}
		cpu, gpu, g := linkedDrawers(t, device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
		graph, _ := knn.New(lo)
		defer graph.Close()
		rs := st.ForHeight(h)
		if rs.LinkFade == overlay.Auto {
			rs.LinkFade = float32(lo.MaxDist) // as the Drawer: over the links' reach, MaxDist
		}
		ref, err := overlay.NewBuilder(rs, nil, w, h)
		if err != nil {
			t.Fatal(err)
		}
		base := linkedScene(rng, 70, 1, w, h)
		for f := 1; f <= 5; f++ {
			tf := &scene.Frame{Index: f, Boxes: base.Boxes}
			for _, p := range base.Points[:20+10*f] { // more points each frame: the buffers grow
				p.X += float32(rng.Float64()*6 - 3)
				tf.Points = append(tf.Points, p)
			}
			drawTracked(t, cpu, gpu, tf, w, h)
			edges, err := graph.Update(tf.Points)
			if err != nil {
				t.Fatal(err)
			}
			var want overlay.Primitives
			ref.Build(&want, tf, edges)
			checkLinkSlots(t, g, want.Lines[:len(edges)], want.Curves[:len(edges)])
			nc, _ := cpu.Links()
			ng, err := gpu.Links()
			if err != nil || nc != ng || nc != len(edges) {
				t.Fatalf("%+v, frame %d: links %d on the CPU, %d (%v) on the device, %d by knn.Graph", look, f, nc, ng, err, len(edges))
			}
		}
	}
}

// drawTracked draws tf through both drawers onto copies of one random frame and fails on a
// difference beyond the frame's tolerance (EmuTolerance, EmuTolerance10).
func drawTracked(t *testing.T, cpu, gpu *overlay.Drawer, tf *scene.Frame, w, h int) {
	t.Helper()
	a, b := randomFrame(randv1.New(randv1.NewSource(int64(tf.Index))), w, h)
	if err := cpu.Draw(a.frame, tf); err != nil {
		t.Fatal(err)
	}
	if err := gpu.Draw(b.frame, tf); err != nil {
		t.Fatal(err)
	}
	if worst, over := a.diff(b, a.tolerance()); over > 0 {
		t.Fatalf("frame %d (%s): %d samples differ by more than %d (largest %d)", tf.Index, a.name, over, a.tolerance(), worst)
	}
}

// checkLinkSlots compares the link slots of g's line and curve buffers with the links'
// lines and curves as overlay.Build makes them, byte for byte, and checks that the slots
// past them lie out of the frame.
func checkLinkSlots(t *testing.T, g *Backend, lines []overlay.Line, curves []overlay.Curve) {
	t.Helper()
	l := g.links
	gotLines := make([]overlay.Line, l.lineSlots)
	gotCurves := make([]overlay.Curve, l.curveSlots)
	if err := g.dev.CopyOut(linesBytes(gotLines), g.bufs.lines.ptr); err != nil {
		t.Fatal(err)
	}
	if err := g.dev.CopyOut(curvesBytes(gotCurves), g.bufs.curves.ptr); err != nil {
		t.Fatal(err)
	}
	if n := len(lines); !slices.Equal(linesBytes(gotLines[:n]), linesBytes(lines)) {
		for i := range lines {
			if gotLines[i] != lines[i] {
				t.Fatalf("link line %d of %d: device %+v, Build %+v", i, n, gotLines[i], lines[i])
			}
		}
	}
	if n := len(curves); !slices.Equal(curvesBytes(gotCurves[:n]), curvesBytes(curves)) {
		for i := range curves {
			if gotCurves[i] != curves[i] {
				t.Fatalf("link curve %d of %d: device %+v, Build %+v", i, n, gotCurves[i], curves[i])
			}
		}
	}
	for _, x := range gotLines[len(lines):] {
		if x.X0 > -1e29 || x.X1 > -1e29 {
			t.Fatalf("an unused line slot lies at %+v", x)
		}
	}
	for _, c := range gotCurves[len(curves):] {
		if max(c.X0, c.X1, c.X2) > -1e29 {
			t.Fatalf("an unused curve slot lies at %+v", c)
		}
	}
}

// checkLinkedFrames draws tracked frames through a Drawer on the GPU backend over a
// recorder and checks, frame by frame, that the links take no round trip: a frame is
// uploads, one graph launch and then the read-backs, with no launch outside the graph, and
// the graph (captured at the first frame, again when the points outgrow the buffers) is
// kernel launches only, the link update first (ending with the primitives) and then the
// drawing, from tk_begin to tk_composite. It runs on the emulated device and, with the cuda
// tag, on the CUDA device (the fake driver without a GPU).
func checkLinkedFrames(t *testing.T, rec *recorder) {
	const w, h = 160, 120
	rng := rand.New(rand.NewPCG(uint64(testSeed(t)), 5))
	lo := knn.Options{K: 5, Hysteresis: 0.15, MaxDegree: 3, MaxDist: 70, MaxDY: 60}
	st := overlay.DefaultStyle()
	st.Trail = 3
	_, d, g := linkedDrawers(t, rec, overlay.Options{Style: st, Links: lo})
	base := linkedScene(rng, 90, 1, w, h)
	for f := 1; f <= 4; f++ {
		tf := &scene.Frame{Index: f, Points: base.Points[:30*((f+1)/2)], Boxes: base.Boxes}
		fr, _ := randomFrame(randv1.New(randv1.NewSource(int64(f))), w, h)
		rec.calls = rec.calls[:0]
		regrows := g.regrows
		if err := d.Draw(fr.frame, tf); err != nil {
			t.Fatal(err)
		}
		if err := frameCalls(rec.calls, 1+g.regrows-regrows); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
		kernels := rec.kernels(g.graph)
		draw := slices.Index(kernels, "tk_begin")
		for _, k := range kernels[:draw] {
			if !strings.HasPrefix(k, "tk_links_") {
				t.Fatalf("frame %d: %s among the link update's kernels %v", f, k, kernels[:draw])
			}
		}
		if draw < 2 || kernels[draw-2] != "tk_links_emit" || kernels[draw-1] != "tk_links_blank" || kernels[len(kernels)-1] != "tk_camera" {
			t.Fatalf("frame %d: the graph launches %v", f, kernels)
		}
	}
	if g.captures != 2 {
		t.Errorf("%d captures for 30, 30, 60 and 60 points, want 2 (the link slots outgrow the line buffers once)", g.captures)
	}
}

// frameCalls checks one frame's device calls: setup (uploads, zeroing, a capture of kernel
// launches only), one graph launch, then read-backs only; all of it again for each of the
// frame's runs (a frame whose bin lists overflowed runs again after growing them, see
// Backend.Draw). A read-back before the graph launch would be a round trip inside the frame;
// anything but a launch in the capture, a node other than a kernel in the graph.
func frameCalls(calls []string, runs int) error {
	phase, n := "setup", 0
	for _, c := range calls {
		switch {
		case phase == "capture" && c == "EndCapture":
			phase = "setup"
		case phase == "capture" && c != "Launch":
			return fmt.Errorf("%s during capture: the graph would hold more than kernels (calls %v)", c, calls)
		case phase == "setup" && c == "BeginCapture":
			phase = "capture"
		case phase == "setup" && c == "LaunchGraph":
			phase = "drawn"
			n++
		case (phase == "setup" || phase == "drawn") && (c == "CopyIn" || c == "Zero"):
			phase = "setup"
		case phase == "drawn" && c == "CopyOut":
		case phase != "capture":
			return fmt.Errorf("%s in the %s phase (calls %v): want uploads, one graph launch, read-backs", c, phase, calls)
		}
	}
	if phase != "drawn" || n != runs {
		return fmt.Errorf("%d graph launches for %d runs of the frame (calls %v)", n, runs, calls)
	}
	return nil
}

// linkedGraph returns the launches of the graph of a backend that builds the links with
// every option on, so that every link kernel is in it (for TestFatbinEntryPoints).
func linkedGraph(t *testing.T) []launch {
	g, rec := newRecordedGPU(t, false)
	if err := g.StartLinks(knn.Options{K: 3, Hysteresis: 0.15, MaxDegree: 2, MaxDist: 50, MaxDY: 40}); err != nil {
		t.Fatal(err)
	}
	fr, _ := randomFrame(randv1.New(randv1.NewSource(1)), 64, 48)
	tf := linkedScene(rand.New(rand.NewPCG(1, 1)), 12, 1, 64, 48)
	lf := &overlay.LinkFrame{Points: tf.Points, Colors: make([]scene.Color, len(tf.Points)),
		Style: overlay.LinkStyle{LineWidth: 1, CurveWidth: 1, Bend: 0.3, Opacity: 0.8}}
	if err := g.DrawLinked(fr.frame, &overlay.Primitives{}, lf); err != nil {
		t.Fatal(err)
	}
	return rec.graphs[g.graph]
}

func TestLinkedFrameHasNoRoundTrip(t *testing.T) {
	checkLinkedFrames(t, newRecorder(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true})))
}

// TestLinkedTimedStages: a timed backend that builds the links times them as the links
// stage, with the other stages, and draws what the untimed one draws.
func TestLinkedTimedStages(t *testing.T) {
	const w, h = 200, 150
	rng := rand.New(rand.NewPCG(uint64(testSeed(t)), 9))
	o := overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: 3, Hysteresis: 0.15},
		Backend: overlay.BackendOptions{Timed: true}}
	cpu, gpu, _ := linkedDrawers(t, device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
	for f := 1; f <= 3; f++ {
		drawTracked(t, cpu, gpu, linkedScene(rng, 40, f, w, h), w, h)
		for _, s := range overlay.Stages() {
			if tm := gpu.Timings(); tm[s] <= 0 {
				t.Errorf("frame %d: stage %v took %v", f, s, tm[s])
			}
		}
	}
}

// TestDrawNeedsTheLinks: once the backend builds the links, a plain Draw (whose primitives
// would carry links of their own) is refused rather than drawn without them.
func TestDrawNeedsTheLinks(t *testing.T) {
	g := newTestGPU(t, false)
	if err := g.StartLinks(knn.Options{K: 2}); err != nil {
		t.Fatal(err)
	}
	fr, _ := randomFrame(randv1.New(randv1.NewSource(1)), 20, 20)
	if err := g.Draw(fr.frame, &overlay.Primitives{}); err == nil {
		t.Error("Draw on a backend that builds the links succeeded")
	}
	if err := g.StartLinks(knn.Options{K: 2}); err == nil {
		t.Error("StartLinks twice succeeded")
	}
	if err := g.DrawLinked(fr.frame, &overlay.Primitives{}, &overlay.LinkFrame{Style: overlay.LinkStyle{LineWidth: 1}}); err != nil {
		t.Errorf("a frame without points: %v", err)
	}
}

// BenchmarkLinksHostSide times the host's part of a frame with links on the device: the
// points ordered and checked (already in id order, as trackers write them), staged with
// their colours, and uploaded with the parameter block (a memory copy on the emulated
// device; on a GPU, 16 bytes a point over PCIe). docs/gpu.md, "Links on the device", quotes it.
func BenchmarkLinksHostSide(b *testing.B) {
	for _, n := range []int{5000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dev := device.NewEmu(device.EmuOptions{})
			defer dev.Close()
			l, err := newDeviceLinks(dev, knn.Options{K: 5, Hysteresis: 0.15})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			pts := knntest.Points(rng, "uniform", n)
			slices.SortFunc(pts, func(p, q scene.Point) int { return p.ID - q.ID })
			colors := make([]scene.Color, n)
			style := overlay.LinkStyle{LineWidth: 2, CurveWidth: 2, Bend: 0.3, Opacity: 0.8}
			for b.Loop() {
				if err := l.frame(pts, colors, &style); err != nil {
					b.Fatal(err)
				}
				if err := l.upload(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestElectricLinksOnTheHost: with --link-style electric or a --link-shape the Drawer builds
// the links on the host (the device's link builder draws one line a link) and the GPU
// backend draws the arcs and shapes as curves: the same picture as the CPU within the
// tolerance, frame after frame, and the device's link update never started.
func TestElectricLinksOnTheHost(t *testing.T) {
	const w, h = 320, 200
	for _, tc := range []struct{ style, shape string }{{"electric", "straight"}, {"solid", "wave"}, {"dashed", "s"}} {
		rng := rand.New(rand.NewPCG(uint64(testSeed(t)), 26))
		st := overlay.DefaultStyle()
		st.Labels, st.LinkStyle, st.LinkShape, st.LinkFade, st.Blend = false, tc.style, tc.shape, overlay.Auto, "add"
		o := overlay.Options{Style: st, Links: knn.Options{K: 3, Hysteresis: 0.15}, Backend: overlay.BackendOptions{Workers: 2}}
		cpu, gpu, g := linkedDrawers(t, device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
		base := linkedScene(rng, 30, 1, w, h)
		for f := 1; f <= 3; f++ {
			tf := &scene.Frame{Index: f, Boxes: base.Boxes, Points: base.Points}
			drawTracked(t, cpu, gpu, tf, w, h)
		}
		if g.links != nil {
			t.Errorf("%s %s links: the device's link update was started", tc.style, tc.shape)
		}
		if n, err := gpu.Links(); n == 0 || err != nil {
			t.Errorf("%s %s links: %d links (%v)", tc.style, tc.shape, n, err)
		}
	}
}
