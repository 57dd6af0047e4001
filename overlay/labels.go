package overlay

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"trackink/scene"
)

// Labels: a box's label is its text (Style.LabelFormat, a template) on a rounded background,
// above the box by default. Without Style.LabelsOverlap the labels of a frame are placed in
// track-id order, each at the first of its places (a label's place in the previous frame
// first, then above, inside the top, below, inside the bottom) where it covers no label
// placed before it, so labels move out of each other's way where there is room and do not
// jump from frame to frame; a label with no free place takes its preferred one, except that
// one the frame's edge moved is moved apart from the labels it covers there (labelGrid.apart):
// all its places may land on the same line at the edge. With Style.LabelAnchor a label's
// places are its anchor, then the anchor mirrored top to bottom, left to right, and both
// (labelPlacer); Style.LabelOffset moves it from any of them. A typing label
// (Style.LabelReveal) is placed by its whole text's width (revealWidth).

// DefaultLabelFormat is the labels' template unless the style gives one.
const DefaultLabelFormat = "#{id} {class} {score:.2f}"

// labelField is a value a label template can show.
type labelField int

const (
	fieldText  labelField = iota // literal text
	fieldID                      // the track id; missing for untracked boxes
	fieldClass                   // the class name; missing when empty
	fieldScore                   // the detection score; missing without one
	fieldFrame                   // the tracking frame number
	fieldX                       // the box's left edge
	fieldY                       // the box's top edge
	fieldW                       // the box's width
	fieldH                       // the box's height
	fieldCX                      // the box's centre, x: a point's own position for a box around it (Style.BoxFrom)
	fieldCY                      // the box's centre, y
	fieldAge                     // frames since the track first appeared
	fieldWord                    // a word from Style.LabelWords, by a hash of the track id
	fieldHex                     // six hex digits, by a hash of the track id
	fieldSpeed                   // px the box's centre moved since the frame before; missing on a track's first frame
	fieldLine                    // a line of Style.LabelLines, scrolling on every LabelLineFrames frames
)

// fieldSource is the name of the box's tracks file (Style.Sources); missing without.
const fieldSource = fieldLine + 1

var labelFields = map[string]labelField{"id": fieldID, "class": fieldClass, "score": fieldScore, "frame": fieldFrame,
	"x": fieldX, "y": fieldY, "w": fieldW, "h": fieldH, "cx": fieldCX, "cy": fieldCY, "age": fieldAge, "word": fieldWord, "hex": fieldHex,
	"speed": fieldSpeed, "line": fieldLine, "source": fieldSource}

// LabelFieldNames returns the names of the label template's fields, in {braces}, in the
// order of the documentation (the help of --label is made from it).
func LabelFieldNames() []string {
	names := make([]string, len(labelFields))
	for name, f := range labelFields {
		names[f-fieldID] = "{" + name + "}"
	}
	return names
}

// labelPart is literal text or a field, with its decimals for numbers.
type labelPart struct {
	field    labelField
	text     string
	decimals int
}

// labelFormat is a compiled template: words, each parts. A word with a field that has no
// value (no class, no score, no id) is left out with the space before it, so "#{id}" shows
// nothing for an untracked box and "{class}" nothing for a box without a class.
type labelFormat [][]labelPart

// parseLabelFormat compiles a template: text with fields in braces, {name} or {name:.Nf}
// for numbers with N decimals (score: 2 by default, others 0); {{ and }} are literal braces;
// spaces separate words, and runs of spaces count as one. Text that is not UTF-8 is refused,
// as the --label-words and --label-lines files and style files are: it would be drawn as
// replacement boxes without a word.
func parseLabelFormat(tmpl string) (labelFormat, error) {
	if tmpl == "" {
		tmpl = DefaultLabelFormat
	}
	if !utf8.ValidString(tmpl) {
		return nil, errors.New("not UTF-8")
	}
	var f labelFormat
	for _, word := range strings.Fields(tmpl) {
		var parts []labelPart
		// text gathers the literal bytes as they are: string(c) of a byte would read it as a
		// code point and turn each byte of a UTF-8 letter into a Latin-1 one.
		text := ""
		for i := 0; i < len(word); i++ {
			switch c := word[i]; {
			case c == '{' && i+1 < len(word) && word[i+1] == '{', c == '}' && i+1 < len(word) && word[i+1] == '}':
				text += word[i : i+1]
				i++
			case c == '{':
				end := strings.IndexByte(word[i:], '}')
				if end < 0 {
					return nil, errors.New("a { without its }")
				}
				p, err := parseLabelField(word[i+1 : i+end])
				if err != nil {
					return nil, err
				}
				if text != "" {
					parts = append(parts, labelPart{text: text})
					text = ""
				}
				parts = append(parts, p)
				i += end
			case c == '}':
				return nil, errors.New("a } without its { (write }} for a brace)")
			default:
				text += word[i : i+1]
			}
		}
		if text != "" {
			parts = append(parts, labelPart{text: text})
		}
		f = append(f, parts)
	}
	return f, nil
}

func parseLabelField(s string) (labelPart, error) {
	name, spec, hasSpec := strings.Cut(s, ":")
	field, ok := labelFields[name]
	if !ok {
		return labelPart{}, fmt.Errorf("unknown field {%s}: want id, class, score, frame, x, y, w, h, cx, cy, age, word, hex, speed, line or source", name)
	}
	p := labelPart{field: field}
	switch field {
	case fieldScore:
		p.decimals = 2
	case fieldSpeed:
		p.decimals = 1
	}
	if hasSpec {
		numeric := field == fieldScore || field >= fieldX && field <= fieldCY || field == fieldSpeed
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(spec, "."), "f"))
		if !numeric || !strings.HasPrefix(spec, ".") || !strings.HasSuffix(spec, "f") || err != nil || n < 0 || n > 6 {
			return labelPart{}, fmt.Errorf("{%s}: decimals are written {score:.2f} (0 to 6), for score, x, y, w, h, cx, cy and speed", s)
		}
		p.decimals = n
	}
	return p, nil
}

// labelValues is what a label's fields show.
type labelValues struct {
	box   *scene.Box
	frame int
	age   int    // frames since the track appeared
	word  string // "" when there are no words or the box is untracked
	// digits is how many digits {x} {y} {w} {h} {cx} {cy} show before the point at least, zeros in
	// front, so that a label keeps its width as its box moves: the frame's larger side's.
	digits   int
	speed    float32 // px a frame; hasSpeed false on a track's first frame
	hasSpeed bool
	line     string // "" when there are no lines or the box is untracked
	// files is how many tracks files are drawn together (Style.Sources), whose merged ids
	// {id} shows as each file's own; source is the name of the box's.
	files  int
	source string
}

// appendLabel appends the label text for v to dst.
func (f labelFormat) appendLabel(dst []byte, v *labelValues) []byte {
	start := len(dst)
	b := v.box
	for _, word := range f {
		wordStart := len(dst)
		if wordStart > start {
			dst = append(dst, ' ')
		}
		missing := false
		for _, p := range word {
			switch p.field {
			case fieldText:
				dst = append(dst, p.text...)
			case fieldID:
				missing = b.ID == scene.NoID
				dst = strconv.AppendInt(dst, int64(scene.FileID(b.ID, v.files)), 10)
			case fieldClass:
				missing = b.Class == ""
				dst = append(dst, b.Class...)
			case fieldScore:
				missing = !b.HasScore
				dst = strconv.AppendFloat(dst, float64(b.Score), 'f', p.decimals, 32)
			case fieldFrame:
				dst = strconv.AppendInt(dst, int64(v.frame), 10)
			case fieldX, fieldY, fieldW, fieldH, fieldCX, fieldCY:
				x := [...]float32{b.X, b.Y, b.W, b.H, b.X + b.W/2, b.Y + b.H/2}[p.field-fieldX]
				dst = appendPadded(dst, x, p.decimals, v.digits)
			case fieldAge:
				missing = b.ID == scene.NoID
				dst = strconv.AppendInt(dst, int64(v.age), 10)
			case fieldWord:
				missing = v.word == ""
				dst = append(dst, v.word...)
			case fieldHex:
				missing = b.ID == scene.NoID
				dst = appendHex(dst, b.ID)
			case fieldSpeed:
				missing = !v.hasSpeed
				dst = strconv.AppendFloat(dst, float64(v.speed), 'f', p.decimals, 32)
			case fieldLine:
				missing = v.line == ""
				dst = append(dst, v.line...)
			case fieldSource:
				missing = v.source == ""
				dst = append(dst, v.source...)
			}
			if missing {
				break
			}
		}
		if missing {
			dst = dst[:wordStart]
		}
	}
	return dst
}

// wordFor picks track id's word: a hash, so a track keeps its word in every frame.
func wordFor(words []string, id int) string {
	if len(words) == 0 || id == scene.NoID {
		return ""
	}
	h := fnv.New32a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(id) >> (8 * i))
	}
	h.Write(b[:])
	return words[h.Sum32()%uint32(len(words))]
}

// Label places, in the order tried: where the label was in the previous frame, then these.
const (
	placeAbove       = iota // on the box's top edge, outside (inside when that leaves the frame)
	placeInsideTop          // inside the box, at its top
	placeBelow              // on the box's bottom edge, outside
	placeInsideBelow        // inside the box, at its bottom
	numPlaces
)

// labelAt returns the top-left corner of a lw × lh label of box b at place, kept inside a
// w × h frame. stroke is the box's outline width: a label sits on its outer edge.
func labelAt(b *scene.Box, place int, stroke float32, lw, lh, w, h int) (x, y int) {
	x, y = labelCorner(b, place, stroke, lh)
	return max(0, min(x, w-lw)), max(0, min(y, h-lh))
}

// labelCorner is labelAt's corner before it is kept inside the frame (where a box reaches
// past the frame's left or top edge, it lies past it too).
func labelCorner(b *scene.Box, place int, stroke float32, lh int) (x, y int) {
	half := stroke / 2
	round := func(v float32) int { return int(math.Round(float64(v))) }
	x = round(b.X - half)
	switch place {
	case placeAbove:
		y = round(b.Y-half) - lh
		if y < 0 {
			y = round(b.Y + half)
		}
	case placeInsideTop:
		y = round(b.Y + half)
	case placeBelow:
		y = round(b.Y + b.H + half)
	case placeInsideBelow:
		y = round(b.Y+b.H-half) - lh
	}
	return x, y
}

// offFrame reports whether box b lies wholly outside a w × h frame.
func offFrame(b *scene.Box, w, h int) bool {
	return b.X+b.W < 0 || b.Y+b.H < 0 || b.X > float32(w) || b.Y > float32(h)
}

// labelColors returns a label's background (box colour c at the style's label opacity,
// unless the style sets it) and text colour. Unless the style sets the text colour, the text
// is black or white, whichever is more legible, and the background's opacity is raised, as
// little as it must be, for the text to reach WCAG's contrast of 4.5:1 over any picture
// under the label: a translucent label over a white or a black frame (its extremes) is
// still read. At opacity 1 black or white text always reaches 4.58:1 on any colour.
//
// With an outline (LabelOutline) the background keeps its opacity: the outline, black or
// white against the text unless the style sets its colour, makes the text read on any
// picture, so --label-opacity 0 leaves bare outlined text. Where the style sets the
// outline's colour and not the text's, the text is black or white against what the eye sees
// round the glyphs (textBackdrop): the outline over the plate, weighed by its alpha and width.
func labelColors(c scene.Color, s *Style) (bg, fg, outline RGBA) {
	if s.LabelColor.Set {
		c = s.LabelColor.C
	}
	opacity := s.LabelOpacity
	text := s.LabelTextColor.C
	if !s.LabelTextColor.Set {
		under, alpha := c, float64(c.A)/255*float64(opacity)
		if s.LabelOutline > 0 && s.LabelOutlineColor.Set {
			under, alpha = textBackdrop(c, alpha, s)
		}
		text = opaque(0xffffff)
		if worstContrast(under, alpha, 0) > worstContrast(under, alpha, 255) {
			text = opaque(0x000000)
		}
		if s.LabelOutline == 0 {
			opacity = legibleOpacity(c, opacity, float64(text.R))
		}
	}
	if s.LabelOutline == 0 {
		return Premul(c, opacity), Premul(text, 1), RGBA{}
	}
	line := s.LabelOutlineColor.C
	if !s.LabelOutlineColor.Set {
		line = outlineFor(text)
	}
	return Premul(c, opacity), Premul(text, 1), Premul(line, 1)
}

// textBackdrop is what surrounds a label's glyphs as the eye sees it, a colour and its
// opacity over the picture: the outline in the style's colour composited over the plate (c at
// opacity plate; none where the plate is hidden). The outline's weight is its colour's alpha
// times the share of the space round the glyphs it covers, its width over the label's padding
// (a quarter of the label size, the room between the text and the plate's edge), at most 1:
// a wide outline covers the plate, a thin or faint one barely changes it. A 0.5 px navy
// outline on an opaque yellow plate leaves yellow round the text, so the text is dark; a
// transparent outline leaves the plate alone. With no plate an outline of any width is all
// the label puts round the text, and over an unknown picture it still tips the choice its
// way: dark text round a 2 px yellow one.
func textBackdrop(c scene.Color, plate float64, s *Style) (scene.Color, float64) {
	o := s.LabelOutlineColor.C
	pad := float64(labelPad(max(s.LabelSize, MinFontSize))) // LabelSize is 0 before ForHeight
	w := float64(o.A) / 255 * min(1, float64(s.LabelOutline)/pad)
	alpha := w + plate*(1-w)
	if alpha == 0 {
		return c, 0
	}
	mix := func(ov, cv uint8) uint8 {
		return uint8(math.Round((w*float64(ov) + plate*(1-w)*float64(cv)) / alpha))
	}
	return scene.Color{R: mix(o.R, c.R), G: mix(o.G, c.G), B: mix(o.B, c.B), A: 255}, alpha
}

// outlineFor is the auto outline of text in colour t: black or white, whichever contrasts
// more with it (WCAG), so the outline reads against the text whatever its colour. The
// opposite of black or white text; for a colour, the side it is far from.
func outlineFor(t scene.Color) scene.Color {
	l := relativeLuminance(float64(t.R), float64(t.G), float64(t.B))
	if (l+0.05)/0.05 >= 1.05/(l+0.05) {
		return opaque(0x000000)
	}
	return opaque(0xffffff)
}

// minTextContrast is WCAG 2's least contrast for text (success criterion 1.4.3).
const minTextContrast = 4.5

// legibleOpacity is the least opacity from opacity up for which text of grey level t (0 or
// 255) on background c contrasts minTextContrast:1 over any picture, by bisection (the
// contrast grows with the opacity).
func legibleOpacity(c scene.Color, opacity float32, t float64) float32 {
	a := float64(c.A) / 255
	if a == 0 || worstContrast(c, a*float64(opacity), t) >= minTextContrast {
		return opacity
	}
	lo, hi := float64(opacity), 1.0
	for range 12 {
		if mid := (lo + hi) / 2; worstContrast(c, a*mid, t) >= minTextContrast {
			hi = mid
		} else {
			lo = mid
		}
	}
	return float32(hi)
}

// worstContrast is the WCAG contrast ratio of text of grey level t on background c at
// opacity alpha over a black and over a white picture, the lower of the two.
func worstContrast(c scene.Color, alpha, t float64) float64 {
	text := relativeLuminance(t, t, t)
	worst := math.Inf(1)
	for _, under := range []float64{0, 255} {
		mix := func(v uint8) float64 { return alpha*float64(v) + (1-alpha)*under }
		bg := relativeLuminance(mix(c.R), mix(c.G), mix(c.B))
		worst = min(worst, (max(bg, text)+0.05)/(min(bg, text)+0.05))
	}
	return worst
}

// relativeLuminance is WCAG's relative luminance of an sRGB colour given in 0..255.
func relativeLuminance(r, g, b float64) float64 {
	linear := func(v float64) float64 {
		if v /= 255; v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*linear(r) + 0.7152*linear(g) + 0.0722*linear(b)
}

// AddBoxLabel adds the default label ("#id class score") of box b in colour c at its
// preferred place, as a lone label (no other labels to avoid): the golden scenes test label
// placement at the frame's edges with it. A box wholly outside the frame gets no label, and
// one with nothing to say (untracked, no class, no score) neither.
func (p *Primitives) AddBoxLabel(b *scene.Box, c scene.Color, stroke float32, font *Font, w, h int) {
	if offFrame(b, w, h) {
		return
	}
	start := len(p.text)
	p.text = defaultLabelFormat.appendLabel(p.text, &labelValues{box: b})
	if len(p.text) == start {
		return
	}
	text := p.text[start:len(p.text):len(p.text)]
	lw, lh := font.LabelSize(text)
	x, y := labelAt(b, placeAbove, stroke, lw, lh, w, h)
	st := DefaultStyle()
	bg, fg, _ := labelColors(c, &st)
	p.Labels = append(p.Labels, Label{X: x, Y: y, W: lw, H: lh, Text: text, Color: fg, Background: bg})
}

var defaultLabelFormat, _ = parseLabelFormat(DefaultLabelFormat)

// LabelAnchors are the places a label may be asked to sit at (Style.LabelAnchor): "auto"
// (above the box, moved to inside its top, below it or inside its bottom out of other
// labels' way), then the nine places outside the box (above or below it flush with its left,
// centre or right; beside it, centred on its height; centred on it) and the eight inside it.
var LabelAnchors = []string{"auto",
	"top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right",
	"inside-top-left", "inside-top", "inside-top-right", "inside-left", "inside-right",
	"inside-bottom-left", "inside-bottom", "inside-bottom-right"}

// An anchored place (Style.LabelAnchor other than auto) is numPlaces + its anchor's code:
// column and row (0, 1, 2: left or top, centre, right or bottom) and inside.
type anchor struct {
	col, row int
	inside   bool
}

func (a anchor) place() int {
	p := numPlaces + a.row*3 + a.col
	if a.inside {
		p += 9
	}
	return p
}

func anchorOf(place int) anchor {
	a := place - numPlaces
	return anchor{col: a % 3, row: a % 9 / 3, inside: a >= 9}
}

// parseAnchor returns the place of anchor name, -1 for "auto" or "", ok false for a name
// not in LabelAnchors.
func parseAnchor(name string) (place int, ok bool) {
	if name == "" || name == "auto" {
		return -1, true
	}
	if !slices.Contains(LabelAnchors, name) {
		return 0, false
	}
	a := anchor{col: 1, row: 1}
	rest, inside := strings.CutPrefix(name, "inside-")
	a.inside = inside
	v, h, two := strings.Cut(rest, "-")
	if !two {
		v, h = rest, rest
	}
	switch v {
	case "top":
		a.row = 0
	case "bottom":
		a.row = 2
	}
	switch h {
	case "left":
		a.col = 0
	case "right":
		a.col = 2
	}
	return a.place(), true
}

// flips are the places the search tries for an anchored label: the anchor, then mirrored
// top to bottom, left to right, and both (the same place where the anchor is centred).
func flips(place int) [4]int {
	a := anchorOf(place)
	v, h, vh := a, a, a
	v.row, h.col = 2-a.row, 2-a.col
	vh.row, vh.col = v.row, h.col
	return [4]int{place, v.place(), h.place(), vh.place()}
}

// labelPlacer places a builder's labels: the box stroke they sit on, the anchor asked
// (-1: auto) and the offset asked (Style.LabelOffset, in px).
type labelPlacer struct {
	stroke float32
	anchor int
	dx, dy int
}

// at returns the top-left corner of a lw × lh label of box b at place, moved by the offset
// and kept inside a w × h frame. On a place mirrored from the anchor asked, or turned inside
// at the frame's edge, the offset is mirrored too: a gap from the box stays a gap. edge
// reports whether keeping it inside the frame moved it: every place pushed past an edge
// lands on the same line there, so placeLabels keeps such a label apart from the others
// where it is drawn (labelGrid.apart) rather than among its places alone.
func (lp *labelPlacer) at(b *scene.Box, place, lw, lh, w, h int) (x, y int, edge bool) {
	ux, uy := lp.unclamped(b, place, lw, lh, w, h)
	x, y = max(0, min(ux, w-lw)), max(0, min(uy, h-lh))
	return x, y, x != ux || y != uy
}

// unclamped is at's corner before it is kept inside the frame.
func (lp *labelPlacer) unclamped(b *scene.Box, place, lw, lh, w, h int) (x, y int) {
	if place < numPlaces {
		x, y = labelCorner(b, place, lp.stroke, lh)
		return x + lp.dx, y + lp.dy
	}
	a, asked := anchorOf(place), anchorOf(lp.anchor)
	dx, dy := lp.dx, lp.dy
	if a.col != asked.col {
		dx = -dx
	}
	if a.row != asked.row {
		dy = -dy
	}
	half := lp.stroke / 2
	round := func(v float32) int { return int(math.Round(float64(v))) }
	left, right := round(b.X-half), round(b.X+b.W+half) // the outline's outer edges
	top, bottom := round(b.Y-half), round(b.Y+b.H+half)
	inTop, inBottom := round(b.Y+half), round(b.Y+b.H-half) // its inner edges
	x = [3]int{left, (left + right - lw) / 2, right - lw}[a.col]
	y = [3]int{inTop, (top + bottom - lh) / 2, inBottom - lh}[a.row]
	if !a.inside {
		switch {
		case a.row == 0:
			y = top - lh
		case a.row == 2:
			y = bottom
		case a.col == 0:
			x = left - lw
		case a.col == 2:
			x = right
		}
		// Outside, a label that would leave the frame turns inside, as auto's does above.
		outX, outY := x+dx, y+dy
		switch {
		case a.row == 0 && outY < 0:
			y, dy = inTop, -dy
		case a.row == 2 && outY+lh > h:
			y, dy = inBottom-lh, -dy
		case a.row == 1 && a.col == 0 && outX < 0:
			x, dx = left, -dx
		case a.row == 1 && a.col == 2 && outX+lw > w:
			x, dx = right-lw, -dx
		}
	}
	return x + dx, y + dy
}
