package overlay

import "trackink/scene"

// Judgement is what scoring one frame's tracks against ground truth found (trackink render
// --gt), drawn with the frame: the ground-truth boxes as thin dashed outlines under the
// tracks' boxes, neutral where matched and red where missed; a tag beside the label of each
// track box that is an error; and a panel of the counts so far in the top-right corner.
type Judgement struct {
	Truth []TruthBox
	// Tags are the track boxes' tags by track id: TagFP, TagIDSW.
	Tags map[int]string
	// Panel is the counts so far, a line; "" for none.
	Panel string
}

// TruthBox is a ground-truth box of a Judgement.
type TruthBox struct {
	X, Y, W, H float32
	Missed     bool
}

// The tags of a Judgement.
const (
	TagFP   = "FP"   // a false positive
	TagIDSW = "IDSW" // the track took a ground-truth identity over from another: an identity switch
)

// The colours of a judgement: matched ground truth light grey, missed red; a false positive's
// tag white on red, a switch's black on amber.
var (
	truthMatched = RGBA{0.7, 0.7, 0.7, 0.85}
	truthMissed  = RGBA{0.95, 0.1, 0.1, 1}
	tagColors    = map[string][2]RGBA{ // text, background
		TagFP:   {{1, 1, 1, 1}, {0.85, 0.05, 0.05, 1}},
		TagIDSW: {{0, 0, 0, 1}, {1, 0.7, 0.05, 1}},
	}
)

// Judge sets the judgement drawn with the next frame Draw or Advance takes (nil: none); it
// holds for that frame alone.
func (d *Drawer) Judge(j *Judgement) { d.judgement = j }

// truthStroke is the ground-truth outlines' width: thinner than the tracks' boxes, at least
// a pixel.
func truthStroke(s *Style) float32 { return max(1.5, s.BoxStroke*0.6) }

// addTruth adds the judgement's ground-truth boxes, before the tracks' boxes so that these
// lie over them: dashed outlines, no fill.
func (b *Builder) addTruth(p *Primitives) {
	j := b.judgement
	if j == nil {
		return
	}
	w := truthStroke(&b.style)
	dash := DashFor("dashed", w)
	for _, t := range j.Truth {
		c := truthMatched
		if t.Missed {
			c = truthMissed
		}
		p.Boxes = append(p.Boxes, Box{X: t.X, Y: t.Y, W: t.W, H: t.H, Stroke: w, StrokeColor: c, Dash: dash})
	}
}

// addVerdicts adds the judgement's tags once the frame's labels are placed: a tag beside its
// track's label (right of it, or left where the frame ends), or where the label would be for
// a box without one. Its panel is a corner label (prepareCorners), in the top-right corner,
// as the camera look's stamp lies in the top-left.
func (b *Builder) addVerdicts(p *Primitives, f *scene.Frame) {
	j := b.judgement
	b.judgement = nil
	if j == nil {
		return
	}
	if len(j.Tags) > 0 {
		for i := range f.Boxes {
			bx := &f.Boxes[i]
			tag, ok := j.Tags[bx.ID]
			if !ok || bx.ID == scene.NoID || offFrame(bx, b.w, b.h) {
				continue
			}
			start := len(p.text)
			p.text = append(p.text, tag...)
			text := p.text[start:len(p.text):len(p.text)]
			tw, th := b.font.LabelSize(text)
			var x, y int
			if li, ok := b.labelOf(bx.ID); ok {
				l := p.Labels[li]
				gap := max(1, th/8)
				x, y = l.X+l.W+gap, l.Y
				if x+tw > b.w {
					x = l.X - gap - tw
				}
				x = max(0, min(x, b.w-tw))
			} else {
				x, y = labelAt(bx, placeAbove, b.style.BoxStroke, tw, th, b.w, b.h)
			}
			c := tagColors[tag]
			p.Labels = append(p.Labels, Label{X: x, Y: y, W: tw, H: th, Text: text, Color: c[0], Background: c[1]})
		}
	}
}

// labelOf is the index in the frame's labels of track id's label, if it has one: a search
// of the frame's few labels for each of its fewer tags, where a map made a frame allocated.
func (b *Builder) labelOf(id int) (int, bool) {
	for _, pl := range b.pending {
		if pl.box.ID == id {
			return pl.label, true
		}
	}
	return 0, false
}
