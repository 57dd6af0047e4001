package synthclip

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"trackink/scene"
)

func planes(c *Clip) (y, cb, cr []byte) {
	o := c.Options()
	y = make([]byte, o.Width*o.Height)
	return y, make([]byte, len(y)/4), make([]byte, len(y)/4)
}

func mustNew(t *testing.T, o Options) *Clip {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDeterministic: a clip is a function of its options, the seed included.
func TestDeterministic(t *testing.T) {
	for _, k := range []Kind{Bright, Motion, Pan, Dark} {
		a, b := mustNew(t, Options{Kind: k, Seed: 7, Frames: 20}), mustNew(t, Options{Kind: k, Seed: 7, Frames: 20})
		other := mustNew(t, Options{Kind: k, Seed: 8, Frames: 20})
		ya, cba, cra := planes(a)
		yb, cbb, crb := planes(b)
		yo, cbo, cro := planes(other)
		a.Frame(13, ya, cba, cra)
		b.Frame(13, yb, cbb, crb)
		other.Frame(13, yo, cbo, cro)
		if !bytes.Equal(ya, yb) || !bytes.Equal(cba, cbb) || !bytes.Equal(cra, crb) {
			t.Errorf("%s: two clips of seed 7 differ at frame 13", k)
		}
		if bytes.Equal(ya, yo) {
			t.Errorf("%s: seeds 7 and 8 give the same frame", k)
		}
		var ta, tb bytes.Buffer
		a.WriteTruth(&ta)
		b.WriteTruth(&tb)
		if !bytes.Equal(ta.Bytes(), tb.Bytes()) {
			t.Errorf("%s: ground truths of one seed differ", k)
		}
	}
}

// TestBrightTruthMatchesPicture: inside every ground-truth box that no other box touches,
// the picture is bright; away from every box it is dark. So the boxes are where the shapes
// are, in the frames they are in, entering and leaving included.
func TestBrightTruthMatchesPicture(t *testing.T) {
	c := mustNew(t, Options{Kind: Bright, Seed: 1})
	o := c.Options()
	y, cb, cr := planes(c)
	var f scene.Frame
	checked := 0
	for n := 1; n <= o.Frames; n += 7 {
		c.Frame(n, y, cb, cr)
		c.Truth().Frame(n, &f)
		for i, b := range f.Boxes {
			if alone(f.Boxes, i) {
				// The box's centre cross (an ellipse fills it too) is bright.
				cx, cy := int(b.X+b.W/2), int(b.Y+b.H/2)
				for d := -int(b.W/4) + 1; d < int(b.W/4); d++ {
					if v := y[cy*o.Width+cx+d]; v < 110 {
						t.Fatalf("frame %d: box %d's centre row has Y′ %d at x %d", n, b.ID, v, cx+d)
					}
				}
				checked++
			}
		}
		// Objects less than MinVisible in view are drawn but not in the ground truth.
		var all []scene.Box
		for k := range c.objects {
			all = append(all, c.box(k, n))
		}
		for yy := 0; yy < o.Height; yy++ {
			for xx := 0; xx < o.Width; xx++ {
				if !nearBox(all, float32(xx)+0.5, float32(yy)+0.5, 2) && y[yy*o.Width+xx] > 100 {
					t.Fatalf("frame %d: (%d, %d) is bright (%d) outside every box", n, xx, yy, y[yy*o.Width+xx])
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d lone boxes checked", checked)
	}
}

func alone(boxes []scene.Box, i int) bool {
	a := boxes[i]
	for j, b := range boxes {
		if j != i && a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
			return false
		}
	}
	return true
}

func nearBox(boxes []scene.Box, x, y, margin float32) bool {
	for _, b := range boxes {
		if x >= b.X-margin && x <= b.X+b.W+margin && y >= b.Y-margin && y <= b.Y+b.H+margin {
			return true
		}
	}
	return false
}

// TestObjectsCrossEnterAndLeave: the default clips have what the trackers must cope with:
// boxes that overlap, objects in view from the first frame, objects that enter after it,
// objects that leave before the end; and a Motion clip's patches cannot be told from the
// background by brightness alone.
func TestObjectsCrossEnterAndLeave(t *testing.T) {
	for _, k := range []Kind{Bright, Motion} {
		for seed := uint64(1); seed <= 3; seed++ {
			c := mustNew(t, Options{Kind: k, Seed: seed})
			first, last := map[int]int{}, map[int]int{}
			crossings := 0
			for f := range c.Truth().All() {
				for i, b := range f.Boxes {
					if _, ok := first[b.ID]; !ok {
						first[b.ID] = f.Index
					}
					last[b.ID] = f.Index
					if !alone(f.Boxes, i) {
						crossings++
					}
				}
			}
			var atStart, enter, leave int
			for id, n := range first {
				switch {
				case n == 1:
					atStart++
				default:
					enter++
				}
				if last[id] < c.Options().Frames {
					leave++
				}
			}
			t.Logf("%s seed %d: %d objects, %d in view at the start, %d enter, %d leave, %d box-frames overlapping",
				k, seed, len(first), atStart, enter, leave, crossings)
			if crossings == 0 || atStart == 0 || enter+leave == 0 {
				t.Errorf("%s seed %d: want crossings, objects in view at the start, and some entering or leaving", k, seed)
			}
		}
	}
	// Brightness statistics of a Motion clip: inside the patches and outside.
	c := mustNew(t, Options{Kind: Motion, Seed: 1, Noise: -1})
	y, cb, cr := planes(c)
	c.Frame(40, y, cb, cr)
	var f scene.Frame
	c.Truth().Frame(40, &f)
	var in, out stats
	o := c.Options()
	for yy := 0; yy < o.Height; yy++ {
		for xx := 0; xx < o.Width; xx++ {
			v := float64(y[yy*o.Width+xx])
			switch {
			case nearBox(f.Boxes, float32(xx)+0.5, float32(yy)+0.5, -3):
				in.add(v) // well inside a box: mostly patch (corners of ellipses are background)
			case !nearBox(f.Boxes, float32(xx)+0.5, float32(yy)+0.5, 1):
				out.add(v)
			}
		}
	}
	t.Logf("Motion frame 40: patches mean %.1f sd %.1f, background mean %.1f sd %.1f", in.mean(), in.sd(), out.mean(), out.sd())
	if math.Abs(in.mean()-out.mean()) > 6 || math.Abs(in.sd()-out.sd()) > 0.15*out.sd() {
		t.Errorf("patches and background differ in brightness statistics")
	}
}

type stats struct{ n, sum, sum2 float64 }

func (s *stats) add(v float64) { s.n++; s.sum += v; s.sum2 += v * v }
func (s *stats) mean() float64 { return s.sum / s.n }
func (s *stats) sd() float64   { m := s.mean(); return math.Sqrt(s.sum2/s.n - m*m) }

// TestPanFlowIsExact: the picture of frame n + k is frame n's moved by k times the flow,
// to the rounding of 8-bit samples, for a flow of half a pixel (two frames make a whole
// pixel, so the comparison needs no interpolation) and for a whole-pixel flow.
func TestPanFlowIsExact(t *testing.T) {
	for _, c := range []struct {
		fx, fy float64
		k      int
	}{{0.5, -0.25, 4}, {2, 1, 1}} {
		clip := mustNew(t, Options{Kind: Pan, Seed: 3, Noise: -1, FlowX: c.fx, FlowY: c.fy, Frames: 10})
		if dx, dy := clip.Flow(); dx != c.fx || dy != c.fy {
			t.Fatalf("Flow() = %g, %g", dx, dy)
		}
		o := clip.Options()
		a, cb, cr := planes(clip)
		b, _, _ := planes(clip)
		clip.Frame(3, a, cb, cr)
		clip.Frame(3+c.k, b, cb, cr)
		sx, sy := int(c.fx*float64(c.k)), int(c.fy*float64(c.k))
		maxDiff := func(sx, sy int) int {
			m := 0
			for y := 8; y < o.Height-8; y++ {
				for x := 8; x < o.Width-8; x++ {
					d := int(b[(y+sy)*o.Width+x+sx]) - int(a[y*o.Width+x])
					m = max(m, d, -d)
				}
			}
			return m
		}
		if d := maxDiff(sx, sy); d > 1 {
			t.Errorf("flow %g, %g: frame %d is frame 3 moved by (%d, %d) only to within %d code values", c.fx, c.fy, 3+c.k, sx, sy, d)
		}
		// One pixel off is far off: the comparison can fail.
		if d := maxDiff(sx+1, sy); d < 20 {
			t.Errorf("flow %g, %g: frame 3 moved one pixel too far still matches to within %d", c.fx, c.fy, d)
		}
	}
}

// TestDarkIsBrightInverted: a Dark clip is its Bright clip's negative, with the same
// ground truth.
func TestDarkIsBrightInverted(t *testing.T) {
	b, d := mustNew(t, Options{Kind: Bright, Seed: 4}), mustNew(t, Options{Kind: Dark, Seed: 4})
	yb, cbb, crb := planes(b)
	yd, cbd, crd := planes(d)
	b.Frame(30, yb, cbb, crb)
	d.Frame(30, yd, cbd, crd)
	for i := range yb {
		if int(yb[i])+int(yd[i]) != 251 {
			t.Fatalf("sample %d: bright %d, dark %d", i, yb[i], yd[i])
		}
	}
	if !bytes.Equal(cbb, cbd) || !bytes.Equal(crb, crd) {
		t.Error("chroma differs")
	}
	var tb, td bytes.Buffer
	b.WriteTruth(&tb)
	d.WriteTruth(&td)
	if !bytes.Equal(tb.Bytes(), td.Bytes()) {
		t.Error("ground truths differ")
	}
}

// TestY4M: the file is the header and every frame's planes.
func TestY4M(t *testing.T) {
	c := mustNew(t, Options{Kind: Bright, Width: 96, Height: 64, Frames: 3, FPS: 25})
	var buf bytes.Buffer
	if err := c.WriteY4M(&buf); err != nil {
		t.Fatal(err)
	}
	header := "YUV4MPEG2 W96 H64 F25:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n"
	if want := len(header) + 3*(len("FRAME\n")+96*64*3/2); buf.Len() != want || !bytes.HasPrefix(buf.Bytes(), []byte(header)) {
		t.Errorf("Y4M of %d bytes starting %q, want %d bytes after %q", buf.Len(), buf.Bytes()[:min(buf.Len(), 60)], want, header)
	}
	y, cb, cr := planes(c)
	c.Frame(2, y, cb, cr)
	second := buf.Bytes()[len(header)+len("FRAME\n")+96*64*3/2+len("FRAME\n"):]
	if !bytes.Equal(second[:len(y)], y) || !bytes.Equal(second[len(y):len(y)+len(cb)], cb) {
		t.Error("frame 2 in the file differs from Frame(2)")
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Kind: 7},
		{Width: 63, Height: 64},
		{Width: 640, Height: 361},
		{Frames: -1},
		{FlowX: math.NaN()},
		{FlowX: 1000},
		{Size: -1}, {Size: 6}, {Speed: 11}, {Grain: -0.5},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

// Size and Speed scale the objects' boxes and motion, and leave the default clip as it was
// at 1; Grain changes the texture, not the objects.
func TestSizeSpeedGrain(t *testing.T) {
	base := Options{Kind: Motion, Seed: 4, Frames: 20}
	truthOf := func(o Options) *Clip {
		c, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ref := truthOf(base)
	ones := base
	ones.Size, ones.Speed, ones.Grain = 1, 1, 1
	if !slices.Equal(ref.objects, truthOf(ones).objects) {
		t.Error("Size, Speed and Grain of 1 change the clip")
	}
	for _, tc := range []struct {
		name        string
		edit        func(*Options)
		size, speed float64
	}{
		{"size", func(o *Options) { o.Size = 1.5 }, 1.5, 1},
		{"speed", func(o *Options) { o.Speed = 0.4 }, 1, 0.4},
		{"grain", func(o *Options) { o.Grain = 2 }, 1, 1},
	} {
		o := base
		tc.edit(&o)
		c := truthOf(o)
		for k, ob := range c.objects {
			r := ref.objects[k]
			if math.Abs(ob.half[0]-tc.size*r.half[0]) > 1e-9 || math.Abs(ob.vel[0]-tc.speed*r.vel[0]) > 1e-9 {
				t.Errorf("%s: object %d half %v vel %v, want %g and %g times %v, %v", tc.name, k, ob.half, ob.vel, tc.size, tc.speed, r.half, r.vel)
			}
		}
	}
}
