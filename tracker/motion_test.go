package tracker

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/eval"
	"trackink/internal/synthclip"
	"trackink/scene"
)

// TestMedian9: the exchange network gives the median of nine samples, on random samples
// and on runs of equal ones.
func TestMedian9(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20011 // not a multiple of 32: the assembly and the Go loop both
	b := background{w: n, h: 1, filled: motionSamples, bg: make([]byte, n)}
	for k := range b.ring {
		b.ring[k] = make([]byte, n)
		for i := range b.ring[k] {
			b.ring[k][i] = byte(rng.IntN(256) >> (2 * (i % 4)))
		}
	}
	b.median()
	for i := range n {
		var v [motionSamples]byte
		for k := range v {
			v[k] = b.ring[k][i]
		}
		slices.Sort(v[:])
		if b.bg[i] != v[4] {
			t.Fatalf("pixel %d: median %d of %v, want %d", i, b.bg[i], v, v[4])
		}
	}
}

// TestBoxMeanReciprocal: boxMean's multiplication by a reciprocal is the division it
// replaces, for every sum of every neighbourhood size up to r = 7.
func TestBoxMeanReciprocal(t *testing.T) {
	for n := uint32(1); n <= 15*15; n++ {
		m := 1<<24/n + 1
		for v := uint32(0); v <= 255*n; v++ {
			if v*m>>24 != v/n {
				t.Fatalf("%d/%d: %d, want %d", v, n, v*m>>24, v/n)
			}
		}
	}
}

// TestTextureGrain works the grain out by hand on three planes of 96 × 96: flat, vertical
// stripes 8 px wide of 0 and 100, and one too small to compare pixels 24 apart.
func TestTextureGrain(t *testing.T) {
	const w, h = 96, 96
	flat := make([]byte, w*h)
	stripes := make([]byte, w*h)
	for i := range flat {
		flat[i] = 100
		stripes[i] = byte(100 * (i % w / 8 % 2))
	}
	for _, c := range []struct {
		name string
		p    []byte
		w, h int
		want int
	}{
		// Nothing differs at any distance: the grain is the first, 1.
		{"flat", flat, w, h, 1},
		// Down, pixels never differ; across, 24 apart (three stripes) they always do: 50 on
		// average. Every 4th column is compared: from d = 4 those 4 past a stripe's start
		// cross its edge, 11 of the 23 columns below 96 − d, so the average is 100 · 11/23 / 2
		// = 23.9, under half of 50; from d = 8 every column does (50).
		{"stripes 8 px", stripes, w, h, 8},
		{"24 rows", flat[:w*24], w, 24, 0},
	} {
		if got := textureGrain(c.p, c.w, c.h); got != c.want {
			t.Errorf("%s: grain %d, want %d", c.name, got, c.want)
		}
	}
}

// TestGrainClosing: the closing square follows the texture's grain, made odd, from 3 up to
// the opening's side.
func TestGrainClosing(t *testing.T) {
	const open = 2*motionRadius + 3
	for _, c := range []struct{ grain, want int }{
		{0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 5}, {5, 5}, {6, 7}, {7, 7}, {8, 7}, {24, 7},
	} {
		if got := grainClosing(c.grain, open); got != c.want {
			t.Errorf("grain %d: closing %d, want %d", c.grain, got, c.want)
		}
	}
}

// TestCleanCloses: two 12 × 12 squares a gap apart are one region after a closing by a
// square of side closing exactly when the gap is at most closing − 1 pixels wide.
func TestCleanCloses(t *testing.T) {
	for _, c := range []struct{ gap, closing, want int }{
		{2, 3, 1}, {3, 3, 2}, {4, 5, 1}, {5, 5, 2}, {6, 7, 1}, {7, 7, 2},
	} {
		const w, h = 64, 32
		mask := make([]byte, w*h)
		for y := 10; y < 22; y++ {
			for x := 10; x < 22; x++ {
				mask[y*w+x] = 1
				mask[y*w+x+12+c.gap] = 1
			}
		}
		var m morph
		m.clean(mask, w, h, 7, c.closing)
		var l labeller
		if got := len(l.components(mask, w, h)); got != c.want {
			t.Errorf("gap %d, closing %d: %d regions, want %d", c.gap, c.closing, got, c.want)
		}
	}
}

// TestRepeatedFrames: a video made at a higher frame rate than it was shot at (ffmpeg's
// fps filter) shows each picture two, three or six times over. The motion mode finds on
// every repeat what it found on the picture's first showing, and tracks as well as at the
// clip's own rate: the ghost test compares a region with an older distinct picture, not an
// older frame, which may be the same picture again (every object was taken for a ghost).
func TestRepeatedFrames(t *testing.T) {
	clip, err := synthclip.New(synthclip.Options{Kind: synthclip.Motion, Seed: 1, Frames: 60})
	if err != nil {
		t.Fatal(err)
	}
	own := eval.Boxes(clip.Truth(), trackClip(t, clip, DefaultOptions(Motion)), eval.DefaultIoU)
	for _, rep := range []int{2, 3, 6} {
		t.Run(fmt.Sprint(rep), func(t *testing.T) {
			tracks := trackRepeated(t, clip, DefaultOptions(Motion), rep)
			var truth []scene.Frame
			var buf, first, out scene.Frame
			emptied := 0
			for n := 1; n <= clip.Options().Frames; n++ {
				tf := clip.Truth().Frame(n, &buf)
				for j := range rep {
					k := (n-1)*rep + j + 1
					if tf != nil {
						truth = append(truth, scene.Frame{Index: k, Boxes: slices.Clone(tf.Boxes)})
					}
					f := tracks.Frame(k, &out)
					if j == 0 {
						first.Boxes = first.Boxes[:0]
						if f != nil {
							first.Boxes = append(first.Boxes, f.Boxes...)
						}
					} else if len(first.Boxes) > 0 && (f == nil || len(f.Boxes) == 0) {
						t.Errorf("frame %d (picture %d, repeat %d): no box, %d on the picture's first showing", k, n, j, len(first.Boxes))
						emptied++
					}
				}
			}
			tt, err := scene.NewTracks(truth)
			if err != nil {
				t.Fatal(err)
			}
			r := eval.Boxes(tt, tracks, eval.DefaultIoU)
			t.Logf("each picture %d times: MOTA %.3f IDF1 %.3f (misses %d, false positives %d, switches %d); at the clip's own rate %.3f, %.3f", rep, r.MOTA(), r.IDF1(), r.Misses, r.FalsePositives, r.IDSwitches, own.MOTA(), own.IDF1())
			if r.MOTA() < own.MOTA()-0.02 {
				t.Errorf("MOTA %.3f, want at least %.3f (the clip's own rate's less 0.02)", r.MOTA(), own.MOTA()-0.02)
			}
		})
	}
}

// TestGhostInsideMovingTrack checks what dropGhosts does with a region that has not changed
// since the older frame: dropped, and written into the background unless half of it or
// more lies where a moving track is predicted (a piece of that track's object).
func TestGhostInsideMovingTrack(t *testing.T) {
	const w, h = 32, 16
	square := rect{x0: 4, y0: 4, x1: 10, y1: 10} // the unchanged region, 180 on 100
	cases := []struct {
		name    string
		moving  []rect
		written bool
	}{
		{"no track", nil, true},
		{"a track elsewhere", []rect{{x0: 20, y0: 4, x1: 30, y1: 12}}, true},
		{"a track over a third of it", []rect{{x0: 8, y0: 0, x1: 20, y1: 16}}, true},
		{"a track over half of it", []rect{{x0: 7, y0: 0, x1: 20, y1: 16}}, false},
		{"a track around it", []rect{{x0: 2, y0: 2, x1: 14, y1: 12}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			empty := &plane{w: w, h: h, pix: slices.Repeat([]byte{100}, w*h)}
			cur := &plane{w: w, h: h, pix: slices.Clone(empty.pix)}
			mask := make([]byte, w*h)
			for y := int(square.y0); y < int(square.y1); y++ {
				for x := int(square.x0); x < int(square.x1); x++ {
					cur.pix[y*w+x], mask[y*w+x] = 180, 1
				}
			}
			var b background
			b.prime(empty)
			// The older frame the test compares with shows the region as it is now.
			b.recent[0], b.recentAt[0], b.frames = slices.Clone(cur.pix), 0, recentStep
			var l labeller
			comps := l.components(mask, w, h)
			if len(comps) != 1 {
				t.Fatalf("%d regions, want 1", len(comps))
			}
			if kept := b.dropGhosts(&l, comps, cur, c.moving); len(kept) != 0 {
				t.Errorf("kept %v, want the region dropped", kept)
			}
			at := 5*w + 5
			if got := b.bg[at] == 180 && b.ring[0][at] == 180; got != c.written {
				t.Errorf("background %d, first sample %d: written %v, want %v", b.bg[at], b.ring[0][at], got, c.written)
			}
		})
	}
}

// TestMovingAt checks which tracks the ghost test spares (Tracker.movingAt): the confirmed
// ones moving at minMoving analysed pixels a frame or faster, where the next frame's
// prediction puts them, in analysed pixels (here half the frame's).
func TestMovingAt(t *testing.T) {
	tr, err := New(DefaultOptions(Motion), 1920, 1080)
	if err != nil {
		t.Fatal(err)
	}
	if tr.factor != 2 {
		t.Fatalf("factor %d, want 2", tr.factor)
	}
	at := func(id int, x, y, w, h, vx, vy, vw float64) track {
		return track{id: id, k: [4]kalman1{{p: x, v: vx}, {p: y, v: vy}, {p: w, v: vw}, {p: h}}}
	}
	tr.tracks = []track{
		at(1, 100, 50, 20, 10, 1.1, 0, 2),   // 0.55 analysed pixels a frame: moving
		at(2, 300, 50, 20, 10, 0.6, 0.6, 0), // 0.42: not moving
		at(0, 500, 50, 20, 10, 8, 0, 0),     // tentative
		at(4, 700, 50, 20, 10, 0, -1.2, 0),  // 0.6, upwards
	}
	want := []rect{{x0: 45.05, y0: 22.5, x1: 56.05, y1: 27.5}, {x0: 345, y0: 21.9, x1: 355, y1: 26.9}}
	got := tr.movingAt()
	if len(got) != len(want) {
		t.Fatalf("moving %v, want %v", got, want)
	}
	for i, g := range got {
		w := want[i]
		if math.Abs(g.x0-w.x0) > 1e-9 || math.Abs(g.y0-w.y0) > 1e-9 || math.Abs(g.x1-w.x1) > 1e-9 || math.Abs(g.y1-w.y1) > 1e-9 {
			t.Errorf("moving[%d] %+v, want %+v", i, g, w)
		}
	}
}
