// Package synthclip makes test clips whose ground truth is known exactly, for measuring
// trackers: bright shapes on a dark noisy background (Bright, and its negative Dark),
// textured patches moving over a static background of the same brightness statistics
// (Motion), and a textured picture panning at a known sub-pixel speed (Pan).
//
// A clip is a pure function of its Options, the seed included: Frame(n) draws frame n alone,
// in any order, the same on every machine, so a test can run a tracker on the planes
// directly, or write the clip as a Y4M file (lossless, read by FFmpeg and OpenCV alike) for
// a command or a script to decode. Frames come as 8-bit 4:2:0 planes in limited range (Y′
// 16–235), as decoders hand them over.
//
// The pictures are made from value noise: a lattice of random values interpolated by
// Catmull-Rom cubics (continuous and smooth, so that the gradients Lucas–Kanade reads are
// those of a real picture, and a shift by a fraction of a pixel is an exact sample of the
// same function), two octaves summed. Objects move in straight lines at constant speed; they
// are made in pairs that pass through one point at one frame, so that every clip has
// crossings, and where a path starts or ends outside the frame the object enters or leaves.
package synthclip

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"trackink/scene"
)

// Kind says what a clip shows.
type Kind int

const (
	// Bright clips show bright shapes (ellipses and rectangles, lightly textured, each of
	// its own hue) on a dark textured background with sensor noise: the `bright` and
	// `color` detection modes' material.
	Bright Kind = iota
	// Motion clips show textured patches moving over a static textured background of the
	// same mean and contrast, so that only motion tells them apart, under a slow change of
	// light: the `motion` mode's material. Some patches are in view from the first frame.
	Motion
	// Pan clips show a textured picture moving as a whole by Options.FlowX, FlowY pixels a
	// frame: the `points` mode's material, whose ground truth is the flow.
	Pan
	// Dark clips are the Bright clip of the same options with Y′ inverted (16 ↔ 235): dark
	// shapes on a light background, the same objects and ground truth: the `dark` mode's
	// material.
	Dark
)

// String names the kind as a detection mode would: "bright", "motion", "pan".
func (k Kind) String() string {
	switch k {
	case Bright:
		return "bright"
	case Motion:
		return "motion"
	case Pan:
		return "pan"
	case Dark:
		return "dark"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Options describe a clip. Zero fields take the defaults given with each.
type Options struct {
	Kind          Kind
	Width, Height int // even, at least 64; default 640 × 360
	Frames        int // default 90
	FPS           int // default 30
	Seed          uint64
	// Objects is the number of shapes or patches (Bright, Dark, Motion), rounded up to an even
	// number because they are made in crossing pairs; default 6.
	Objects int
	// Noise is the standard deviation of the sensor noise added to every Y′ sample, in
	// 8-bit code values; default 3. A negative value means none.
	Noise float64
	// FlowX, FlowY are the Pan clip's motion in pixels a frame: what is at (x, y) in frame
	// n is at (x + FlowX, y + FlowY) in frame n + 1. Default 0.43, 0.17 when both are 0.
	FlowX, FlowY float64
	// Size scales the objects' sizes (half sides of 2 to 8 % of the height at 1), Speed their
	// speeds (2.5 to 5.5 pixels a frame at 640 wide at 1) and Grain the texture's cells
	// (7 and 3 pixels at 1): clips unlike the tests' own, to check a tracker on material it
	// was not tuned to. Default 1 each.
	Size, Speed, Grain float64
	// LightDrift is the Motion clip's change of overall brightness from the first frame to
	// the last, as a fraction (0.06: six per cent brighter at the end); default 0.06. A
	// negative value darkens.
	LightDrift float64
}

// MinVisible is the fraction of an object's box that must lie inside the frame for the
// ground truth to hold it: an object entering or leaving is in the ground truth from the
// frame where a fifth of its box is in view, as a tracker can be expected to see it.
const MinVisible = 0.2

// Clip is a synthetic clip and its ground truth. It is read-only after New; any number of
// goroutines may draw frames at once.
type Clip struct {
	opts    Options
	objects []object
	bg      []float32 // all but Pan: the static background's Y′ before noise
	tex     texture
	truth   *scene.Tracks
}

// object is one shape or patch: its centre moves from c0 at frame 1 by vel a frame.
type object struct {
	c0, vel     [2]float64
	half        [2]float64 // half width, half height
	ellipse     bool
	luma        float64 // Bright: base Y′
	cb, cr      float64 // Bright: chroma
	texOffset   [2]float64
	texContrast float64
}

// New returns the clip that o describes, with its ground truth built.
func New(o Options) (*Clip, error) {
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = 640, 360
	}
	if o.Frames == 0 {
		o.Frames = 90
	}
	if o.FPS == 0 {
		o.FPS = 30
	}
	if o.Objects == 0 {
		o.Objects = 6
	}
	o.Objects += o.Objects & 1
	if o.Noise == 0 {
		o.Noise = 3
	}
	if o.FlowX == 0 && o.FlowY == 0 {
		o.FlowX, o.FlowY = 0.43, 0.17
	}
	if o.LightDrift == 0 {
		o.LightDrift = 0.06
	}
	for _, v := range []*float64{&o.Size, &o.Speed, &o.Grain} {
		if *v == 0 {
			*v = 1
		}
	}
	switch {
	case o.Kind < Bright || o.Kind > Dark:
		return nil, fmt.Errorf("synthclip: unknown kind %d", o.Kind)
	case o.Width < 64 || o.Height < 64 || o.Width%2 != 0 || o.Height%2 != 0 || o.Width > 8192 || o.Height > 8192:
		return nil, fmt.Errorf("synthclip: size %dx%d: want even sizes from 64 to 8192", o.Width, o.Height)
	case o.Frames < 1 || o.FPS < 1 || o.Objects < 0:
		return nil, errors.New("synthclip: frames, fps and objects must be positive")
	case math.IsNaN(o.FlowX+o.FlowY+o.Noise+o.LightDrift) || math.Abs(o.FlowX) > 100 || math.Abs(o.FlowY) > 100:
		return nil, errors.New("synthclip: flow, noise and light drift must be numbers, flow within ±100 px")
	case !(o.Size > 0 && o.Size <= 5 && o.Speed > 0 && o.Speed <= 10 && o.Grain > 0 && o.Grain <= 10):
		return nil, errors.New("synthclip: size (up to 5), speed (up to 10) and grain (up to 10) must be positive")
	}
	stream := o.Kind
	if o.Kind == Dark {
		stream = Bright // the same objects as the Bright clip
	}
	r := rand.New(rand.NewPCG(o.Seed, uint64(stream)+0x5c1e))
	c := &Clip{opts: o, tex: newTexture(r, o.Grain)}
	if o.Kind != Pan {
		c.makeObjects(r)
		c.makeBackground()
	}
	var err error
	if c.truth, err = scene.NewTracks(c.truthFrames()); err != nil {
		return nil, fmt.Errorf("synthclip: ground truth: %w", err)
	}
	return c, nil
}

// Options returns the clip's options with the defaults filled in.
func (c *Clip) Options() Options { return c.opts }

// Truth returns the ground truth: one box a frame for every object at least MinVisible in
// view, with ids from 1 in the order the objects were made, occluded or not (as
// MOTChallenge ground truth holds an object hidden behind another). A Pan clip has none.
func (c *Clip) Truth() *scene.Tracks { return c.truth }

// Flow returns the Pan clip's motion in pixels a frame (see Options.FlowX), 0, 0 for the
// other kinds.
func (c *Clip) Flow() (dx, dy float64) {
	if c.opts.Kind != Pan {
		return 0, 0
	}
	return c.opts.FlowX, c.opts.FlowY
}

// makeObjects places the objects in pairs: both of a pair pass through one point, inside
// the middle of the frame, at one frame between 30 % and 70 % of the clip, in directions at
// least 45° apart, at 2.5 to 5.5 pixels a frame at 640 wide (scaled with the width).
func (c *Clip) makeObjects(r *rand.Rand) {
	w, h := float64(c.opts.Width), float64(c.opts.Height)
	n := float64(c.opts.Frames)
	scale := w / 640
	for k := 0; k < c.opts.Objects; k += 2 {
		cross := [2]float64{w * (0.2 + 0.6*r.Float64()), h * (0.2 + 0.6*r.Float64())}
		at := 1 + (n-1)*(0.3+0.4*r.Float64())
		dir := r.Float64() * 2 * math.Pi
		for i := range 2 {
			if i == 1 {
				dir += math.Pi/4 + r.Float64()*math.Pi*1.5 // 45° to 315° from the first
			}
			speed := (2.5 + 3*r.Float64()) * scale * c.opts.Speed
			vel := [2]float64{speed * math.Cos(dir), speed * math.Sin(dir)}
			ob := object{
				vel:     vel,
				c0:      [2]float64{cross[0] - vel[0]*(at-1), cross[1] - vel[1]*(at-1)},
				half:    [2]float64{h * (0.02 + 0.06*r.Float64()) * c.opts.Size, h * (0.02 + 0.06*r.Float64()) * c.opts.Size},
				ellipse: r.IntN(2) == 0,
				luma:    150 + 70*r.Float64(),
				texOffset: [2]float64{
					r.Float64() * texSize * cell0, r.Float64() * texSize * cell0},
				texContrast: 12,
			}
			hue := r.Float64() * 2 * math.Pi
			ob.cb, ob.cr = 128+45*math.Cos(hue), 128+45*math.Sin(hue)
			if c.opts.Kind == Motion {
				ob.texContrast = motionContrast
			}
			c.objects = append(c.objects, ob)
		}
	}
}

// Brightness of the backgrounds: Bright's is dark, Motion's mid-grey with the same
// contrast as its patches.
const (
	brightBase, brightContrast = 38, 14
	motionBase, motionContrast = 118, 60
)

func (c *Clip) makeBackground() {
	w, h := c.opts.Width, c.opts.Height
	c.bg = make([]float32, w*h)
	base, contrast := float64(brightBase), float64(brightContrast)
	if c.opts.Kind == Motion {
		base, contrast = motionBase, motionContrast
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c.bg[y*w+x] = float32(base + contrast*c.tex.at(float64(x)+0.5, float64(y)+0.5))
		}
	}
}

// center returns object k's centre in frame n (1-based).
func (c *Clip) center(k, n int) (x, y float64) {
	o := &c.objects[k]
	t := float64(n - 1)
	return o.c0[0] + o.vel[0]*t, o.c0[1] + o.vel[1]*t
}

// box returns object k's whole box in frame n, in view or not.
func (c *Clip) box(k, n int) scene.Box {
	cx, cy := c.center(k, n)
	hw, hh := c.objects[k].half[0], c.objects[k].half[1]
	return scene.Box{ID: k + 1, X: float32(cx - hw), Y: float32(cy - hh), W: float32(2 * hw), H: float32(2 * hh)}
}

// truthFrames builds the ground truth (see Truth).
func (c *Clip) truthFrames() []scene.Frame {
	w, h := c.opts.Width, c.opts.Height
	var frames []scene.Frame
	for n := 1; n <= c.opts.Frames; n++ {
		f := scene.Frame{Index: n}
		for k := range c.objects {
			b := c.box(k, n)
			x0, y0 := max(b.X, 0), max(b.Y, 0)
			x1, y1 := min(b.X+b.W, float32(w)), min(b.Y+b.H, float32(h))
			if x1 <= x0 || y1 <= y0 || (x1-x0)*(y1-y0) < MinVisible*b.W*b.H {
				continue
			}
			f.Boxes = append(f.Boxes, scene.Box{ID: k + 1,
				X: float32(x0), Y: float32(y0), W: float32(x1 - x0), H: float32(y1 - y0)})
		}
		frames = append(frames, f)
	}
	return frames
}

// Frame draws frame n (1-based) into the planes: y is Width × Height samples, cb and cr
// Width/2 × Height/2 each, all rows packed without padding.
func (c *Clip) Frame(n int, y, cb, cr []byte) {
	w, h := c.opts.Width, c.opts.Height
	if n < 1 || n > c.opts.Frames || len(y) != w*h || len(cb) != w*h/4 || len(cr) != w*h/4 {
		panic(fmt.Sprintf("synthclip: frame %d of %d into planes of %d, %d, %d samples", n, c.opts.Frames, len(y), len(cb), len(cr)))
	}
	luma := make([]float32, w*h)
	chroma := make([]float32, 2*w*h) // full-resolution Cb, Cr, averaged down at the end
	for i := range chroma {
		chroma[i] = 128
	}
	switch c.opts.Kind {
	case Pan:
		dx, dy := c.opts.FlowX*float64(n-1), c.opts.FlowY*float64(n-1)
		for j := 0; j < h; j++ {
			for i := 0; i < w; i++ {
				luma[j*w+i] = float32(motionBase + motionContrast*c.tex.at(float64(i)+0.5-dx, float64(j)+0.5-dy))
			}
		}
	default:
		copy(luma, c.bg)
		for k := range c.objects {
			c.drawObject(k, n, luma, chroma)
		}
		if c.opts.Kind == Motion {
			gain := float32(1 + c.opts.LightDrift*float64(n-1)/float64(max(c.opts.Frames-1, 1)))
			for i := range luma {
				luma[i] *= gain
			}
		}
	}
	r := rand.New(rand.NewPCG(c.opts.Seed^0x9e3779b97f4a7c15, uint64(n)))
	noise := max(c.opts.Noise, 0)
	for i, v := range luma {
		y[i] = quantize(float64(v)+noise*r.NormFloat64(), 16, 235)
		if c.opts.Kind == Dark {
			y[i] = 16 + 235 - y[i]
		}
	}
	for j := 0; j < h/2; j++ {
		for i := 0; i < w/2; i++ {
			for p, plane := range [2][]byte{cb, cr} {
				s := chroma[p*w*h:]
				a := s[2*j*w+2*i] + s[2*j*w+2*i+1] + s[(2*j+1)*w+2*i] + s[(2*j+1)*w+2*i+1]
				plane[j*w/2+i] = quantize(float64(a)/4, 16, 240)
			}
		}
	}
}

// drawObject paints object k as it is in frame n over luma and chroma, its edges
// anti-aliased by the pixel's coverage.
func (c *Clip) drawObject(k, n int, luma, chroma []float32) {
	w, h := c.opts.Width, c.opts.Height
	o := &c.objects[k]
	cx, cy := c.center(k, n)
	x0, x1 := max(int(math.Floor(cx-o.half[0])), 0), min(int(math.Ceil(cx+o.half[0])), w)
	y0, y1 := max(int(math.Floor(cy-o.half[1])), 0), min(int(math.Ceil(cy+o.half[1])), h)
	for j := y0; j < y1; j++ {
		for i := x0; i < x1; i++ {
			cov := o.coverage(float64(i)-cx, float64(j)-cy)
			if cov <= 0 {
				continue
			}
			// The texture moves with the object: it is sampled in the object's own frame.
			tx, ty := float64(i)+0.5-cx+o.texOffset[0], float64(j)+0.5-cy+o.texOffset[1]
			var v float64
			if c.opts.Kind == Motion {
				v = motionBase + o.texContrast*c.tex.at(tx, ty)
			} else {
				v = o.luma + o.texContrast*c.tex.at(tx, ty)
			}
			p := j*w + i
			luma[p] += float32(cov) * (float32(v) - luma[p])
			if c.opts.Kind != Motion {
				chroma[p] += float32(cov) * (float32(o.cb) - chroma[p])
				chroma[w*h+p] += float32(cov) * (float32(o.cr) - chroma[w*h+p])
			}
		}
	}
}

// coverage returns how much of the pixel whose top-left corner is (dx, dy) from the
// object's centre the object covers, 0 to 1: exact for a rectangle, from the distance to the
// edge for an ellipse.
func (o *object) coverage(dx, dy float64) float64 {
	a, b := o.half[0], o.half[1]
	if !o.ellipse {
		return overlap(dx, dx+1, -a, a) * overlap(dy, dy+1, -b, b)
	}
	px, py := dx+0.5, dy+0.5
	q := math.Hypot(px/a, py/b)
	if q == 0 {
		return 1
	}
	// Distance to the edge along the ray, in pixels: (q − 1) times the radius that way.
	d := (q - 1) * math.Hypot(px, py) / q
	return math.Min(math.Max(0.5-d, 0), 1)
}

// overlap returns the length of [a0, a1] ∩ [b0, b1].
func overlap(a0, a1, b0, b1 float64) float64 { return math.Max(0, math.Min(a1, b1)-math.Max(a0, b0)) }

func quantize(v, lo, hi float64) byte { return byte(math.Round(math.Min(math.Max(v, lo), hi))) }
