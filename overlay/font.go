package overlay

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"trackink/internal/suggest"
)

// Labels are set in Go Medium, embedded in the binary (no font files to ship), or in a font
// file the style names (Style.Font, --font), with Go Medium behind it for the characters
// the file lacks. A character neither has is drawn as a hollow box (tofu) and noted
// (Font.Missing), never left out. Glyphs are rasterised by x/image/font (analytic
// anti-aliasing, like the rest of the layer) into coverage masks once per pixel size, the
// first time a label uses them (printable ASCII when the font is made), and kept while the
// font lives: the cache holds the glyphs a run's labels use, a few thousand ideographs at
// 40 px being a few megabytes. Drawing a label copies masks; laying it out shapes its text
// (shape.go) when it is not all ASCII, looks its glyphs up and kerns them.

// Typeface is a parsed font: Go Medium, or a font file's.
type Typeface struct {
	name string // "Go Medium" or the file's path
	f    *sfnt.Font
	sum  [sha256.Size]byte // a file's SHA-256; zero for the built-in fonts
}

// Sum is the SHA-256 of the font file's bytes as they were read, zero for a built-in font:
// what a render's segments compare, since one path may name another font on another node.
func (t *Typeface) Sum() [sha256.Size]byte { return t.sum }

var goMedium = func() *Typeface {
	f, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		panic("overlay: embedded Go Medium font does not parse: " + err.Error())
	}
	return &Typeface{name: "Go Medium", f: f}
}()

// typefaces are the font files read so far, by path: validating a style and starting the
// renderers each ask for the style's font, and a CJK font is megabytes to read and parse. A
// Typeface is never modified, and each Font keeps its own sfnt.Buffer, so they are shared.
var typefaces struct {
	sync.Mutex
	byPath map[string]*Typeface
}

// LoadTypeface reads a TrueType or OpenType font file (.ttf, .otf), or the first font of a
// collection (.ttc, .otc), once per process: later calls with the same path return the same
// Typeface; GoMono is the built-in Go Mono. Its errors name the file.
func LoadTypeface(path string) (*Typeface, error) {
	if path == GoMono {
		return goMono(), nil
	}
	typefaces.Lock()
	defer typefaces.Unlock()
	if tf, ok := typefaces.byPath[path]; ok {
		return tf, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(path, `/\.`) {
		// A name, not a path: the built-in font's, mistyped, or a system font's.
		if hint := suggest.DidYouMean(path, []string{GoMono}); hint != "" {
			return nil, fmt.Errorf("%w%s", err, strings.Replace(hint, GoMono, strconv.Quote(GoMono)+", the built-in monospace font", 1))
		}
		return nil, fmt.Errorf("%w (give a font file's path, or %q for the built-in monospace font)", err, GoMono)
	}
	if err != nil {
		return nil, err
	}
	c, err := opentype.ParseCollection(b)
	if err != nil {
		return nil, fmt.Errorf("%s is not a TrueType or OpenType font that x/image/font reads (%v)", path, err)
	}
	f, err := c.Font(0)
	if err != nil {
		return nil, fmt.Errorf("%s is not a TrueType or OpenType font that x/image/font reads (%v)", path, err)
	}
	tf := &Typeface{name: path, f: f, sum: sha256.Sum256(b)}
	if typefaces.byPath == nil {
		typefaces.byPath = map[string]*Typeface{}
	}
	typefaces.byPath[path] = tf
	return tf, nil
}

// glyph is one rasterised glyph: an alpha mask placed at (dx, dy) from the pen position on
// the baseline, advancing the pen by adv (26.6 fixed point).
type glyph struct {
	mask   []byte
	w, h   int
	dx, dy int
	adv    fixed.Int26_6
	face   int8            // the face it is from (Font.faces); -1 for the tofu
	id     sfnt.GlyphIndex // its index in that face's font, for kerning
}

// face is a typeface at the font's size.
type face struct {
	tf   *Typeface
	face font.Face
	buf  sfnt.Buffer
}

// Font is a typeface's glyphs at one pixel size, rasterised as labels need them. It is not
// safe for concurrent use, except Glyph, which may be called from many goroutines while no
// text is laid out.
type Font struct {
	Size            int // pixel size (em height)
	Ascent, Descent int // pixels above and below the baseline

	faces   []face                   // the typeface, then Go Medium when it is another
	glyphs  []glyph                  // glyph 0 is the tofu
	ascii   [128]int32               // the glyph of each ASCII rune once looked up; 0 before
	index   map[rune]int32           // the glyph of every other rune looked up
	kerning map[uint64]fixed.Int26_6 // the kerning of glyph pairs met, by their glyph numbers
	missing []rune                   // runes no face has, met since ForgetMissing, in the order first met
	missed  map[rune]bool            // missing's runes
	shaper  shaper
	ids     []int32 // a label's glyphs, left to right (scratch)
	// outlines are the outline glyphs made, by the glyph and the outline's width's bits.
	outlines map[outlineKey]int32
}

// outlineKey names an outline glyph: the glyph it outlines and the width.
type outlineKey struct {
	glyph int32
	width uint32
}

// The label sizes NewFont accepts, in pixels.
const (
	MinFontSize = 4
	MaxFontSize = 512
)

// NewFont sets labels in Go Medium at the given pixel size.
func NewFont(size int) (*Font, error) { return NewFontOf(nil, size) }

// NewFontOf sets labels in typeface tf (nil: Go Medium), with Go Medium for the characters
// tf lacks, at the given pixel size. The line's ascent and descent are tf's.
func NewFontOf(tf *Typeface, size int) (*Font, error) {
	if size < MinFontSize || size > MaxFontSize {
		return nil, fmt.Errorf("label size %d px is outside %d..%d", size, MinFontSize, MaxFontSize)
	}
	if tf == nil {
		tf = goMedium
	}
	f := &Font{Size: size, index: map[rune]int32{}}
	ts := []*Typeface{tf}
	if tf != goMedium {
		ts = append(ts, goMedium)
	}
	for _, t := range ts {
		ff, err := opentype.NewFace(t.f, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("label font %s at %d px: %w", t.name, size, err)
		}
		f.faces = append(f.faces, face{tf: t, face: ff})
	}
	m := f.faces[0].face.Metrics()
	f.Ascent, f.Descent = m.Ascent.Ceil(), m.Descent.Ceil()
	if tf != goMedium { // Go Medium has no kerning
		f.kerning = map[uint64]fixed.Int26_6{}
	}
	f.glyphs = append(f.glyphs, tofu(size))
	for c := ' '; c <= '~'; c++ {
		f.glyphOf(c)
	}
	return f, nil
}

// tofu is the glyph of a character no face has: a hollow box the height of a capital.
func tofu(size int) glyph {
	w, h, t, side := max(3, size/2), max(4, size*7/10), max(1, size/14), max(1, size/16)
	g := glyph{w: w, h: h, dx: side, dy: -h, adv: fixed.I(w + 2*side), face: -1}
	g.mask = make([]byte, w*h, w*h+MaskSlack)
	for y := range h {
		for x := range w {
			if x < t || x >= w-t || y < t || y >= h-t {
				g.mask[y*w+x] = 0xff
			}
		}
	}
	return g
}

// glyphOf returns the number of r's glyph, rasterising it the first time: from the first
// face that has it, else the tofu (and r is noted missing).
func (f *Font) glyphOf(r rune) int32 {
	if r >= 0 && r < 128 && f.ascii[r] != 0 {
		return f.ascii[r]
	}
	i, ok := f.index[r]
	if !ok {
		i = f.rasterise(r)
		f.index[r] = i
	}
	if r >= 0 && r < 128 {
		f.ascii[r] = i
	}
	if i == 0 && !f.missed[r] { // the tofu: noted each time it is met after ForgetMissing
		if f.missed == nil {
			f.missed = make(map[rune]bool)
		}
		f.missed[r] = true
		f.missing = append(f.missing, r)
	}
	return i
}

func (f *Font) rasterise(r rune) int32 {
	for k := range f.faces {
		fc := &f.faces[k]
		id, err := fc.tf.f.GlyphIndex(&fc.buf, r)
		if err != nil || id == 0 {
			continue
		}
		dr, mask, mp, adv, ok := fc.face.Glyph(fixed.Point26_6{}, r)
		if !ok {
			continue
		}
		g := glyph{adv: adv, dx: dr.Min.X, dy: dr.Min.Y, w: dr.Dx(), h: dr.Dy(), face: int8(k), id: id}
		g.mask = make([]byte, g.w*g.h, g.w*g.h+MaskSlack)
		a := mask.(*image.Alpha) // opentype.Face's masks always are
		for y := 0; y < g.h; y++ {
			copy(g.mask[y*g.w:(y+1)*g.w], a.Pix[a.PixOffset(mp.X, mp.Y+y):])
		}
		f.glyphs = append(f.glyphs, g)
		return int32(len(f.glyphs) - 1)
	}
	return 0
}

// Missing returns the characters labels asked for that neither the typeface nor Go Medium
// has, in the order first met since the font was made or ForgetMissing: they are drawn as
// hollow boxes.
func (f *Font) Missing() []rune { return f.missing }

// ForgetMissing empties Missing, so that it holds what labels ask for from now on: a
// preview replays the frames before the one it draws, whose labels it lays out but does not
// show.
func (f *Font) ForgetMissing() {
	f.missing = f.missing[:0]
	clear(f.missed)
}

// Typeface returns the name of the font labels are set in ("Go Medium" or a file's path).
func (f *Font) Typeface() string { return f.faces[0].tf.name }

// shape sets f.ids to the glyphs of text, left to right: bytes of ASCII text as they are,
// other text shaped (shape.go).
func (f *Font) shape(text []byte) []int32 {
	f.ids = f.ids[:0]
	ascii := true
	for _, c := range text {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		for _, c := range text {
			f.ids = append(f.ids, f.glyphOf(rune(c)))
		}
		return f.ids
	}
	for _, r := range f.shaper.shape(text) {
		f.ids = append(f.ids, f.glyphOf(r))
	}
	return f.ids
}

// kern returns the kerning between glyphs a and b, drawn one after the other: 0 unless
// both come from the typeface and it kerns them.
func (f *Font) kern(a, b int32) fixed.Int26_6 {
	ga, gb := &f.glyphs[a], &f.glyphs[b]
	if f.kerning == nil || ga.face != 0 || gb.face != 0 {
		return 0
	}
	key := uint64(ga.id)<<32 | uint64(gb.id)
	k, ok := f.kerning[key]
	if !ok {
		fc := &f.faces[0]
		k, _ = fc.tf.f.Kern(&fc.buf, ga.id, gb.id, fixed.I(f.Size), font.HintingFull)
		f.kerning[key] = k
	}
	return k
}

// Width returns the advance width of text in pixels.
func (f *Font) Width(text []byte) int {
	var w fixed.Int26_6
	ids := f.shape(text)
	for i, id := range ids {
		if i > 0 {
			w += f.kern(ids[i-1], id)
		}
		w += f.glyphs[id].adv
	}
	return w.Ceil()
}

// pad is the space between a label's text and the edge of its background.
func (f *Font) pad() int { return labelPad(f.Size) }

// labelPad is the padding of labels set at size px.
func labelPad(size int) int { return max(1, size/4) }

// LabelSize returns the size in pixels of a label's background: the text plus padding.
func (f *Font) LabelSize(text []byte) (w, h int) {
	p := f.pad()
	return f.Width(text) + 2*p, f.Ascent + f.Descent + 2*p
}

// PlacedGlyph is one glyph of a label, laid out in the frame.
type PlacedGlyph struct {
	Glyph int32 // the glyph it draws (Font.Glyph(Glyph) is its mask)
	X, Y  int   // the top-left corner of its mask in the frame
}

// Layout appends the glyphs of label l to dst, placed: the pen starts at the label's
// padding, each glyph's mask sits at its offset from the pen on the baseline (Ascent below
// the padding), and the pen advances in 26.6 fixed point by the glyph's advance and the
// kerning to the next, rounded per glyph. Every backend draws the glyphs where Layout puts
// them.
func (f *Font) Layout(dst []PlacedGlyph, l *Label) []PlacedGlyph {
	pad := f.pad()
	var pen fixed.Int26_6
	ids := f.shape(l.Text)
	for i, id := range ids {
		if i > 0 {
			pen += f.kern(ids[i-1], id)
		}
		g := &f.glyphs[id]
		dst = append(dst, PlacedGlyph{id, l.X + pad + pen.Round() + g.dx, l.Y + pad + f.Ascent + g.dy})
		pen += g.adv
	}
	if l.Outline > 0 {
		// The outline glyphs go before the text's, so the text is drawn over them: the
		// text's glyphs are dst[n:n+k]; each outline's mask is its glyph's grown by m a side.
		n := len(dst) - len(ids)
		m := outlineMargin(l.Outline)
		for i := range ids {
			g := dst[n+i]
			dst = append(dst, PlacedGlyph{f.outline(g.Glyph, l.Outline), g.X - m, g.Y - m})
		}
		k := len(ids)
		slices.Reverse(dst[n:])
		slices.Reverse(dst[n : n+k])
		slices.Reverse(dst[n+k:])
	}
	return dst
}

// outlineMargin is how far an outline of width r reaches past its glyph's mask, in whole
// pixels.
func outlineMargin(r float32) int { return int(math.Ceil(float64(r))) }

// outline returns the number of glyph id's outline of width r, made the first time: its
// mask grown by m = ⌈r⌉ a side, each pixel the largest of the glyph's coverage over a disc
// round it, each weighted by how much of the pixel lies within r of the source pixel's
// edge, about min(max(r + 1 − d, 0), 1) at a distance d between centres: a pixel within r of
// a covered one is covered, one r + 1 off is not, so the outline's own edge is anti-aliased
// as the glyph's is. Its advance and offsets are not used: Layout places it.
func (f *Font) outline(id int32, r float32) int32 {
	key := outlineKey{id, math.Float32bits(r)}
	if o, ok := f.outlines[key]; ok {
		return o
	}
	src := &f.glyphs[id]
	m := outlineMargin(r)
	w, h := src.w+2*m, src.h+2*m
	mask := make([]byte, w*h, w*h+MaskSlack)
	// The disc's weights, (2m+1)² of them, row by row.
	side := 2*m + 1
	weight := make([]float64, side*side)
	for dy := -m; dy <= m; dy++ {
		for dx := -m; dx <= m; dx++ {
			d := math.Hypot(float64(dx), float64(dy))
			weight[(dy+m)*side+dx+m] = min(max(float64(r)+1-d, 0), 1)
		}
	}
	for y := range h {
		for x := range w {
			best := 0.0
			// Source pixel (x − m + dx, y − m + dy) of the glyph, over the disc.
			for dy := -m; dy <= m; dy++ {
				sy := y - m + dy
				if sy < 0 || sy >= src.h {
					continue
				}
				for dx := -m; dx <= m; dx++ {
					sx := x - m + dx
					if sx < 0 || sx >= src.w {
						continue
					}
					if v := float64(src.mask[sy*src.w+sx]) * weight[(dy+m)*side+dx+m]; v > best {
						best = v
					}
				}
			}
			mask[y*w+x] = uint8(math.Round(best))
		}
	}
	if f.outlines == nil {
		f.outlines = map[outlineKey]int32{}
	}
	f.glyphs = append(f.glyphs, glyph{mask: mask, w: w, h: h, face: -1})
	o := int32(len(f.glyphs) - 1)
	f.outlines[key] = o
	return o
}

// MaskSlack is how many bytes of capacity every glyph mask has past its end (zeros), so that
// a vectorised reader may load 8 bytes at any position of a mask (render's glyph blits do).
const MaskSlack = 8

// Glyphs returns how many glyphs the font has rasterised: glyph numbers run from 0 (the
// tofu) to Glyphs() − 1, and grow as labels use new characters.
func (f *Font) Glyphs() int { return len(f.glyphs) }

// Glyph returns the w×h coverage mask (row-major, shared: do not modify) of glyph i; its
// capacity runs MaskSlack bytes on.
func (f *Font) Glyph(i int32) (mask []byte, w, h int) {
	g := &f.glyphs[i]
	return g.mask, g.w, g.h
}
