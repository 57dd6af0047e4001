package overlay

import (
	"unicode/utf8"

	"trackink/internal/field"
	"trackink/scene"
	"trackink/sdf"
)

// Text on tracks (the pack's text nodes), beyond the label template's fields of labels.go:
//
//   - {speed}: px the box's centre moved since the frame before (a track's first frame,
//     or one after a gap, has none);
//   - {line}: a line of LabelLines (a text file: the pack's "code lines"), each track
//     starting at a line picked by a hash of its id and scrolling on to the next every
//     LabelLineFrames frames of its age;
//   - ClassLabels: a template per class, over LabelFormat for boxes of that class;
//   - LabelReveal: the typewriter reveal, LabelReveal characters a frame from the track's
//     first frame (and again from each change of its {line}), with a "_" cursor while it
//     types; set the labels in Go Mono (Style.Font "Go Mono") for a terminal's fixed width.
//     A typing label is placed by its whole text's width (revealWidth), so it types in place.
//
// All of it follows from the frame, the track's age and the centre the frame before, so a
// segment's replayed frames make it the whole render's.

// textOf is the Builder's state and formats for the text on tracks.
type textOf struct {
	classFormats map[string]labelFormat
	centre       map[int]trackAt // track id → its box's centre in the frame it was last seen
}

func newTextOf(s *Style) (*textOf, error) {
	t := &textOf{centre: map[int]trackAt{}}
	for class, tmpl := range s.ClassLabels {
		f, err := parseLabelFormat(tmpl)
		if err != nil {
			return nil, err
		}
		if t.classFormats == nil {
			t.classFormats = map[string]labelFormat{}
		}
		t.classFormats[class] = f
	}
	return t, nil
}

// uses reports whether the template shows field fd.
func (f labelFormat) uses(fd labelField) bool {
	for _, w := range f {
		for _, p := range w {
			if p.field == fd && p.text == "" {
				return true
			}
		}
	}
	return false
}

// values sets v's speed and line for box bx in frame index, and moves the track's centre on.
func (t *textOf) values(s *Style, v *labelValues, bx *scene.Box, index int) {
	if bx.ID == scene.NoID {
		return
	}
	cx, cy := bx.X+bx.W/2, bx.Y+bx.H/2
	if prev, ok := t.centre[bx.ID]; ok && prev.frame == index-1 {
		dx, dy := cx-prev.x, cy-prev.y
		v.speed, v.hasSpeed = sdf.Sqrt(dx*dx+dy*dy), true
	}
	t.centre[bx.ID] = trackAt{cx, cy, index}
	if index%64 == 0 {
		for id, at := range t.centre {
			if at.frame < index-2 {
				delete(t.centre, id)
			}
		}
	}
	if n := len(s.LabelLines); n > 0 {
		start := int(particleHash(0, bx.ID, 0, 0) % uint64(n))
		v.line = s.LabelLines[(start+v.age/lineFrames(s))%n]
	}
}

// reveal cuts text to the characters the typewriter has typed by the label's age (frames
// since its track appeared, or, where its template shows {line}, since its line last
// changed), with a cursor while typing.
func reveal(s *Style, text []byte, age int, line bool) []byte {
	if s.LabelReveal <= 0 {
		return text
	}
	since := age
	if line {
		since = age % lineFrames(s)
	}
	n := int(float32(since+1) * s.LabelReveal)
	if n >= utf8.RuneCount(text) {
		return text
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRune(text[i:])
		i += size
	}
	return append(text[:i], '_')
}

// revealWidth is the width of the label text buf[start:] whole, with reveal's cursor,
// before reveal cuts it (0 without LabelReveal), and buf as it was (the cursor is measured
// in its spare room, not kept). A typing label is placed by it: placed by its typed width,
// a label that the frame's right edge or a right or centred anchor holds moved left a
// character's width each frame and the text crawled; by the whole text without the cursor,
// it still moved at the last step in a proportional font ("l_" is wider than "l").
func (b *Builder) revealWidth(buf []byte, start int) (int, []byte) {
	if b.style.LabelReveal <= 0 {
		return 0, buf
	}
	withCursor := append(buf, '_')
	w, _ := b.font.LabelSize(withCursor[start:])
	return w, withCursor[:len(withCursor)-1]
}

// lineFrames is how many frames each {line} shows: LabelLineFrames, 0 for 25.
func lineFrames(s *Style) int {
	if s.LabelLineFrames == 0 {
		return 25
	}
	return s.LabelLineFrames
}

// validateText checks the text-on-tracks settings.
func (s *Style) validateText() error {
	for class, tmpl := range s.ClassLabels {
		if _, err := parseLabelFormat(tmpl); err != nil {
			return field.Errorf("overlay.Style.ClassLabels", class+"="+tmpl, "%v", err)
		}
	}
	switch {
	case !(s.LabelReveal >= 0 && s.LabelReveal <= 1000):
		return field.Errorf("overlay.Style.LabelReveal", s.LabelReveal, "want 0 (off) to 1000 characters a frame")
	case s.LabelLineFrames < 0 || s.LabelLineFrames > 100000:
		return field.Errorf("overlay.Style.LabelLineFrames", s.LabelLineFrames, "want 1 to 100000 frames (0: 25)")
	}
	if s.labelsUse(fieldLine) && len(s.LabelLines) == 0 {
		return field.Errorf("overlay.Style.LabelLines", nil, "a label template uses {line}: give the lines")
	}
	if s.labelsUse(fieldWord) && len(s.LabelWords) == 0 {
		return field.Errorf("overlay.Style.LabelWords", nil, "a label template uses {word}: give the words")
	}
	return nil
}

// LabelsShow reports whether the labels drawn show the field of that name ("line" for
// {line}): labels are on, and the label format or a class's template uses it.
func (s *Style) LabelsShow(name string) bool {
	fd, ok := labelFields[name]
	return ok && s.Labels && s.labelsUse(fd)
}

// labelsUse reports whether the label format or a class's template shows field fd.
func (s *Style) labelsUse(fd labelField) bool {
	if f, err := parseLabelFormat(s.LabelFormat); err == nil && f.uses(fd) {
		return true
	}
	for _, tmpl := range s.ClassLabels {
		if f, err := parseLabelFormat(tmpl); err == nil && f.uses(fd) {
			return true
		}
	}
	return false
}
