package overlay

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"trackink/internal/field"
	"trackink/knn"
	"trackink/scene"
)

// Auto, as a size in a Style, stands for the default at the frame's height (see
// Style.ForHeight): the seed scene's look at 2160 lines, scaled.
const Auto = -1

// ReferenceHeight is the frame height at which the default sizes are the seed scene's.
const ReferenceHeight = 2160

// Style is how a scene is drawn. Sizes are in pixels of the frame; a size left at Auto
// follows the frame's height. Colours: see color.go.
type Style struct {
	PointRadius float32 // tracked points as disks; 0 hides them
	LineWidth   float32 // straight links; 0 hides them
	CurveWidth  float32 // curved links; 0 hides them; Auto: LineWidth when that is set
	Bend        float32 // curve control offset as a fraction of the link's length
	BoxStroke   float32 // box outline width; 0 for none
	Roundness   float32 // box corner radius as a fraction of half the shorter side, 0..1
	// BoxStyle is the box outline's style, one of BoxStyles; "" is "solid".
	BoxStyle string
	// BracketLength is, with BoxStyle "corners", each bracket's length as a fraction of its
	// side, 0..0.5.
	BracketLength float32
	// LinkStyle is the links' stroke style (lines and curves), one of LinkStyles; "" is
	// "solid".
	LinkStyle string
	// Dash is the dash length and the gap in px of dashed links and box outlines, as seen
	// (round caps included), and Dash[1] the gap between dotted ones' dots; {0, 0}: tied to
	// each stroke's width (DashFor). See DashSized.
	Dash      [2]float32
	Labels    bool // a label (LabelFormat) above each box
	LabelSize int  // label font size in pixels; 0: height / 54, at least 10, at most MaxFontSize
	// Font is a TrueType or OpenType file (or collection: its first font) the labels are
	// set in, with Go Medium for the characters it lacks; "" sets them in Go Medium.
	Font string
	// LabelFormat is the labels' text template (see labels.go): "#{id} {class} {score:.2f}"
	// by default; "" means the default.
	LabelFormat string
	// ClassLabels are templates per class, over LabelFormat for that class's boxes;
	// LabelLines the lines {line} shows, each for LabelLineFrames frames (0: 25); LabelReveal types
	// labels on at that many characters a frame (0: off). See tracktext.go.
	ClassLabels     map[string]string
	LabelLines      []string
	LabelLineFrames int
	LabelReveal     float32
	// LabelWords are the words {word} picks from, one per track by a hash of its id.
	LabelWords []string
	// LabelsOverlap places every label where it prefers even if it covers another; by
	// default labels move out of each other's way where there is room.
	LabelsOverlap bool
	// LabelAnchor is where a label sits relative to its box, one of LabelAnchors; "" is
	// "auto". An anchored label that would cover another is mirrored (top and bottom, left
	// and right) unless LabelsOverlap. LabelOffset moves every label by dx, dy px (mirrored
	// with its place).
	LabelAnchor string
	LabelOffset [2]float32
	// Trail is the length of each track's trail in frames; 0 draws none (see Trails).
	Trail      int
	TrailWidth float32 // trail stroke width

	ColorBy ColorBy // what picks an item's palette colour
	// Sources names the tracks files drawn together (scene.Merge), for {source} and
	// ColorBy source; a box's or point's Source indexes it. With several, track ids are
	// the merged ones (scene.MergedID) and {id} shows each file's own (scene.FileID). Set
	// from the tracks, not by a flag; nil for the seed scene and the built-in tracker.
	Sources []string
	Palette string // the palette's name (Palettes); "" is DefaultPalette
	// Classes numbers the classes for ColorBy class (see classColor); ClassColors gives
	// classes colours of their own, over the palette's whatever ColorBy says.
	Classes     []string
	ClassColors map[string]scene.Color
	// Element colours: when set, every item of the element takes it instead of its own.
	BoxColor, FillColor, LinkColor, PointColor, TrailColor OptionalColor
	LabelColor, LabelTextColor                             OptionalColor // background, text (auto: black or white by contrast)
	// Opacities, 0..1, multiplied into the colours' own alpha.
	BoxOpacity   float32 // box outlines
	FillOpacity  float32 // box fills
	LinkOpacity  float32 // lines and curves
	PointOpacity float32 // tracked points
	LabelOpacity float32 // label backgrounds
	TrailOpacity float32 // the newest end of a trail
	// LabelOutline outlines label text by this many px, 0..MaxLabelOutline (0: none), in
	// LabelOutlineColor (auto: black or white, whichever contrasts more with the text), so
	// bare text (LabelOpacity 0) reads on any picture (font.go: Font.outline).
	LabelOutline      float32
	LabelOutlineColor OptionalColor
	// BoxEffects change the frame under the boxes (effects.go): track id k (its own file's
	// id where several are drawn together) takes effect k mod len; none when empty. EffectStrengths are theirs by position, 0 or missing for
	// the default.
	BoxEffects      []Effect
	EffectStrengths []float32
	// SortRange is EffectSort's key range (fractions of the key's: luma from black to
	// white; SortKey); SortColumns
	// sorts along columns instead of rows.
	SortRange   [2]float32
	SortColumns bool
	// SortOrder is EffectSort's order: "ascending" (darkest first, the default) or
	// "descending" (brightest first).
	SortOrder string
	// SortKey is what EffectSort sorts by and SortRange gates: "luma" (the default),
	// "saturation" or "hue" (effects.go's SortKeys).
	SortKey string
	// SortMinRun is EffectSort's shortest run sorted, in px: runs of keys in the range
	// shorter are left as they are (the pack's segment_min_px); 0 or 1 sorts every run.
	SortMinRun int
	// EffectFeather fades each box effect in over this many px inside the box's edge (a soft
	// privacy blur, a focus spot); 0: over the 1-px anti-aliased edge.
	EffectFeather float32
	// EffectOpacity mixes each box effect with the picture under it: 1 the effect alone,
	// 0 none of it.
	EffectOpacity float32

	// The drawing options of look.go: link fade and reach, trail smoothing, boxes for
	// points without one, the overlay's blend mode; SeedSizes keeps the benchmark's sizes.
	LinkFade    float32 // links fade out with length, gone at this many px; 0: off; Auto: the links' reach (NewBuilder)
	LinkReach   float32 // links longer than this fraction of the frame's width are dropped; 0: off
	TrailSmooth int     // trail positions averaged either side (binomial weights); 0: off
	MinLife     int     // a track is drawn from its MinLife-th frame (shorter ones never); 0, 1: at once
	Fade        int     // boxes fade and grow in over this many frames when a track starts, out when it ends; 0: off
	BoxFrom     string  // a box around each point without one: "" (none), "radius" or "age"
	BoxRadius   float32 // half the side of BoxFrom's boxes (the most, with "age")
	// BoxSize, when set, makes BoxFrom's boxes W × H px rectangles centred on the point
	// (the most, with "age") instead of BoxRadius's squares (the ComfyUI pack's BBox
	// renderer's fixed box); zero: BoxRadius's. Setting both is refused (options).
	BoxSize [2]float32
	Blend   string // how the overlay meets the frame: one of Blends; "" is "over"
	// OverlayOpacity scales the whole composited layer's alpha, 0..1 (the ComfyUI pack's
	// Layer Merge opacity): overlapping strokes do not show through each other, as they
	// would with each element's opacity lowered. Labels keep theirs (Primitives.Transparency).
	// 0 hides all but the labels, as the other opacities do theirs: DefaultStyle sets 1.
	OverlayOpacity float32
	PointStyle     string // the tracked points' shape: one of PointStyles; "" is "dot"
	// PointStroke is the outline width of ring, square, diamond, cross and plus points in px
	// (Auto: half the radius, at least 1); PointFillOpacity the opacity of a ring's,
	// square's or diamond's interior (Auto: squares solid, rings and diamonds hollow). See
	// AddShapedPoint.
	PointStroke, PointFillOpacity float32
	LinkGraph                     string // the link graph (knn.Graphs) when the link options name none; "" is "knn"
	SeedSizes                     bool   // Auto sizes as the seed benchmark scene measured them (see ForHeight)
	// Glow lights strokes, points and box outlines (sdf.Glow); LinkGradient runs each link
	// from one end's colour to the other's.
	Glow, GlowOpacity float32 // glow radius px (0: off; Auto: 12 px at 2160 lines, scaled by the height's square root, at least 4), its opacity
	LinkGradient      bool
	// LinkGradientColors, when set (both or neither), are the colours gradient links run
	// between instead of their ends' own: the first at the lower track id's end, the second
	// at the higher's (curved and dashed links take their mean).
	LinkGradientColors [2]OptionalColor
	// Halo edges every stroke (box outlines, links, points, trails) with a thin black or
	// white band, whichever contrasts more with the stroke, so that it stays distinct from a
	// picture of its own colour (halo.go): the band's width in px on each side (0: off;
	// Auto: 2 px at 2160 lines, scaled, at least 1), HaloOpacity its opacity at the stroke's.
	// A glow, which separates strokes itself, turns it off.
	Halo, HaloOpacity float32
	// Camera alters the whole picture after the overlay is drawn (camera.go).
	Camera Camera
	// Echo lays the layers of the Echo frames before under this one's (echo.go), echo k at
	// EchoDecay^k of its opacity, moved k·EchoOffset px and scaled EchoScale^k about the
	// frame's centre; 0: off.
	Echo       int
	EchoDecay  float32
	EchoOffset [2]float32
	EchoScale  float32
	// Particles is how many dots each moving track emits a frame (particles.go), each living
	// ParticleLife frames; ParticleSeed seeds their spread and size. 0: none.
	Particles    int
	ParticleLife int
	ParticleSeed uint64
	// LinkPulse makes the links' widths pulse by this fraction over LinkPulsePeriod frames
	// (0: 30); BendAway bends the curves away from the points' centroid (linkvariety.go).
	LinkPulse       float32
	LinkPulsePeriod int
	BendAway        bool
	// LinkFlow moves dashed and dotted links' dashes this many px a frame along them.
	LinkFlow float32
	// LinkShape is the straight links' shape, one of LinkShapes ("" is "straight"); the
	// others are drawn as joined runs of curve pieces (linkshape.go). LinkAmp is a wave's or
	// an elastic link's amplitude in px (Auto: 16 px at 2160 lines, scaled, at least 3),
	// LinkFreq its cycles along a link (to the nearest half; 0: 3), LinkSpeed the cycles a
	// frame its phase moves on (negative: back; 0: still). LinkTurns is a spiral's turns
	// (negative: the other way round; 0: 1).
	LinkShape string
	LinkTurns float32
	LinkAmp   float32
	LinkFreq  float32
	LinkSpeed float32
	// Jitter draws each track moved by a constant vector within this many px, from a hash
	// of its id (jitter.go); 0: off.
	Jitter float32
}

// DefaultStyle returns the default look, its sizes left at Auto: boxes with labels,
// straight links and points, no curves (the seed benchmark's look, with curves too, is the
// preset "seed").
func DefaultStyle() Style {
	return Style{
		PointRadius:      Auto,
		LineWidth:        Auto,
		CurveWidth:       0,
		Bend:             0.3,
		BoxStroke:        Auto,
		Roundness:        0.15,
		BoxStyle:         "solid",
		BracketLength:    0.25,
		LinkStyle:        "solid",
		Labels:           true,
		TrailWidth:       Auto,
		BoxOpacity:       1,
		FillOpacity:      0.15,
		LinkOpacity:      0.6,
		PointOpacity:     1,
		PointStroke:      Auto,
		PointFillOpacity: Auto,
		LabelOpacity:     0.85,
		TrailOpacity:     0.9,
		LinkReach:        0.2,
		BoxRadius:        Auto,
		GlowOpacity:      0.5,
		HaloOpacity:      DefaultHaloOpacity,
		SortRange:        DefaultSortRange,
		EffectOpacity:    1,
		OverlayOpacity:   1,
		EchoDecay:        0.6,
		EchoScale:        1,
		ParticleLife:     12,
		LinkShape:        "straight",
		LinkAmp:          Auto,
		LinkFreq:         3,
		LinkSpeed:        0.04,
		LinkTurns:        1,
	}
}

// ForHeight returns s with its Auto sizes resolved for a frame of the given height, scaled
// with the height to the nearest half pixel: at 2160 lines 6 px points, 4 px links, box
// strokes and trails, 48 px BoxFrom boxes and 16 px link waves (LinkAmp, at least 3 px),
// with a floor of 2 px for strokes and 2.5 px for points, so that at 1080 lines and below
// nothing is a hairline; labels of height / 54 px. With SeedSizes the sizes are the seed benchmark scene's (5 px points, 2 px links, 3 px
// boxes and trails at 2160 lines, scaled with a floor of 1 px): the scene bench measures
// stays the scene it measured.
func (s Style) ForHeight(height int) Style {
	k := float32(height) / ReferenceHeight
	auto := func(v *float32, at2160, floor float32) {
		if *v == Auto {
			*v = max(floor, float32(math.Round(float64(at2160*k*2)))/2)
		}
	}
	if s.CurveWidth == Auto && s.LineWidth != Auto {
		s.CurveWidth = s.LineWidth
	}
	if s.SeedSizes {
		auto(&s.PointRadius, 5, 1)
		auto(&s.LineWidth, 2, 1)
		auto(&s.CurveWidth, 2, 1)
		auto(&s.BoxStroke, 3, 1)
		auto(&s.TrailWidth, 3, 1)
	}
	auto(&s.PointRadius, 6, 2.5)
	auto(&s.LineWidth, 4, 2)
	auto(&s.CurveWidth, 4, 2)
	auto(&s.BoxStroke, 4, 2)
	auto(&s.TrailWidth, 4, 2)
	auto(&s.BoxRadius, 48, 6)
	auto(&s.LinkAmp, 16, 3)
	if s.Glow == Auto {
		// A glow is seen by its reach beyond the stroke: scaled with the height's square
		// root, it still reads at 1080 lines (8.5 px) and below, where strokes thin.
		s.Glow = max(4, float32(math.Round(12*math.Sqrt(float64(k))*2))/2)
	}
	auto(&s.Halo, 2, 1)
	auto(&s.Camera.Aberration, 6, 1)
	if s.LabelSize == 0 {
		// At most the largest size a label takes: a scan 28 000 px tall asked 518 px and
		// refused its own default.
		s.LabelSize = min(max(10, height/54), MaxFontSize)
	}
	return s
}

// Validate reports the first value outside its range as a *field.Error.
func (s *Style) Validate() error {
	for _, c := range []struct {
		name string
		v    float32
		hi   float32
		auto bool
	}{
		{"PointRadius", s.PointRadius, 1000, true},
		{"LineWidth", s.LineWidth, 1000, true},
		{"CurveWidth", s.CurveWidth, 1000, true},
		{"BoxStroke", s.BoxStroke, 1000, true},
		{"TrailWidth", s.TrailWidth, 1000, true},
		{"BoxRadius", s.BoxRadius, 10000, true},
		{"LinkAmp", s.LinkAmp, 1000, true},
		{"LinkFade", s.LinkFade, 100000, true},
		{"Glow", s.Glow, 1000, true},
		{"GlowOpacity", s.GlowOpacity, 1, false},
		{"Halo", s.Halo, 64, true},
		{"HaloOpacity", s.HaloOpacity, 1, false},
		{"LinkReach", s.LinkReach, 10, false},
		{"Roundness", s.Roundness, 1, false},
		{"BracketLength", s.BracketLength, 0.5, false},
		{"BoxOpacity", s.BoxOpacity, 1, false},
		{"FillOpacity", s.FillOpacity, 1, false},
		{"LinkOpacity", s.LinkOpacity, 1, false},
		{"PointOpacity", s.PointOpacity, 1, false},
		{"PointStroke", s.PointStroke, 1000, true},
		{"PointFillOpacity", s.PointFillOpacity, 1, true},
		{"LabelOpacity", s.LabelOpacity, 1, false},
		{"LabelOutline", s.LabelOutline, MaxLabelOutline, false},
		{"TrailOpacity", s.TrailOpacity, 1, false},
		{"EchoDecay", s.EchoDecay, 1, false},
		{"EffectFeather", s.EffectFeather, MaxEffectFeather, false},
		{"EffectOpacity", s.EffectOpacity, 1, false},
		{"OverlayOpacity", s.OverlayOpacity, 1, false},
		{"LinkPulse", s.LinkPulse, 1, false},
		{"Jitter", s.Jitter, MaxJitter, false},
		{"Camera.Scanlines", s.Camera.Scanlines, 1, false},
		{"Camera.Aberration", s.Camera.Aberration, 64, true},
		{"Camera.Grain", s.Camera.Grain, 1, false},
		{"Camera.GrainColor", s.Camera.GrainColor, 1, false},
		{"Camera.Vignette", s.Camera.Vignette, 1, false},
		{"Camera.FPS", s.Camera.FPS, MaxCameraFPS, false},
		{"Camera.TintStrength", s.Camera.TintStrength, 1, false},
	} {
		if c.auto && c.v == Auto {
			continue
		}
		if !(c.v >= 0 && c.v <= c.hi) {
			return field.Errorf("overlay.Style."+c.name, c.v, "is outside 0..%g", c.hi)
		}
	}
	if w, h := s.BoxSize[0], s.BoxSize[1]; !(w >= 0 && w <= MaxBoxSize && h >= 0 && h <= MaxBoxSize) || (w == 0) != (h == 0) {
		return field.Errorf("overlay.Style.BoxSize", fmt.Sprintf("%gx%g", w, h), "want W and H above 0 and up to %g px, or 0x0 for --box-radius's squares", float64(MaxBoxSize))
	}
	switch {
	case s.Trail < 0 || s.Trail == 1 || s.Trail > 10000:
		return field.Errorf("overlay.Style.Trail", s.Trail, "want 0 (off) or 2..10000 frames")
	case math.IsNaN(float64(s.Bend)) || math.Abs(float64(s.Bend)) > 10:
		return field.Errorf("overlay.Style.Bend", s.Bend, "is outside -10..10")
	case s.TrailSmooth < 0 || s.TrailSmooth > 100:
		return field.Errorf("overlay.Style.TrailSmooth", s.TrailSmooth, "want 0 (off) to 100 positions")
	case s.MinLife < 0 || s.MinLife > 10000:
		return field.Errorf("overlay.Style.MinLife", s.MinLife, "want 0 (every track at once) to 10000 frames")
	case !(s.Dash[0] >= 0 && s.Dash[0] <= MaxDash && s.Dash[1] >= 0 && s.Dash[1] <= MaxDash):
		return field.Errorf("overlay.Style.Dash", pair(s.Dash), "is outside 0..%d px", MaxDash)
	case s.Dash[1] == 0 && s.Dash[0] != 0:
		return field.Errorf("overlay.Style.Dash", pair(s.Dash), "a gap of 0 is a solid stroke: want GAP above 0 (or 0,0: tied to the stroke's width)")
	case math.IsNaN(float64(s.LinkFlow)) || math.Abs(float64(s.LinkFlow)) > 1000:
		return field.Errorf("overlay.Style.LinkFlow", s.LinkFlow, "is outside -1000..1000 px a frame")
	case s.LinkFreq != 0 && !(s.LinkFreq >= 0.5 && s.LinkFreq <= 32):
		return field.Errorf("overlay.Style.LinkFreq", s.LinkFreq, "is outside 0.5..32 cycles a link (0: 3)")
	case s.LinkTurns != 0 && !(math.Abs(float64(s.LinkTurns)) >= 0.25 && math.Abs(float64(s.LinkTurns)) <= 5):
		return field.Errorf("overlay.Style.LinkTurns", s.LinkTurns, "is outside 0.25..5 turns, or -5..-0.25 the other way (0: 1)")
	case math.IsNaN(float64(s.LinkSpeed)) || math.Abs(float64(s.LinkSpeed)) > 10:
		return field.Errorf("overlay.Style.LinkSpeed", s.LinkSpeed, "is outside -10..10 cycles a frame")
	case s.LinkPulsePeriod < 0 || s.LinkPulsePeriod > 100000:
		return field.Errorf("overlay.Style.LinkPulsePeriod", s.LinkPulsePeriod, "want 1 to 100000 frames (0: 30)")
	case s.Particles < 0 || s.Particles > 64:
		return field.Errorf("overlay.Style.Particles", s.Particles, "want 0 (none) to 64 a track and frame")
	case s.Particles > 0 && (s.ParticleLife < 1 || s.ParticleLife > 1000):
		return field.Errorf("overlay.Style.ParticleLife", s.ParticleLife, "want 1 to 1000 frames")
	case s.Echo < 0 || s.Echo > 32:
		return field.Errorf("overlay.Style.Echo", s.Echo, "want 0 (off) to 32 frames")
	case s.Echo > 0 && !(s.EchoScale >= 0.5 && s.EchoScale <= 2):
		return field.Errorf("overlay.Style.EchoScale", s.EchoScale, "is outside 0.5..2")
	case math.IsNaN(float64(s.EchoOffset[0])) || math.IsNaN(float64(s.EchoOffset[1])) ||
		math.Abs(float64(s.EchoOffset[0])) > 1000 || math.Abs(float64(s.EchoOffset[1])) > 1000:
		return field.Errorf("overlay.Style.EchoOffset", s.EchoOffset, "is outside -1000..1000 px")
	case s.Fade < 0 || s.Fade > 1000:
		return field.Errorf("overlay.Style.Fade", s.Fade, "want 0 (off) to 1000 frames")
	case s.LabelSize != 0 && (s.LabelSize < MinFontSize || s.LabelSize > MaxFontSize):
		return field.Errorf("overlay.Style.LabelSize", s.LabelSize, "is outside %d..%d", MinFontSize, MaxFontSize)
	}
	if !validStyle(BoxStyles, s.BoxStyle) {
		return field.Errorf("overlay.Style.BoxStyle", s.BoxStyle, "want %s", strings.Join(BoxStyles, ", "))
	}
	if !validStyle(LinkStyles, s.LinkStyle) {
		return field.Errorf("overlay.Style.LinkStyle", s.LinkStyle, "want %s", strings.Join(LinkStyles, ", "))
	}
	if !validStyle(LinkShapes, s.LinkShape) {
		return field.Errorf("overlay.Style.LinkShape", s.LinkShape, "want %s", strings.Join(LinkShapes, ", "))
	}
	if s.LinkStyle == "electric" && s.shaped() {
		return field.Errorf("overlay.Style.LinkShape", s.LinkShape, "electric links (--link-style electric) have a shape of their own: want straight with them")
	}
	if s.LinkStyle == "sparkle" && s.shaped() {
		return field.Errorf("overlay.Style.LinkShape", s.LinkShape, "sparkle links (--link-style sparkle) are scattered along the straight line: want straight with them")
	}
	if g := s.LinkGradientColors; g[0].Set != g[1].Set {
		return field.Errorf("overlay.Style.LinkGradientColors", g, "want both colours or neither")
	}
	if !validStyle(LabelAnchors, s.LabelAnchor) {
		return field.Errorf("overlay.Style.LabelAnchor", s.LabelAnchor, "want %s", strings.Join(LabelAnchors, ", "))
	}
	if o := s.LabelOffset; !(math.Abs(float64(o[0])) <= MaxLabelOffset && math.Abs(float64(o[1])) <= MaxLabelOffset) {
		return field.Errorf("overlay.Style.LabelOffset", o, "is outside -%d..%d px", MaxLabelOffset, MaxLabelOffset)
	}
	if !validStyle(BoxFroms, s.BoxFrom) {
		return field.Errorf("overlay.Style.BoxFrom", s.BoxFrom, "want %s", strings.Join(BoxFroms, ", "))
	}
	if !validStyle(PointStyles, s.PointStyle) {
		return field.Errorf("overlay.Style.PointStyle", s.PointStyle, "want %s", strings.Join(PointStyles, ", "))
	}
	if !validStyle(knn.Graphs, s.LinkGraph) {
		return field.Errorf("overlay.Style.LinkGraph", s.LinkGraph, "want %s", strings.Join(knn.Graphs, ", "))
	}
	if !validStyle(Blends, s.Blend) {
		return field.Errorf("overlay.Style.Blend", s.Blend, "want %s", strings.Join(Blends, ", "))
	}
	if s.Font != "" {
		if _, err := LoadTypeface(s.Font); err != nil {
			return field.Errorf("overlay.Style.Font", s.Font, "%v", err)
		}
	}
	if _, err := palette(s.Palette); err != nil {
		return field.Errorf("overlay.Style.Palette", s.Palette, "%v", err)
	}
	if _, err := parseLabelFormat(s.LabelFormat); err != nil {
		return field.Errorf("overlay.Style.LabelFormat", s.LabelFormat, "%v", err)
	}
	if err := s.validateEffects(); err != nil {
		return err
	}
	if err := s.Camera.validate(); err != nil {
		return err
	}
	if err := s.validateText(); err != nil {
		return err
	}
	return nil
}

// MaxLabelOffset is the most px Style.LabelOffset moves a label either way.
const MaxLabelOffset = 10000

// BoxStyles are the box outline styles: the whole outline, brackets at the corners, dashes,
// dots.
var BoxStyles = []string{"solid", "corners", "dashed", "dotted"}

// LinkStyles are the link stroke styles; "electric" draws the straight links as a jagged
// path that changes every frame (look.go's addElectric), "sparkle" the links as soft dots
// scattered along them, new every frame (sparkle.go).
var LinkStyles = []string{"solid", "dashed", "dotted", "electric", "sparkle"}

// validStyle reports whether s is one of styles or "" (the first).
func validStyle(styles []string, s string) bool {
	return s == "" || slices.Contains(styles, s)
}

// pair is "a,b", as a flag of two numbers takes them.
func pair(v [2]float32) string { return fmt.Sprintf("%g,%g", v[0], v[1]) }

// MaxJitter is the most px Style.Jitter may move a track.
const MaxJitter = 1000

// MaxLabelOutline is the widest label outline, in px: a wider one would swallow the text's
// counters at any size labels read at, and each outline glyph is dilated over a disc this
// wide once.
const MaxLabelOutline = 16

// MaxDash is the most px Style.Dash's length and gap may be.
const MaxDash = 10000

// DashFor returns the dash pattern of stroke style style ("solid", "dashed", "dotted", as in
// LinkStyles) for a stroke of width w. With W = max(w, 1), the width strokes are drawn at
// (sdf.Stroke): dashes 3·W long every 6·W, which their round caps make 4·W with gaps of
// 2·W; dots every 2·W, a dot's width apart. Solid (and "corners") has none.
func DashFor(style string, w float32) Dash {
	wd := max(w, 1)
	switch style {
	case "dashed":
		return Dash{On: 3 * wd, Period: 6 * wd}
	case "dotted":
		return Dash{On: 0, Period: 2 * wd}
	}
	return Dash{}
}

// DashSized returns the dash pattern of stroke style style for a stroke of width w with
// dashes length px long and gaps gap px wide as seen, round caps included: a dash is at
// least W = max(w, 1) long (a dot), and dots are W wide with gap px between them (a dot
// has no length to set). With gap 0 it is DashFor's, tied to the width.
func DashSized(style string, w, length, gap float32) Dash {
	if gap == 0 {
		return DashFor(style, w)
	}
	wd := max(w, 1)
	switch style {
	case "dashed":
		l := max(length, wd)
		return Dash{On: l - wd, Period: l + gap}
	case "dotted":
		return Dash{On: 0, Period: wd + gap}
	}
	return Dash{}
}
