package overlay

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"trackink/internal/field"
)

// The camera look (the pack's CCTV node): after the overlay is composited, the whole
// picture is altered as a security camera's is, by the backend's camera stage
// (render/camera.go, kernels/camera.cu):
//
//   - scanlines: every other band of rows (a band is ScanlinePeriod rows; 0: h/540, at least
//     one) darkened by Scanlines of its level;
//   - a vignette: each pixel darkened by gx(x)·gy(y), g(d) = 1 − Vignette·d⁴ of its distance
//     d from the centre over the half width (height), so the corners lose most;
//   - chromatic aberration: the colour planes shifted apart horizontally, Cr (R') by
//     Aberration px to the right and Cb (B') to the left (Y' and G' stay), so edges fringe red
//     and blue;
//   - grain: monochrome noise on luma, uniform within ±Grain of the luma range, fresh each
//     frame from a hash of the seed, the frame number and the pixel (GrainHash), so the same command
//     gives the same frames and a segment the whole render's;
//   - colour grain: the same kind of noise on chroma, Cb and Cr each their own, within
//     ±GrainColor of the luma range, keyed as the grain is (ColorGrainKeys); an R'G'B' frame
//     takes it through BT.709's matrix (ColorGrainRGB), so it changes hue and not luma there
//     as on Y'CbCr frames;
//   - a tint: the picture made monochrome and toned with a colour (night vision's green),
//     mixed with the original by TintStrength, before the other parts (so the fringes and
//     grain fall on the toned picture);
//   - a stamp in the top-left corner, the camera's name and its clock, drawn as a label
//     before the camera stage runs (so it is scanned and grained like the rest).
//
// Darkening is toward black in luma (Y' = black + (Y' − black)·k) and toward neutral in
// chroma, so it keeps hues; R'G'B' frames scale each component. The gains are in Q15 fixed
// point (CameraGains), made once per frame size on the host for both backends, and every
// sample's arithmetic is integer, so the CPU and the kernels write the same bytes.
//
// The tint works where the frames are, in Y'CbCr, which is linear in R'G'B': the picture
// toned with colour T has R'G'B' = y·T, y the pixel's luma fraction, so its Y' is Y' scaled
// by T's luma fraction and its chroma is T's chroma scaled by y. Mixed with the original by
// the strength s, every plane follows one rule (CameraTint):
//
//	v = c + (((v − c)·Keep + (l − b)·Move + 2¹⁴) >> 15),  clamped to the plane's codes,
//
// c the plane's black (chroma: neutral), b luma's black, l the pixel's luma (a chroma sample
// takes the luma at its block's top-left pixel, as it takes that pixel's gain; R'G'B':
// CameraLuma of its three components), Keep = 1 − s and Move = s·(T's code − c)/(white − b).
// On Y' the rule is a gain, 1 − s + s·(T's luma fraction), and runs as one: the columns'
// gains are scaled by it (CameraTint.LumaCols) and the tint costs Y' nothing. The stage's
// gain rounds down, so this one is rounded up, which keeps Y' within a code value.

// Camera is the camera look's settings in a Style; the zero value is off.
type Camera struct {
	Scanlines float32 // darkening of every other band of rows, 0..1; 0: none
	// ScanlinePeriod is the rows in a band of the scanlines, 1..MaxScanlinePeriod; 0: the
	// frame's height / 540 (at least 1).
	ScanlinePeriod int
	Aberration     float32 // px the red and blue planes are shifted apart, 0..64; Auto: 6 px at 2160 lines
	Grain          float32 // luma noise amplitude as a fraction of the luma range, 0..1; 0: none
	// GrainColor is the chroma noise's amplitude (Cb and Cr each), as a fraction of the luma
	// range, 0..1; 0: none.
	GrainColor float32
	Seed       uint64  // the grain's and the colour grain's
	Vignette   float32 // darkening toward the corners, 0..1; 0: none
	// Name, when set, stamps the camera's name and clock in the top-left corner.
	Name string
	// Clock is the clock's time at frame 1, "2006-01-02 15:04:05"; "" shows the time since
	// frame 1 (hh:mm:ss).
	Clock string
	// FPS is the frame rate the clock counts at; 0 counts at the video's own (job.Render
	// sets it), or at DefaultCameraFPS where there is no video.
	FPS float32
	// Tint, when set, makes the picture monochrome toned with its colour (its alpha scales
	// TintStrength), mixed with the original by TintStrength, 0..1; 0 takes the default, 1
	// (as the box effects' strengths do), so a look that sets Camera leaves it full.
	Tint         OptionalColor
	TintStrength float32
}

// DefaultCameraFPS is the clock's rate where Camera.FPS is 0 and no video gives one.
const DefaultCameraFPS = 25

// AltersPicture reports whether the camera look changes the picture itself (scanlines,
// fringes, grain, vignette), rather than only stamping over it.
func (c *Camera) AltersPicture() bool {
	return c.Scanlines > 0 || c.Aberration != 0 || c.Grain > 0 || c.GrainColor > 0 || c.Vignette > 0 || c.tintStrength() > 0
}

// tintStrength is the tint's strength: TintStrength by the colour's alpha; 0 without one.
func (c *Camera) tintStrength() float32 {
	if !c.Tint.Set {
		return 0
	}
	s := c.TintStrength
	if s == 0 {
		s = 1
	}
	return s * float32(c.Tint.C.A) / 255
}

// On reports whether the camera look draws anything: it alters the picture or stamps it.
func (c *Camera) On() bool { return c.AltersPicture() || c.Name != "" }

// CameraClockLayout is Camera.Clock's layout (time.Parse).
const CameraClockLayout = "2006-01-02 15:04:05"

// MaxCameraFPS is the fastest clock rate Camera.FPS may give (a high-speed camera's).
const MaxCameraFPS = 1e6

// MinCameraFPS is the slowest: a frame every 28 hours, a little slower than a time-lapse's
// frame a day (a frame every 10 minutes is 1/600). At 1e-9 the clock ran past what a
// time.Duration adds within 30 frames and stopped there (maxStampSeconds), stamping the
// year 2305 on a clock set to 2020; at 1e-5 that takes 90 000 frames.
const MinCameraFPS = 1e-5

// maxStampSeconds holds the stamp's clock within what a time.Duration can add (292 years),
// however slow the rate and long the video.
const maxStampSeconds = 9e9

// MaxScanlinePeriod is the widest band of scanlines, in rows: a 4K frame's height.
const MaxScanlinePeriod = 2160

// validate checks the camera's settings beyond their ranges (Style.Validate's table).
func (c *Camera) validate() error {
	if c.ScanlinePeriod < 0 || c.ScanlinePeriod > MaxScanlinePeriod {
		return field.Errorf("overlay.Style.Camera.ScanlinePeriod", c.ScanlinePeriod, "is outside 0..%d (rows a band; 0: the height / 540)", MaxScanlinePeriod)
	}
	if c.FPS > 0 && c.FPS < MinCameraFPS {
		return field.Errorf("overlay.Style.Camera.FPS", c.FPS, "is outside %g..%g (a frame every 28 hours to a high-speed camera's; 0: the video's rate)", MinCameraFPS, float64(MaxCameraFPS))
	}
	if !utf8.ValidString(c.Name) {
		// As a label template: stray bytes would be drawn as replacement boxes.
		return field.Errorf("overlay.Style.Camera.Name", c.Name, "not UTF-8")
	}
	if c.Clock != "" {
		if _, err := time.Parse(CameraClockLayout, c.Clock); err != nil {
			return field.Errorf("overlay.Style.Camera.Clock", c.Clock, "want %q", CameraClockLayout)
		}
	}
	return nil
}

// cameraClock is the clock's time at frame 1; zero when the clock counts from zero.
func (c *Camera) cameraClock() time.Time {
	t, _ := time.Parse(CameraClockLayout, c.Clock) // "" or valid: validate
	return t
}

// CameraPass is one frame's camera stage, as Builder.Build sets it in Primitives: the
// settings resolved for the frame, and the frame number the grain is drawn for.
type CameraPass struct {
	Scanlines, Vignette, Grain float32
	GrainColor                 float32 // chroma noise, as Camera.GrainColor
	ScanlinePeriod             int     // rows a band; 0: the height / 540 (at least 1)
	Aberration                 float32 // px, resolved
	Seed                       uint64
	Frame                      int
	// Tint is the tint's colour, R'G'B' 0..1, and TintStrength its mix, 0..1 (0: none).
	Tint         [3]float32
	TintStrength float32
}

// On reports whether the pass changes anything.
func (c *CameraPass) On() bool {
	return c.Scanlines > 0 || c.Aberration > 0 || c.Grain > 0 || c.GrainColor > 0 || c.Vignette > 0 || c.TintStrength > 0
}

// CameraTint is the tint's Q15 constants for one frame (the rule in the package comment).
type CameraTint struct {
	Keep int32    // 1 − s: the weight of the sample itself
	Luma int32    // Y' frames: Y''s gain, 1 − s + s·(T's luma fraction), rounded up
	Move [3]int32 // per plane: the weight of the pixel's luma above black
}

// On reports whether the tint changes anything.
func (t *CameraTint) On() bool { return *t != CameraTint{Keep: 1 << CameraQ, Luma: 1 << CameraQ} }

// LumaCols sets dst[x] to the luma's gain of column x, cols[x] scaled by the tint's:
// (cols[x]·Luma + 2¹⁴) >> 15. Twin: camSample (kernels/camera.cu).
func (t *CameraTint) LumaCols(dst, cols []int32) {
	l := t.Luma
	for x, k := range cols {
		dst[x] = (k*l + 1<<14) >> CameraQ
	}
}

// CameraTint makes the pass's tint constants for a frame whose planes are Y'CbCr (rgb
// false) or R'G'B': codes is the tint's colour in the frame's code values (composite.Space's
// Color), neutral chroma's code (R'G'B': 0), black and white luma's codes.
func (c *CameraPass) CameraTint(codes [3]float32, black, white, neutral float32, rgb bool) CameraTint {
	s := float64(c.TintStrength)
	t := CameraTint{Keep: int32(math.Round((1 - s) * (1 << CameraQ))), Luma: 1 << CameraQ}
	if s == 0 {
		return t
	}
	g := 1 - s + s*float64(codes[0]-black)/float64(white-black)
	// Up, less a hair so that an exact gain (a white tint's 1) is not pushed over.
	t.Luma = int32(min(max(math.Ceil(g*(1<<CameraQ)-1e-3), 0), 1<<CameraQ))
	for k := range 3 {
		base := neutral
		if k == 0 || rgb {
			base = black
		}
		t.Move[k] = int32(math.Round(s * float64(codes[k]-base) / float64(white-black) * (1 << CameraQ)))
	}
	return t
}

// CameraLuma is the luma (BT.709 weights, Q15, summing to 1) of an R'G'B' pixel's codes, for
// the tint on R'G'B' frames. Twin: camLuma (kernels/camera.cu).
func CameraLuma(r, g, b int32) int32 {
	return (6967*r + 23436*g + 2365*b + 1<<14) >> CameraQ
}

// CameraTintSample is the tint's value of sample v (before the clamp): plane black c, luma's
// black b, the pixel's luma l, the constants keep and move. Twin: camTint.
func CameraTintSample(v, l, c, b, keep, move int32) int32 {
	return c + (((v-c)*keep + (l-b)*move + 1<<14) >> CameraQ)
}

// CameraQ is the fixed point of the camera's gains: 1.0 is 1 << CameraQ.
const CameraQ = 15

// CameraGains fills cols (w long) and rows (h long) with the pass's gains in Q15: a
// sample's gain is (cols[x]·rows[y] + 2¹⁴) >> 15; rows carry the scanlines, the odd bands
// of ScanlinePeriod rows (0: h/540, at least 1) darkened.
func (c *CameraPass) CameraGains(cols, rows []int32) {
	q := func(g float64) int32 { return int32(g*(1<<CameraQ) + 0.5) }
	fall := func(i, n int) float64 {
		half := float64(n) / 2
		d := math.Abs(float64(i)+0.5-half) / half
		return 1 - float64(c.Vignette)*d*d*d*d
	}
	for x := range cols {
		cols[x] = q(fall(x, len(cols)))
	}
	band := c.ScanlinePeriod
	if band <= 0 {
		band = max(1, len(rows)/540)
	}
	for y := range rows {
		g := fall(y, len(rows))
		if (y/band)%2 == 1 {
			g *= 1 - float64(c.Scanlines)
		}
		rows[y] = q(g)
	}
}

// CameraShift is the aberration's shift in samples of a plane subsampled by sub (1, or 2
// for 4:2:0 chroma): the px rounded, halved (rounded up) for chroma.
func (c *CameraPass) CameraShift(sub int) int {
	d := int(c.Aberration + 0.5)
	if sub == 2 {
		d = (d + 1) / 2
	}
	return d
}

// GrainAmplitude is the grain's amplitude for a luma range of span code values (white −
// black): a sample's noise is ((n − 128)·a) >> 8, n the low byte of
// GrainHash(key + y·GrainRow + x) for sample (x, y) and the frame's GrainKey.
func (c *CameraPass) GrainAmplitude(span float32) int32 {
	return int32(c.Grain*span*2 + 0.5)
}

// GrainKey is the frame's grain key (GrainAmplitude's), from the seed and the frame number.
func (c *CameraPass) GrainKey() uint32 {
	z := c.Seed ^ uint64(c.Frame)*0x9e3779b97f4a7c15
	// SplitMix64's finaliser (Steele, Lea and Flood 2014), once a frame.
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return uint32(z ^ z>>31)
}

// ColorGrainAmplitude is the colour grain's amplitude for a luma range of span code values,
// as GrainAmplitude's: Cb's (Cr's) noise at chroma sample (x, y) is ((n − 128)·a) >> 8, n
// the low byte of GrainHash(keys[0] + y·GrainRow + x) (keys[1]), keys the frame's
// ColorGrainKeys.
func (c *CameraPass) ColorGrainAmplitude(span float32) int32 {
	return int32(c.GrainColor*span*2 + 0.5)
}

// ColorGrainKeys are the frame's keys of Cb's and Cr's noise: the grain's key hashed on, so
// the three noises are unrelated and a frame's are the same wherever it is drawn.
func (c *CameraPass) ColorGrainKeys() [2]uint32 {
	k := c.GrainKey()
	return [2]uint32{GrainHash(k ^ 0x6a09e667), GrainHash(k ^ 0xbb67ae85)}
}

// ColorGrainRGB is the colour grain of an R'G'B' pixel whose Cb and Cr noises are nb and nr:
// what each of R', G' and B' gains, BT.709's Y'CbCr to R'G'B' matrix in Q15 with luma left
// out, so the noise moves the hue and not the luma. Twin: camChromaRGB (kernels/camera.cu).
func ColorGrainRGB(k int, nb, nr int32) int32 {
	switch k {
	case 0:
		return (51603*nr + 1<<14) >> CameraQ // 2(1 − Kr)
	case 1:
		return (-6138*nb - 15339*nr + 1<<14) >> CameraQ // −2Kb(1 − Kb)/Kg, −2Kr(1 − Kr)/Kg
	default:
		return (60804*nb + 1<<14) >> CameraQ // 2(1 − Kb)
	}
}

// GrainNoise is a sample's noise of amplitude amp from the hash input z: ((n − 128)·amp) >> 8,
// n GrainHash(z)'s low byte.
func GrainNoise(z uint32, amp int32) int32 {
	return ((int32(GrainHash(z)&0xff) - 128) * amp) >> 8
}

// GrainRow is the grain's step in GrainHash's input from one row to the next.
const GrainRow = 0x9e3779b9

// GrainHash is Wellons' lowbias32, a 32-bit integer hash with good avalanche at two
// multiplies: one hash a pixel, eight at a time in the SIMD loop. Twin: grainHash
// (kernels/camera.cu).
func GrainHash(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// cameraPass resolves the style's camera for frame index.
func (s *Style) cameraPass(index int) CameraPass {
	c := &s.Camera
	p := CameraPass{Scanlines: c.Scanlines, ScanlinePeriod: c.ScanlinePeriod, Vignette: c.Vignette, Grain: c.Grain, GrainColor: c.GrainColor,
		Aberration: c.Aberration, Seed: c.Seed, Frame: index, TintStrength: c.tintStrength()}
	if p.TintStrength > 0 {
		t := c.Tint.C
		p.Tint = [3]float32{float32(t.R) / 255, float32(t.G) / 255, float32(t.B) / 255}
	}
	return p
}

// cameraStamp is the stamp's text for frame index (1-based): the name, two spaces, the
// clock (clock0 plus the time since frame 1, or that time alone when clock0 is zero).
func (c *Camera) cameraStamp(dst []byte, index int, clock0 time.Time) []byte {
	dst = append(dst, c.Name...)
	dst = append(dst, "  "...)
	// Whole seconds since frame 1, counted exactly in frames (no float drift over hours).
	fps := float64(c.FPS)
	if fps <= 0 {
		fps = DefaultCameraFPS
	}
	secs := int64(min(float64(max(index-1, 0))/fps, maxStampSeconds))
	if !clock0.IsZero() {
		return clock0.Add(time.Duration(secs)*time.Second).AppendFormat(dst, CameraClockLayout)
	}
	two := func(dst []byte, v int64) []byte {
		if v < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, v, 10)
	}
	dst = append(two(dst, secs/3600), ':')
	dst = append(two(dst, secs/60%60), ':')
	return two(dst, secs%60)
}

// cornerLabel is a label in a corner of the frame: its text, p.text[start:end], and where it
// lies.
type cornerLabel struct {
	start, end int
	rect       labelRect
}

// prepareCorners writes the texts of frame index's corner labels and places them, before
// the tracks' labels, which keep clear of them: the camera's stamp in the top-left corner,
// the judgement's panel (truth.go) in the top-right; each a label's height in from the
// edges.
func (b *Builder) prepareCorners(p *Primitives, index int) {
	b.corners = b.corners[:0]
	if c := &b.style.Camera; c.Name != "" {
		start := len(p.text)
		p.text = c.cameraStamp(p.text, index, b.clock0)
		b.corners = append(b.corners, b.corner(p, start, false))
	}
	if j := b.judgement; j != nil && j.Panel != "" {
		start := len(p.text)
		p.text = append(p.text, j.Panel...)
		b.corners = append(b.corners, b.corner(p, start, true))
	}
}

// corner places the text from p.text[start:] in the top-left corner (the top-right with
// right).
func (b *Builder) corner(p *Primitives, start int, right bool) cornerLabel {
	lw, lh := b.font.LabelSize(p.text[start:])
	m := lh / 2
	x := m
	if right {
		x = max(0, b.w-m-lw)
	}
	return cornerLabel{start: start, end: len(p.text), rect: labelRect{x, m, lw, lh}}
}

// addCorners adds the corner labels prepareCorners placed: white text on black at the
// labels' opacity.
func (b *Builder) addCorners(p *Primitives) {
	for _, c := range b.corners {
		p.Labels = append(p.Labels, Label{X: c.rect.x, Y: c.rect.y, W: c.rect.w, H: c.rect.h, Text: p.text[c.start:c.end:c.end],
			Color: RGBA{1, 1, 1, 1}, Background: RGBA{A: b.style.LabelOpacity}})
	}
}
