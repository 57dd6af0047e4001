package overlay

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
	"trackink/sdf"
)

// Builder turns tracking frames into primitives in a style, frame after frame, for one frame
// size: boxes with their labels, links as lines and curves, points, trails. It remembers
// what the look needs across frames: when each track appeared ({age} in labels), where its
// label was (so labels do not jump), and the trails. It allocates nothing per frame once its
// buffers have grown.
type Builder struct {
	halo    haloScratch
	style   Style // resolved for the frame height (ForHeight)
	font    *Font
	w, h    int
	format  labelFormat
	palette []uint32
	trails  *Trails // nil when the style draws none
	bracket float32 // Box.Bracket: BracketLength with BoxStyle "corners", else 0
	digits  int     // labels' {x} {y} {w} {h} width (digitsFor)
	placer  labelPlacer

	// The dash patterns of boxes, lines and curves (DashSized), fixed by the style.
	boxDash, lineDash, curveDash Dash

	firstSeen map[int]int // track id → the first frame it appeared in
	places    map[int]labelPlace
	classOf   map[int]string // this frame: track id → its box's class, for points' colours
	classNum  map[string]int // Style.Classes: class → its palette index
	pending   []pendingLabel
	order     []int
	placed    labelGrid                // the labels placed so far in this frame
	inks      map[scene.Color]labelInk // labelColors of the colours labelled so far (labelInk)
	corners   []cornerLabel            // this frame's corner labels (camera.go), which the labels keep clear of
	// BoxFrom's (look.go): the tracks with a box this frame; the frame each point's track
	// first appeared in.
	boxed      map[int]bool
	pointSeen  map[int]int
	pointBoxed []scene.Box // this frame's boxes around points
	// fades are the next frame's boxes' opacities and sizes (lifetime.go), set by the
	// Drawer for a frame of its lifetime, which Build then resizes in place; empty: none.
	fades []boxFade
	// frame, set by the Drawer before Build, is the frame's number even where nothing is
	// tracked (the frame's Index is then 0); 0: the frame's Index.
	frame          int
	sortColumns    int32      // EffectBox.SortColumns: Style.SortColumns
	sortDescending int32      // EffectBox.SortDescending: Style.SortOrder
	sortKey        int32      // EffectBox.SortKey: Style.SortKey
	particles      *particles // Style.Particles' live particles; nil when none
	text           *textOf    // the text on tracks' formats and state (tracktext.go)
	// clock0 is the camera stamp's time at frame 1 (camera.go); zero: it counts from zero.
	clock0 time.Time
	// judgement, set by the Drawer before Build, is drawn with the frame (truth.go); nil:
	// none. Build clears it.
	judgement *Judgement
	arc       []float64    // a dashed shaped link's arc lengths (linkshape.go)
	swirl     []complex128 // a swirl link's points (linkshape.go)
	cuts      []float64    // a shaped link's pieces' ends, fractions of its arc length (linkshape.go)
	sparkles  []Line       // this frame's sparkle dots (sparkle.go), added after the halos
	jitter    scene.Frame  // the frame with its tracks moved (jitter.go)
}

// labelPlace is where a track's label was, and in which frame.
type labelPlace struct {
	place, frame int
}

// pendingLabel is a label whose text is set and whose place is still to choose.
type pendingLabel struct {
	box    *scene.Box
	label  int // index in Primitives.Labels
	lw, lh int
	// pw is the width it is placed by: lw, or a typing label's whole text's (revealWidth),
	// so the label keeps the place of the text it types.
	pw int
}

// NewBuilder returns a builder for w × h frames in style s (resolved, as by ForHeight, and
// valid), with labels set in font.
func NewBuilder(s Style, font *Font, w, h int) (*Builder, error) {
	format, err := parseLabelFormat(s.LabelFormat)
	if err != nil {
		return nil, err
	}
	pal, err := palette(s.Palette)
	if err != nil {
		return nil, err
	}
	var ok bool
	b := &Builder{style: s, font: font, w: w, h: h, format: format, palette: pal,
		firstSeen: map[int]int{}, places: map[int]labelPlace{}, classOf: map[int]string{},
		boxed: map[int]bool{}, pointSeen: map[int]int{}}
	b.classNum = classNumbers(s.Classes)
	if s.Trail > 0 {
		b.trails = NewTrails(s.Trail)
		b.trails.Smooth = s.TrailSmooth
	}
	if s.BoxStyle == "corners" {
		b.bracket = s.BracketLength
	}
	b.digits = digitsFor(w, h)
	b.placer = labelPlacer{stroke: s.BoxStroke,
		dx: int(math.Round(float64(s.LabelOffset[0]))), dy: int(math.Round(float64(s.LabelOffset[1])))}
	if b.placer.anchor, ok = parseAnchor(s.LabelAnchor); !ok {
		return nil, fmt.Errorf("label anchor %q: want %s", s.LabelAnchor, strings.Join(LabelAnchors, ", "))
	}
	b.clock0 = s.Camera.cameraClock()
	if s.SortColumns {
		b.sortColumns = 1
	}
	b.sortDescending, b.sortKey = s.sortCodes()
	if s.Particles > 0 {
		b.particles = newParticles()
	}
	if b.text, err = newTextOf(&s); err != nil {
		return nil, err
	}
	if s.LinkFade == Auto {
		b.style.LinkFade = linkReach(s, w)
	}
	b.boxDash = DashSized(s.BoxStyle, s.BoxStroke, s.Dash[0], s.Dash[1])
	b.lineDash = DashSized(s.LinkStyle, s.LineWidth, s.Dash[0], s.Dash[1])
	b.curveDash = DashSized(s.LinkStyle, s.CurveWidth, s.Dash[0], s.Dash[1])
	return b, nil
}

// Build fills p with what frame f draws: its boxes with labels, the links between its points
// (straight and curved), the points and the trails. Frames must come in order.
func (b *Builder) Build(p *Primitives, f *scene.Frame, links []knn.Edge) {
	s := &b.style
	p.Reset()
	p.Font = b.font
	p.Blend, _ = composite.ParseBlend(s.Blend) // valid: NewBuilder's style is
	p.Transparency = 1 - s.OverlayOpacity
	p.Glow = sdf.NewGlow(s.Glow, s.GlowOpacity)
	index := f.Index
	if b.frame != 0 {
		index, b.frame = b.frame, 0
	}
	p.Camera = s.cameraPass(index)
	f = b.jittered(f)
	clear(b.classOf)
	b.pending = b.pending[:0]
	b.addTruth(p)
	for i := range f.Boxes {
		bx := &f.Boxes[i]
		fd := boxFade{1, 1}
		if i < len(b.fades) {
			fd = b.fades[i]
			scaleBox(bx, fd.scale)
		}
		b.addBox(p, f, bx, fd)
	}
	b.fades = b.fades[:0]
	for i := range b.pointBoxes(f) {
		b.addBox(p, f, &b.pointBoxed[i], boxFade{1, 1})
	}
	b.prepareCorners(p, index)
	b.placeLabels(p, f.Index)
	b.addVerdicts(p, f)
	b.addCorners(p)
	b.addLinksAndPoints(p, f, links, index)
}

// addBox adds box bx of frame f, at fade fd: its outline and fill, its effect and its label.
func (b *Builder) addBox(p *Primitives, f *scene.Frame, bx *scene.Box, fd boxFade) {
	s := &b.style
	if bx.ID != scene.NoID {
		if _, ok := b.firstSeen[bx.ID]; !ok {
			b.firstSeen[bx.ID] = f.Index
		}
		if bx.Class != "" {
			b.classOf[bx.ID] = bx.Class
		}
	}
	c := b.itemColor(bx.ID, bx.Source, bx.Class, bx.Color, bx.HasColor)
	stroke, fill := c, c
	if s.BoxColor.Set {
		stroke = s.BoxColor.C
	}
	if s.FillColor.Set {
		fill = s.FillColor.C
	}
	p.Boxes = append(p.Boxes, Box{
		X: bx.X, Y: bx.Y, W: bx.W, H: bx.H,
		Radius:      s.Roundness * min(bx.W, bx.H) / 2,
		Stroke:      s.BoxStroke,
		Fill:        Premul(fill, s.FillOpacity*fd.alpha),
		StrokeColor: Premul(stroke, s.BoxOpacity*fd.alpha),
		Dash:        b.boxDash,
		Bracket:     b.bracket,
	})
	if fd.alpha == 1 {
		// An effect changes the picture under the box: it comes and goes whole.
		b.addEffect(p, bx, stroke)
	}
	if s.Labels {
		b.addLabel(p, f, bx, c, fd.alpha)
	}
}

// addLinksAndPoints adds frame f's links, its points and their trails.
func (b *Builder) addLinksAndPoints(p *Primitives, f *scene.Frame, links []knn.Edge, index int) {
	s := &b.style
	var cx, cy float32 // the points' centroid, for BendAway
	if s.BendAway && len(links) > 0 {
		cx, cy = centroid(f)
	}
	lineDash, curveDash := b.flowDash(b.lineDash, index), b.flowDash(b.curveDash, index)
	for _, l := range links {
		pa, pb := &f.Points[l.A], &f.Points[l.B]
		lc := b.linkColor(pa, pb)
		pulse := b.pulse(pa, pb, index)
		if s.LineWidth > 0 {
			straight := Line{X0: pa.X, Y0: pa.Y, X1: pb.X, Y1: pb.Y, Width: s.LineWidth * pulse, Color: lc, Dash: lineDash}
			b.gradient(&straight, pa, pb)
			seg, ok := clipLine(straight, b.w, b.h, p.Glow.Radius)
			if ok && s.LinkStyle == "sparkle" {
				// The dots lie along the whole link (those off the frame culled), so
				// they do not move as an end leaves it.
				c1 := straight.Color
				if straight.Gradient {
					c1 = straight.Color1
				}
				b.addSparkle(p, pa, pb, index, 0, pa.X, pa.Y, (pa.X+pb.X)/2, (pa.Y+pb.Y)/2, pb.X, pb.Y, straight.Width, straight.Color, c1)
			} else if ok && (s.LinkStyle == "electric" || s.shaped()) {
				// The arc or shape runs along the visible part of a link to a point far
				// outside.
				ca, cb := *pa, *pb
				ca.X, ca.Y, cb.X, cb.Y = seg.X0, seg.Y0, seg.X1, seg.Y1
				if s.shaped() {
					b.addShaped(p, &ca, &cb, index, s.LineWidth*pulse, lc, b.lineDash)
				} else {
					addElectric(p, &ca, &cb, f.Index, s.LineWidth*pulse, lc)
				}
			} else if ok {
				p.Lines = append(p.Lines, seg)
			}
		}
		if s.CurveWidth > 0 {
			kx, ky := b.curveControl(pa, pb, cx, cy)
			if c, ok := clipCurve(Curve{X0: pa.X, Y0: pa.Y, X1: kx, Y1: ky, X2: pb.X, Y2: pb.Y, Width: s.CurveWidth * pulse, Color: lc,
				Dash: curveDash}, b.w, b.h, p.Glow.Radius); ok && s.LinkStyle == "sparkle" {
				b.addSparkle(p, pa, pb, index, 1, pa.X, pa.Y, kx, ky, pb.X, pb.Y, s.CurveWidth*pulse, lc, lc)
			} else if ok {
				p.Curves = append(p.Curves, c)
			}
		}
	}
	if s.PointRadius > 0 {
		for i := range f.Points {
			pt := &f.Points[i]
			c := b.pointColor(pt)
			if s.PointColor.Set {
				c = s.PointColor.C
			}
			p.AddShapedPoint(s.PointStyle, pt.X, pt.Y, s.PointRadius, s.PointStroke, s.PointFillOpacity, Premul(c, s.PointOpacity))
		}
	}
	if b.trails != nil && f.Index > 0 {
		b.trails.Update(f)
		b.trails.AddTo(p, f, s.TrailWidth, b.trailColor)
	}
	if b.particles != nil {
		b.particles.update(b, p, f, index)
	}
	b.addHalos(p)
	// Sparkles take no halo: it would ring each soft dot, a string of beads.
	p.Lines = append(p.Lines, b.sparkles...)
	b.sparkles = b.sparkles[:0]
	if f.Index%1024 == 0 {
		b.forgetPlaces(f.Index)
	}
}

// itemColor is an item's colour before element colours: its own, else its class's, its
// tracks file's (source) or its track's palette colour.
func (b *Builder) itemColor(id, source int, class string, own scene.Color, hasOwn bool) scene.Color {
	if hasOwn {
		return own
	}
	if c, ok := b.style.ClassColors[class]; ok && class != "" {
		return c
	}
	if b.style.ColorBy == ByClass && class != "" {
		return b.classColor(class)
	}
	if b.style.ColorBy == BySource {
		return paletteColor(b.palette, source)
	}
	return paletteColor(b.palette, id)
}

// linkEndColor is the colour a point lends its links: the style's link colour when set (the
// mean of two equal colours is that colour), else the point's.
func (b *Builder) linkEndColor(pt *scene.Point) scene.Color {
	if b.style.LinkColor.Set {
		return b.style.LinkColor.C
	}
	return b.pointColor(pt)
}

// pointColor is a point's colour: its box's class picks it with ColorBy class.
func (b *Builder) pointColor(pt *scene.Point) scene.Color {
	return b.itemColor(pt.ID, pt.Source, b.classOf[pt.ID], pt.Color, pt.HasColor)
}

func (b *Builder) trailColor(pt *scene.Point) RGBA {
	c := b.pointColor(pt)
	if b.style.TrailColor.Set {
		c = b.style.TrailColor.C
	}
	return Premul(c, b.style.TrailOpacity)
}

// scaleBox scales bx about its centre by k.
func scaleBox(bx *scene.Box, k float32) {
	if k == 1 {
		return
	}
	cx, cy := bx.X+bx.W/2, bx.Y+bx.H/2
	bx.W, bx.H = bx.W*k, bx.H*k
	bx.X, bx.Y = cx-bx.W/2, cy-bx.H/2
}

// addLabel sets box bx's label text and colours, at opacity alpha, and queues it for
// placeLabels.
func (b *Builder) addLabel(p *Primitives, f *scene.Frame, bx *scene.Box, c scene.Color, alpha float32) {
	if offFrame(bx, b.w, b.h) {
		return
	}
	v := labelValues{box: bx, frame: f.Index, word: wordFor(b.style.LabelWords, bx.ID), digits: b.digits}
	if n := len(b.style.Sources); n > 0 {
		v.files, v.source = n, b.style.Sources[min(bx.Source, n-1)]
	}
	if bx.ID != scene.NoID {
		v.age = f.Index - b.firstSeen[bx.ID]
	}
	b.text.values(&b.style, &v, bx, f.Index)
	format := b.format
	if cf, ok := b.text.classFormats[bx.Class]; ok {
		format = cf
	}
	start := len(p.text)
	p.text = format.appendLabel(p.text, &v)
	if len(p.text) == start {
		return // nothing to say
	}
	// whole is a typing label's width to place it by (revealWidth).
	whole := 0
	if bx.ID != scene.NoID { // an untracked box has no first frame to type from: shown whole
		whole, p.text = b.revealWidth(p.text, start)
		p.text = append(p.text[:start], reveal(&b.style, p.text[start:], v.age, format.uses(fieldLine))...)
	}
	text := p.text[start:len(p.text):len(p.text)]
	lw, lh := b.font.LabelSize(text)
	bg, fg, line := b.labelInk(c)
	if alpha != 1 {
		bg, fg, line = bg.Scale(alpha), fg.Scale(alpha), line.Scale(alpha)
	}
	b.pending = append(b.pending, pendingLabel{box: bx, label: len(p.Labels), lw: lw, lh: lh, pw: max(lw, whole)})
	p.Labels = append(p.Labels, Label{W: lw, H: lh, Text: text, Color: fg, Background: bg,
		Outline: b.style.LabelOutline, OutlineColor: line})
}

// placeLabels places the frame's labels: each at its preferred place with LabelsOverlap,
// else in track-id order at the first place that covers no label placed before it (see the
// top of labels.go).
func (b *Builder) placeLabels(p *Primitives, frame int) {
	b.order = b.order[:0]
	for i := range b.pending {
		b.order = append(b.order, i)
	}
	// By id, then by box order: a stable order, which SortStableFunc's merging took
	// O(n log² n) to reach.
	slices.SortFunc(b.order, func(i, j int) int {
		if d := b.pending[i].box.ID - b.pending[j].box.ID; d != 0 {
			return d
		}
		return i - j
	})
	if !b.style.LabelsOverlap {
		maxH := 0
		for _, pl := range b.pending {
			maxH = max(maxH, pl.lh)
		}
		for _, c := range b.corners {
			maxH = max(maxH, c.rect.h)
		}
		b.placed.reset(b.w, b.h, len(b.pending)+len(b.corners), maxH)
		// The corner labels are placed first: a track's label moves off the stamp or the
		// panel as off another label (the panel once hid a label and its FP tag).
		for _, c := range b.corners {
			b.placed.add(c.rect)
		}
	}
	for _, i := range b.order {
		pl := &b.pending[i]
		id := pl.box.ID
		prev, known := b.places[id]
		tries := [numPlaces]int{placeAbove, placeInsideTop, placeBelow, placeInsideBelow}
		if b.placer.anchor >= 0 {
			tries = flips(b.placer.anchor)
		}
		place := tries[0]
		if known && id != scene.NoID {
			place = prev.place
		}
		if !b.style.LabelsOverlap {
			for try := -1; try < len(tries); try++ {
				cand := place
				if try >= 0 {
					cand = tries[try]
				}
				x, y, _ := b.placer.at(pl.box, cand, pl.pw, pl.lh, b.w, b.h)
				if !b.placed.covers(labelRect{x, y, pl.pw, pl.lh}) {
					place = cand
					break
				}
			}
		}
		l := &p.Labels[pl.label]
		var edge bool
		l.X, l.Y, edge = b.placer.at(pl.box, place, pl.pw, pl.lh, b.w, b.h)
		if !b.style.LabelsOverlap {
			r := labelRect{l.X, l.Y, pl.pw, pl.lh}
			if edge && b.placed.covers(r) { // stacked by the frame's edge: see labelGrid.apart
				if moved, ok := b.placed.apart(r, b.h); ok {
					r, l.X, l.Y = moved, moved.x, moved.y
				}
			}
			b.placed.add(r)
		}
		if id != scene.NoID {
			b.places[id] = labelPlace{place, frame}
		}
	}
}

// forgetPlaces drops the label places of tracks not seen for a while, so the map does not
// grow with every track a long video ever had.
func (b *Builder) forgetPlaces(frame int) {
	for id, pl := range b.places {
		if pl.frame < frame-1024 {
			delete(b.places, id)
		}
	}
}

// labelInk is a label's colours: labelColors's, for a box colour.
type labelInk struct{ bg, fg, outline RGBA }

// maxInks bounds Builder.inks: a palette has a few dozen colours, but a tracks file may give
// every track its own, and the memory must not grow with the tracks.
const maxInks = 256

// labelInk returns labelColors(c, style), computed once for each colour: its contrast search
// (WCAG luminances, math.Pow) was most of the host's work on a 4K frame of a hundred labels.
func (b *Builder) labelInk(c scene.Color) (bg, fg, outline RGBA) {
	ink, ok := b.inks[c]
	if !ok {
		if b.inks == nil || len(b.inks) >= maxInks {
			b.inks = make(map[scene.Color]labelInk)
		}
		ink.bg, ink.fg, ink.outline = labelColors(c, &b.style)
		b.inks[c] = ink
	}
	return ink.bg, ink.fg, ink.outline
}
