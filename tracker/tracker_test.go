package tracker

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/internal/synthclip"
	"trackink/scene"
)

// clipKind is the synthetic clip each mode is tested on.
var clipKind = map[string]synthclip.Kind{Bright: synthclip.Bright, Dark: synthclip.Dark, Motion: synthclip.Motion,
	Color: synthclip.Bright, Points: synthclip.Pan}

// clipFrames draws the first n frames of a synthetic clip.
func clipFrames(t testing.TB, o synthclip.Options, n int) []*composite.YUV420P {
	clip, err := synthclip.New(o)
	if err != nil {
		t.Fatal(err)
	}
	w, h := clip.Options().Width, clip.Options().Height
	var out []*composite.YUV420P
	for k := 1; k <= n; k++ {
		f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
			StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		clip.Frame(k, f.Y, f.U, f.V)
		out = append(out, f)
	}
	return out
}

// TestNoAllocationsPerFrame: once its buffers have grown, a Tracker allocates nothing for a
// frame, in every mode (a 1080p frame analysed at 540 lines), points with every seed map,
// and with frames pushed to two detectors at once.
func TestNoAllocationsPerFrame(t *testing.T) {
	for _, mode := range slices.Concat(Modes, []string{"objects, pushed", "points, edges", "points, color", "points, color-edges"}) {
		t.Run(mode, func(t *testing.T) {
			m, seed, _ := strings.Cut(mode, ", ")
			o := DefaultOptions(m)
			kind := clipKind[o.Mode]
			if seed != "pushed" && seed != "" {
				o.PointSeed = seed
				kind = synthclip.Bright // coloured objects, and their edges
			}
			frames := clipFrames(t, synthclip.Options{Kind: kind, Width: 1920, Height: 1080, Frames: 60}, 60)
			switch mode {
			case Objects:
				o.Detectors = []Detector{network(t, []int{0})}
			case "objects, pushed":
				o.Detectors = []Detector{networkThreads(t, []int{0}, 1), networkThreads(t, []int{0}, 1)}
			}
			tr, err := New(o, 1920, 1080)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			for _, f := range frames[:40] {
				if _, err := tr.Push(f); err != nil {
					t.Fatal(err)
				}
			}
			k := 40
			allocs := testing.AllocsPerRun(16, func() {
				if _, err := tr.Push(frames[k%len(frames)]); err != nil {
					t.Fatal(err)
				}
				k++
			})
			if allocs != 0 {
				t.Errorf("%v allocations a frame, want 0", allocs)
			}
		})
	}
}

// TestDeterministic: two trackers given the same frames give the same tracks: motion's
// boxes, and points seeded on each map (followed, checked and re-seeded).
func TestDeterministic(t *testing.T) {
	motion := clipFrames(t, synthclip.Options{Kind: synthclip.Motion, Seed: 7, Frames: 40}, 40)
	pan := clipFrames(t, synthclip.Options{Kind: synthclip.Pan, Seed: 3, Frames: 20}, 20)
	// The pan is grey: the colour maps are run on coloured objects moving.
	coloured := clipFrames(t, synthclip.Options{Kind: synthclip.Bright, Seed: 3, Frames: 20}, 20)
	type run struct {
		name   string
		o      Options
		frames []*composite.YUV420P
	}
	runs := []run{{Motion, DefaultOptions(Motion), motion}}
	for _, seed := range PointSeeds {
		o := DefaultOptions(Points)
		o.PointSeed = seed
		frames := pan
		if seed == SeedColor || seed == SeedColorEdges {
			frames = coloured
		}
		runs = append(runs, run{"points, " + seed, o, frames})
	}
	for _, r := range runs {
		track := func() (s string, n int) {
			tr, err := New(r.o, 640, 360)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r.frames {
				out, err := tr.Step(f)
				if err != nil {
					t.Fatal(err)
				}
				s += fmt.Sprint(out.Boxes, out.Points)
				n += len(out.Boxes) + len(out.Points)
			}
			return s, n
		}
		a, n := track()
		if b, _ := track(); a != b || n == 0 {
			t.Errorf("%s: two runs differ (or found nothing: %d)", r.name, n)
		}
	}
}

// TestValidate: every option out of range is an error naming its field.
func TestValidate(t *testing.T) {
	cases := []struct {
		field string
		set   func(*Options)
	}{
		{"Mode", func(o *Options) { o.Mode = "blobs" }},
		{"AnalysisSize", func(o *Options) { o.AnalysisSize = 8 }},
		{"Threshold", func(o *Options) { o.Threshold = 300 }},
		{"Sensitivity", func(o *Options) { o.Sensitivity = 1.5 }},
		{"MinArea", func(o *Options) { o.MinArea = -0.1 }},
		{"MaxArea", func(o *Options) { o.MaxArea = 2 }},
		{"MaxArea", func(o *Options) { o.MinArea, o.MaxArea = 0.2, 0.1 }},
		{"MaxObjects", func(o *Options) { o.MaxObjects = 0 }},
		{"Hue", func(o *Options) { o.Hue = 360 }},
		{"MaxMove", func(o *Options) { o.MaxMove = 0 }},
		{"Confirm", func(o *Options) { o.Confirm = 0 }},
		{"Grace", func(o *Options) { o.Grace = -1 }},
		{"Smooth", func(o *Options) { o.Smooth = -0.5 }},
		{"PointSize", func(o *Options) { o.PointSize = 0 }},
		{"PointSeed", func(o *Options) { o.PointSeed = "blobs" }},
	}
	for _, c := range cases {
		o := DefaultOptions(Bright)
		c.set(&o)
		var fe *field.Error
		if err := o.Validate(); !errors.As(err, &fe) || fe.Field != "tracker.Options."+c.field {
			t.Errorf("%s: got %v", c.field, err)
		}
	}
	var fe *field.Error
	if _, err := New(DefaultOptions(Objects), 64, 64); !errors.As(err, &fe) || fe.Field != "tracker.Options.Detectors" {
		t.Errorf("objects without a detector: got %v", err)
	}
	o := DefaultOptions(Objects)
	o.Detectors = []Detector{&brightBoxes{}, nil}
	if _, err := New(o, 64, 64); !errors.As(err, &fe) || fe.Field != "tracker.Options.Detectors" {
		t.Errorf("objects with a nil detector: got %v", err)
	}
	for _, p := range Presets() {
		if err := p.Options.Validate(); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
}

// TestCrossingKeepsIDs: two bright squares that cross slowly, one region for 20 frames
// (longer than the grace period), leave the crossing with the ids they came in with.
func TestCrossingKeepsIDs(t *testing.T) {
	const w, h = 320, 180
	tr, err := New(DefaultOptions(Bright), w, h)
	if err != nil {
		t.Fatal(err)
	}
	f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	idAt := map[int]int{} // id → its square (0 A, 1 B)
	for n := 0; n < 100; n++ {
		for i := range f.Y {
			f.Y[i] = 30
		}
		// A from the left, B from the right, 1 px a frame, touching from frame 41 to 59.
		ax, bx := 100+n, 200-n
		for _, x0 := range []int{ax, bx} {
			for y := 80; y < 100; y++ {
				for x := x0; x < x0+20; x++ {
					f.Y[y*w+x] = 220
				}
			}
		}
		out, err := tr.Step(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range out.Boxes {
			cx := float64(b.X + b.W/2)
			// The square the box is on: the nearer.
			side := 0
			if abs(int(cx)-(bx+10)) < abs(int(cx)-(ax+10)) {
				side = 1
			}
			if n < 35 || n > 65 {
				if s, ok := idAt[b.ID]; !ok && n < 35 {
					idAt[b.ID] = side
				} else if ok && s != side {
					t.Fatalf("frame %d: id %d is on the other square", n+1, b.ID)
				}
			}
		}
		if n > 65 && len(out.Boxes) != 2 {
			t.Fatalf("frame %d: %d boxes after the crossing, want 2", n+1, len(out.Boxes))
		}
	}
	if len(idAt) != 2 {
		t.Errorf("ids %v, want two", idAt)
	}
}

// TestColorHue: with --hue, color keeps the region near that hue and leaves the others; without,
// it keeps every saturated one. Red, green and blue squares on grey, in BT.601 Y′CbCr (the
// green one starts at an odd x: chroma, at half resolution, puts its edge a pixel before).
func TestColorHue(t *testing.T) {
	const w, h = 160, 90
	f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	for i := range f.Y {
		f.Y[i] = 120
	}
	for i := range f.U {
		f.U[i], f.V[i] = 128, 128
	}
	// Limited-range Y′CbCr of pure red, green and blue.
	colors := [][3]byte{{81, 90, 240}, {145, 54, 34}, {41, 240, 110}}
	for k, c := range colors {
		x0 := 20 + 45*k
		for y := 30; y < 60; y++ {
			for x := x0; x < x0+30; x++ {
				f.Y[y*w+x] = c[0]
				f.U[(y/2)*(w/2)+x/2], f.V[(y/2)*(w/2)+x/2] = c[1], c[2]
			}
		}
	}
	for _, c := range []struct {
		hue  float64
		want []int // the squares found, by x
	}{{Auto, []int{20, 64, 110}}, {0, []int{20}}, {120, []int{64}}, {240, []int{110}}} {
		o := DefaultOptions(Color)
		o.Hue, o.Confirm = c.hue, 1
		out := firstFrame(t, o, f)
		var got []int
		for _, b := range out.Boxes {
			got = append(got, int(b.X+0.5))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("hue %v: squares at x %v, want %v", c.hue, got, c.want)
		}
	}
}

// TestExplainedByCutTracks: a region holding two tracks is taken for their crossing only if
// its sides are theirs. A side on the frame's border is that of a track last seen cut by
// it, whose object's extent there is unknown; a region holding such a track must also be
// covered by the tracks by half, or it may be one entering object seen in pieces.
// Boxes are x0, y0, x1, y1 in a 320 × 180 frame.
func TestExplainedByCutTracks(t *testing.T) {
	type box = [4]float64
	top := uint8(1 << 1) // side 1, the top
	cases := []struct {
		name   string
		region box
		tracks []box
		cut    []uint8
		want   bool
	}{
		{"two whole objects crossing", box{100, 40, 160, 80}, []box{{100, 40, 140, 80}, {120, 40, 160, 80}}, []uint8{0, 0}, true},
		{"an entering object held short, and another", box{100, 0, 160, 30}, []box{{100, 6, 140, 16}, {130, 10, 160, 30}}, []uint8{top, 0}, true},
		{"the same, the first not cut: the region's top is no track's", box{100, 0, 160, 30}, []box{{100, 6, 140, 16}, {130, 10, 160, 30}}, []uint8{0, 0}, false},
		{"pieces of one entering object, covering a third of it", box{100, 0, 160, 30}, []box{{100, 0, 125, 12}, {138, 18, 160, 30}}, []uint8{top, 0}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := motionTracker(t)
			r := c.region
			tr.dets = []rect{{x0: r[0], y0: r[1], x1: r[2], y1: r[3]}}
			for i, b := range c.tracks {
				k := boxTrack(i+1, b)
				k.region, k.cut = 0, c.cut[i]
				tr.tracks = append(tr.tracks, k)
			}
			if got := tr.explained(0); got != c.want {
				t.Errorf("explained: %v, want %v", got, c.want)
			}
		})
	}
}

// TestBoxesStayInPicture: a track's box is drawn clipped to the frame, at least a pixel
// wide and high, and a track whose box has left the picture ends: one smoothed past the
// border its object leaves by, fast, was drawn outside the picture, of no height (tree.avi
// at 1080p).
// Boxes are x0, y0, x1, y1 in a 320 × 180 frame; the tracks' filters follow their
// predictions (no gain), the detection lies on the border nearest.
func TestBoxesStayInPicture(t *testing.T) {
	type box = [4]float64
	cases := []struct {
		name      string
		track     box
		want      box
		wantTrack bool
	}{
		{"inside", box{100, 40, 140, 80}, box{100, 40, 140, 80}, true},
		{"across the bottom", box{100, 160, 140, 200}, box{100, 160, 140, 180}, true},
		{"across the left and the top", box{-20, -10, 20, 30}, box{0, 0, 20, 30}, true},
		{"below", box{100, 187, 140, 196}, box{}, false},
		{"beyond the right", box{323, 80, 340, 100}, box{}, false},
		{"half a pixel in", box{100, 179.5, 140, 199.5}, box{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := motionTracker(t)
			b := c.track
			tr.tracks = append(tr.tracks, boxTrack(1, b))
			// Its detection: the track's box pushed inside the frame, at least 6 pixels deep.
			tr.dets = []rect{{x0: min(max(b[0], 0), 314), y0: min(max(b[1], 0), 174), x1: max(min(b[2], 320), 6), y1: max(min(b[3], 180), 6)}}
			tr.associate()
			var got *scene.Box
			for i, o := range tr.out.Boxes {
				if o.X < 0 || o.Y < 0 || o.W < 1 || o.H < 1 || o.X+o.W > 320 || o.Y+o.H > 180 {
					t.Errorf("box %+v: not a pixel or more inside the 320 × 180 picture", o)
				}
				if o.ID == 1 {
					got = &tr.out.Boxes[i]
				}
			}
			kept := slices.ContainsFunc(tr.tracks, func(k track) bool { return k.id == 1 })
			if kept != c.wantTrack {
				t.Errorf("track kept: %v, want %v", kept, c.wantTrack)
			}
			if c.wantTrack {
				w := c.want
				if got == nil || got.X != float32(w[0]) || got.Y != float32(w[1]) || got.X+got.W != float32(w[2]) || got.Y+got.H != float32(w[3]) {
					t.Errorf("box %+v, want x0, y0, x1, y1 = %v", got, w)
				}
			}
		})
	}
}

// motionTracker is a Tracker in Motion mode of 320 × 180 frames.
func motionTracker(t *testing.T) *Tracker {
	t.Helper()
	tr, err := New(DefaultOptions(Motion), 320, 180)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// boxTrack is a confirmed track, id, at box b (x0, y0, x1, y1), standing still, its filters
// without gain: it stays where it is predicted, whatever it is matched with.
func boxTrack(id int, b [4]float64) track {
	k := track{id: id, det: -1, region: -1, hits: 5}
	for a, z := range [4]float64{(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1]} {
		k.k[a] = kalman1{p: z, r: 1}
	}
	return k
}
