package overlay

import (
	"fmt"
	"slices"
	"strings"

	"trackink/internal/field"
	"trackink/scene"
)

// Box effects change the frame under each box before the overlay is composited onto it (the
// "blob tracking" look: inverted, pixelated or thresholded interiors). The backend's effects
// stage applies them (render/effects.go, kernels/effects.cu).
//
// Every effect reads the frame as it was decoded, never pixels another box's effect has
// already changed, and is mixed into the frame by the box's fill coverage (rounded corners,
// anti-aliased edge): sample = sample + coverage·(effect − sample). Where boxes overlap they
// are applied in track order, each over the ones before, as fills are painted: where a later
// box covers a pixel fully, that pixel shows the later box's effect of the source alone (two
// inverting boxes do not cancel).

// Effect is what a box does to the frame under it. Its value is the kernels' code
// (layout.h's TK_FX_*).
type Effect int32

// The effects. EffectNone leaves the frame alone.
const (
	EffectNone      Effect = iota
	EffectInvert           // every component inverted (R'G'B' 1 − c: Y' mirrored in its range, Cb and Cr about neutral)
	EffectBlur             // box blur of radius Strength px (the window clipped to the frame)
	EffectPixelate         // means of Strength × Strength cells from the box's top-left pixel
	EffectThreshold        // white where luma ≥ Strength of its range, else black
	EffectZoom             // magnified Strength× about the box's centre (bilinear)
	EffectTint             // chroma moved Strength of the way to the box's colour, luma kept
	EffectSort             // pixel sort: runs of pixels in the luma range sorted by luma along rows or columns
	EffectGaussian         // Gaussian blur of sigma Strength px (three box sums; the window clipped to the frame)
	numEffects
)

var effectNames = [numEffects]string{"none", "invert", "blur", "pixelate", "threshold", "zoom", "tint", "sort", "gaussian"}

// effectRanges are each effect's default strength and its valid range.
var effectRanges = [numEffects]struct{ def, lo, hi float32 }{
	EffectBlur:      {8, 1, 100},
	EffectPixelate:  {16, 2, 256},
	EffectThreshold: {0.5, 0, 1},
	EffectZoom:      {2, 1, 16},
	EffectTint:      {0.6, 0, 1},
	// The ComfyUI pack's Blur Region sigma: 5, 1–50. Its filter reaches about 3 sigma each
	// way, and the device sums that window at every pixel, so the range stops at 50.
	EffectGaussian: {5, 1, 50},
}

func (e Effect) String() string {
	if e < 0 || e >= numEffects {
		return fmt.Sprintf("Effect(%d)", int32(e))
	}
	return effectNames[e]
}

// EffectNames are the effects a box can have, for help texts ("none" excluded).
func EffectNames() []string { return effectNames[1:] }

// EffectHelp says what each effect's strength means, for help texts.
const EffectHelp = "blur: radius px (8), gaussian: sigma px 1..50 (5), pixelate: cell px (16), threshold: luma level 0..1 (0.5), zoom: factor 1..16 (2), tint: amount 0..1 (0.6); invert and sort take none (sort: --sort-key, --sort-range, --sort-min-run, --sort-order, --sort-columns); 0 takes the default"

// ParseEffect returns the effect named s.
func ParseEffect(s string) (Effect, error) {
	for i, n := range effectNames {
		if n == s {
			return Effect(i), nil
		}
	}
	return 0, fmt.Errorf("unknown effect %q: want %s", s, strings.Join(effectNames[:], ", "))
}

// EffectStrength returns the strength effect e applies with given strength s: s itself, or
// e's default when s is 0.
func EffectStrength(e Effect, s float32) float32 {
	if s == 0 && e >= 0 && e < numEffects {
		return effectRanges[e].def
	}
	return s
}

// EffectBox is one box's effect: the box's shape (as its Box) and what it does. Its layout
// is the kernels' TkEffectBox, so the host uploads the slice as it is.
type EffectBox struct {
	X, Y, W, H float32
	Radius     float32
	Strength   float32 // resolved: never 0 where the effect takes one
	Kind       Effect
	Tint       RGBA // EffectTint's colour (opaque)
	// EffectSort's: the luma range whose runs are sorted, as fractions from black to white
	// (0 ≤ SortLo ≤ SortHi ≤ 1), and along columns (1) instead of rows (0).
	SortLo, SortHi float32
	SortColumns    int32
	// SortDescending sorts EffectSort's runs brightest first (1) instead of darkest (0):
	// the mirror of ascending, each line's mirror image sorted, then mirrored back, which
	// is a stable descending sort (equal keys keep their order).
	SortDescending int32
	// Feather is how many px inside the box's edge the effect takes to fade in (its coverage
	// ramp: render's fxCover); up to 1 the fill's 1-px anti-aliased edge.
	Feather float32
	// Transparency is 1 − the effect's opacity (Style.EffectOpacity), which scales its
	// coverage: the zero value, opaque, is the effect alone.
	Transparency float32
	// SortKey is what EffectSort sorts by, and what SortLo and SortHi are fractions of:
	// SortLuma, SortSaturation or SortHue (Style.SortKey).
	SortKey int32
	// SortMinRun is EffectSort's shortest run sorted, in px (Style.SortMinRun); a 4:2:0
	// chroma line's is half of it, rounded up.
	SortMinRun int32
}

// EffectBox.SortKey's values: SortKeys' indices.
const (
	SortLuma int32 = iota
	SortSaturation
	SortHue
)

// SortKeys are Style.SortKey's values ("" is luma). Each is a key of 0 to 255 (render/sort.go
// says how each is worked out).
var SortKeys = []string{"luma", "saturation", "hue"}

// sortCodes are the style's SortOrder and SortKey as EffectBox takes them: SortDescending
// (1 for "descending") and SortKey (SortKeys' index; "" is luma's).
func (s *Style) sortCodes() (descending, key int32) {
	if s.SortOrder == "descending" {
		descending = 1
	}
	return descending, int32(max(0, slices.Index(SortKeys, s.SortKey)))
}

// MaxSortMinRun is Style.SortMinRun's largest value, in px: an 8K frame's width.
const MaxSortMinRun = 8192

// MaxEffectFeather is Style.EffectFeather's largest value, in px.
const MaxEffectFeather = 4096

// SortOrders are Style.SortOrder's values ("" is ascending).
var SortOrders = []string{"ascending", "descending"}

// DefaultSortRange is Style.SortRange's default: the mid-tones, from a quarter to four
// fifths of the way from black to white.
var DefaultSortRange = [2]float32{0.25, 0.8}

// validateEffects checks the style's effects, their strengths and the sort's range.
func (s *Style) validateEffects() error {
	if s.SortMinRun < 0 || s.SortMinRun > MaxSortMinRun {
		return field.Errorf("overlay.Style.SortMinRun", s.SortMinRun, "want 0..%d px", MaxSortMinRun)
	}
	if !validStyle(SortKeys, s.SortKey) {
		return field.Errorf("overlay.Style.SortKey", s.SortKey, "want %s", strings.Join(SortKeys, ", "))
	}
	if !validStyle(SortOrders, s.SortOrder) {
		return field.Errorf("overlay.Style.SortOrder", s.SortOrder, "want %s", strings.Join(SortOrders, ", "))
	}
	// Low above high wraps through red: only hue is a circle.
	if lo, hi := s.SortRange[0], s.SortRange[1]; !(lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1) || lo > hi && s.SortKey != "hue" {
		return field.Errorf("overlay.Style.SortRange", pair(s.SortRange), "want 0 ≤ low ≤ high ≤ 1 (low above high, a range that wraps through red, is for sort-key hue alone)")
	}
	if len(s.EffectStrengths) > len(s.BoxEffects) {
		return field.Errorf("overlay.Style.EffectStrengths", nil, "more strengths (%d) than box effects (%d)", len(s.EffectStrengths), len(s.BoxEffects))
	}
	for i, e := range s.BoxEffects {
		if e < 0 || e >= numEffects {
			return field.Errorf("overlay.Style.BoxEffects", e, "want %s", strings.Join(effectNames[:], ", "))
		}
		if i >= len(s.EffectStrengths) {
			continue
		}
		r, v := effectRanges[e], s.EffectStrengths[i]
		if (e == EffectNone || e == EffectInvert || e == EffectSort) && v != 0 {
			return field.Errorf("overlay.Style.EffectStrengths", v, "%s takes no strength (give 0 in its place)", e)
		}
		if v != 0 && !(v >= r.lo && v <= r.hi) {
			return field.Errorf("overlay.Style.EffectStrengths", v, "%s's strength is outside %g..%g", e, r.lo, r.hi)
		}
	}
	return nil
}

// addEffect adds box bx's effect, if the style gives boxes one: with several, track id k
// takes effect k mod their number (untracked boxes, the first). k is the id in the box's own
// file (scene.FileID): with n files drawn together the merged id k·n+s would cycle the
// effects per file, not per track, whenever n and the list's length share a factor.
func (b *Builder) addEffect(p *Primitives, bx *scene.Box, c scene.Color) {
	fx := b.style.BoxEffects
	if len(fx) == 0 || bx.W < 1 || bx.H < 1 {
		return
	}
	i := 0
	if bx.ID != scene.NoID {
		id := scene.FileID(bx.ID, len(b.style.Sources))
		i = (id%len(fx) + len(fx)) % len(fx)
	}
	var st float32
	if i < len(b.style.EffectStrengths) {
		st = b.style.EffectStrengths[i]
	}
	if fx[i] == EffectNone {
		return
	}
	p.Effects = append(p.Effects, EffectBox{X: bx.X, Y: bx.Y, W: bx.W, H: bx.H,
		Radius: b.style.Roundness * min(bx.W, bx.H) / 2, Kind: fx[i], Strength: EffectStrength(fx[i], st), Tint: Premul(c, 1),
		SortLo: b.style.SortRange[0], SortHi: b.style.SortRange[1], SortColumns: b.sortColumns,
		SortDescending: b.sortDescending, Feather: b.style.EffectFeather, Transparency: 1 - b.style.EffectOpacity,
		SortKey: b.sortKey, SortMinRun: int32(b.style.SortMinRun)})
}

// EffectBenchBoxes are the effects benchmark's boxes for a w × h frame: 20 boxes of effect
// kind at strength s (0: the default), in a 5 × 4 grid, together 10 % of the frame, corners
// rounded.
func EffectBenchBoxes(w, h int, kind Effect, s float32) []EffectBox {
	const cols, rows = 5, 4
	// Each box is (cell side) × sqrt(0.1): 20 of them cover a tenth of the frame.
	bw, bh := float32(w)/cols*0.3162, float32(h)/rows*0.3162
	fx := make([]EffectBox, 0, cols*rows)
	for i := range cols * rows {
		cx := (float32(i%cols) + 0.5) * float32(w) / cols
		cy := (float32(i/cols) + 0.5) * float32(h) / rows
		fx = append(fx, EffectBox{X: cx - bw/2 + 0.3, Y: cy - bh/2 + 0.6, W: bw, H: bh, Radius: 0.15 * min(bw, bh) / 2,
			Kind: kind, Strength: EffectStrength(kind, s), Tint: RGBA{R: 1, G: 0.4, B: 0.1, A: 1},
			SortLo: DefaultSortRange[0], SortHi: DefaultSortRange[1]})
	}
	return fx
}
