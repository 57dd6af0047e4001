package gpu

import (
	"math/rand"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/overlay"
)

// drawBoth draws p on the CPU and on g onto copies of one random RGBA frame and fails on
// a difference beyond EmuTolerance.
func drawBoth(t *testing.T, rng *rand.Rand, g *Backend, p *overlay.Primitives, w, h int) {
	t.Helper()
	cpu := newTestCPU(t)
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
	g, rec := newRecordedGPU(t, false)
	f := testFont(t, 12)
	for i := 0; i < 4; i++ {
		drawBoth(t, rng, g, randomScene(rng, 200, 150, f), 200, 150)
	}
	if g.captures != 1 {
		t.Errorf("%d captures for four frames of one size and small scenes, want 1", g.captures)
	}
	want := []string{"tk_begin", "tk_curve_chords", "tk_scan_sums_chords", "tk_scan_mid_chords", "tk_scan_apply_chords",
		"tk_bin_count", "tk_scan_sums_bins", "tk_scan_mid_bins", "tk_scan_apply_bins", "tk_bin_cursor", "tk_bin_fill",
		"tk_bin_sort", "tk_effects_copy", "tk_effects_gauss_weights", "tk_effects_gauss", "tk_effects_sort", "tk_effects", "tk_boxes", "tk_lines", "tk_curves", "tk_echo", "tk_composite_blended", "tk_labels", "tk_composite",
		"tk_camera_copy", "tk_camera"}
	if got := rec.kernels(g.graph); !slices.Equal(got, want) {
		t.Errorf("graph launches %v, want %v", got, want)
	}
	if len(rec.graphs) != 1 {
		t.Errorf("%d live graphs, want 1", len(rec.graphs))
	}
}

// TestTimedStages: a timed backend launches the stages one by one with events between them
// (an event recorded in a graph cannot be timed), reports every stage's time, and draws the
// same pictures.
func TestTimedStages(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g, rec := newRecordedGPU(t, true)
	drawTimed(t, rng, g)
	if g.captures != 0 || len(rec.graphs) != 0 {
		t.Errorf("a timed backend captured %d graphs", g.captures)
	}
}

func TestSizeChangeRecaptures(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g, rec := newRecordedGPU(t, false)
	f := testFont(t, 12)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, f), 130, 70)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, f), 130, 70)
	drawBoth(t, rng, g, randomScene(rng, 200, 140, f), 200, 140)
	drawBoth(t, rng, g, randomScene(rng, 130, 70, f), 130, 70)
	if g.captures != 3 {
		t.Errorf("%d captures for sizes A, A, B, A: want 3", g.captures)
	}
	if n := len(rec.graphs); n != 1 {
		t.Errorf("%d live graphs: old graphs are not freed", n)
	}
}

func TestCapacityGrowth(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	g := newTestGPU(t, false)
	const w, h = 320, 320
	drawBoth(t, rng, g, randomScene(rng, w, h, testFont(t, 12)), w, h)
	// More boxes than the first capacity: the per-primitive grids grow, so a new capture.
	p := &overlay.Primitives{}
	for i := range 3 * minCap {
		p.Boxes = append(p.Boxes, overlay.Box{X: float32(i % 300), Y: float32(i % 290), W: 20, H: 20, Stroke: 2,
			StrokeColor: overlay.RGBA{R: 0.5, A: 0.5}})
	}
	drawBoth(t, rng, g, p, w, h)
	if g.captures != 2 {
		t.Errorf("%d captures after the box count outgrew its capacity, want 2", g.captures)
	}
	// Long lines crossing many tiles: their bin list outgrows its buffer. The grids do not
	// change (the buffer's address is in the parameter block), so no new capture, but the
	// frame runs again and must still be right.
	p = &overlay.Primitives{}
	for i := range 60 {
		p.Lines = append(p.Lines, overlay.Line{X0: 0, Y0: float32(i * 5), X1: w, Y1: float32(h - i*5), Width: 3,
			Color: overlay.RGBA{G: 0.4, A: 0.4}})
	}
	before := g.regrows
	drawBoth(t, rng, g, p, w, h)
	if g.regrows != before+1 || g.captures != 2 {
		t.Errorf("after the line bins overflowed: %d regrows (want 1), %d captures (want 2)", g.regrows-before, g.captures)
	}
	drawBoth(t, rng, g, p, w, h)
	if g.regrows != before+1 {
		t.Errorf("the grown bin buffer did not suffice for the same frame again")
	}
}

// drawTimed draws three scenes on the timed backend g, as drawBoth does, and checks that
// every stage the backend runs (bin to composite; the drawer runs the links) reports a time.
func drawTimed(t *testing.T, rng *rand.Rand, g *Backend) {
	t.Helper()
	f := testFont(t, 12)
	for range 3 {
		drawBoth(t, rng, g, randomScene(rng, 200, 150, f), 200, 150)
		tm := g.Timings()
		for s := overlay.StageBin; s < overlay.NumStages; s++ {
			if tm[s] <= 0 {
				t.Errorf("stage %v: time %v", s, tm[s])
			}
		}
		if tm[overlay.StageLinks] != 0 {
			t.Errorf("the backend timed the links, which the drawer runs")
		}
	}
}
