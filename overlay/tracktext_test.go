package overlay

import (
	"strings"
	"testing"

	"trackink/scene"
)

// TestTextOnTracks builds a track moving 3 px right and 4 px down a frame (5 px a frame)
// for six frames and checks its labels: {speed} from its second frame, {line} scrolling
// every 2 frames from its own first line, the class's template over --label, and the
// typewriter typing 3 characters a frame with a cursor, again from each new line.
func TestTextOnTracks(t *testing.T) {
	st := DefaultStyle()
	st.LabelFormat = "#{id} v{speed:.0f}"
	st.ClassLabels = map[string]string{"bot": "{line}"}
	st.LabelLines, st.LabelLineFrames = []string{"alpha beta", "gamma", "delta"}, 2
	st.PointRadius, st.LineWidth = 0, 0
	for _, c := range []struct {
		class  string
		reveal float32
		want   []string
	}{
		{"", 0, []string{"#5", "#5 v5", "#5 v5", "#5 v5"}},
		{"bot", 0, nil}, // the lines, checked below
		{"", 3, []string{"#5", "#5 v5", "#5 v5", "#5 v5"}},
		{"", 1, []string{"#_", "#5_", "#5 _", "#5 v_"}},
	} {
		st.LabelReveal = c.reveal
		b := newTestBuilder(t, st, 400, 300)
		var got []string
		var p Primitives
		for n := 1; n <= 6; n++ {
			f := scene.Frame{Index: n, Boxes: []scene.Box{{ID: 5, X: 3 * float32(n), Y: 4 * float32(n), W: 50, H: 50, Class: c.class}}}
			b.Build(&p, &f, nil)
			got = append(got, string(p.Labels[0].Text))
		}
		if c.class == "bot" {
			// Lines change every 2 frames of age, from the track's own first line.
			first := got[0]
			if got[1] != first || got[2] == first || got[2] != got[3] || got[4] == got[2] || got[4] == first {
				t.Errorf("{line}: %q: want each line for 2 frames, three lines in turn", got)
			}
			continue
		}
		for i, w := range c.want {
			if got[i] != w {
				t.Errorf("reveal %g: frame %d: %q, want %q", c.reveal, i+1, got[i], w)
			}
		}
	}
	// An untracked box has no first frame to type from: its label shows whole.
	st.LabelFormat, st.LabelReveal = "{class} {score:.2f}", 1
	b0 := newTestBuilder(t, st, 400, 300)
	for n := 1; n <= 3; n++ {
		var p Primitives
		f := scene.Frame{Index: n, Boxes: []scene.Box{{ID: scene.NoID, X: 10, Y: 10, W: 50, H: 50, Class: "car", Score: 0.88, HasScore: true}}}
		b0.Build(&p, &f, nil)
		if len(p.Labels) != 1 || string(p.Labels[0].Text) != "car 0.88" {
			t.Errorf("frame %d, an untracked box: labels %+v, want \"car 0.88\"", n, p.Labels)
		}
	}
	st.LabelFormat = "#{id} v{speed:.0f}"
	// The typewriter restarts with each new line: 3 characters in its first frame.
	st.LabelReveal = 3
	b := newTestBuilder(t, st, 400, 300)
	var p Primitives
	for n := 1; n <= 3; n++ {
		f := scene.Frame{Index: n, Boxes: []scene.Box{{ID: 5, X: 10, Y: 10, W: 50, H: 50, Class: "bot"}}}
		b.Build(&p, &f, nil)
		if n == 3 && len([]rune(string(p.Labels[0].Text))) != 4 {
			t.Errorf("frame 3, a new line: %q, want 3 characters and the cursor", p.Labels[0].Text)
		}
	}
}

// A template that shows {word} or {line}, the label format's or a class's, needs the words or
// the lines; an escaped {{word}} shows the text "{word}" and needs none.
func TestTemplatesNeedTheirWordsAndLines(t *testing.T) {
	for _, c := range []struct {
		name   string
		format string
		class  string // person's template, if any
		words  []string
		lines  []string
		want   string // in the error; "" for none
	}{
		{"{word}", "{word}", "", nil, nil, "give the words"},
		{"{word} with words", "{word}", "", []string{"fox"}, nil, ""},
		{"escaped", "lit {{word}}", "", nil, nil, ""},
		{"a class's {word}", "#{id}", "{word} {id}", nil, nil, "give the words"},
		{"{line}", "{line}", "", nil, nil, "give the lines"},
		{"a class's {line}", "#{id}", "{line}", nil, nil, "give the lines"},
		{"a class's {line} with lines", "#{id}", "{line}", nil, []string{"one"}, ""},
	} {
		st := DefaultStyle()
		st.LabelFormat, st.LabelWords, st.LabelLines = c.format, c.words, c.lines
		if c.class != "" {
			st.ClassLabels = map[string]string{"person": c.class}
		}
		err := st.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestTypingLabelsStayInPlace: a typing label (LabelReveal) is placed by the width of the
// whole text it reveals, so each new character appears in place. Placed by its typed width,
// a label the right edge (or a right or centred anchor) holds moved left by a character
// each frame, and the text crawled.
func TestTypingLabelsStayInPlace(t *testing.T) {
	const w, h = 640, 480
	for _, tc := range []struct {
		name   string
		anchor string
		box    scene.Box
		font   string // "": Go Medium, proportional, where "l_" is wider than "l"
		line   string
	}{
		{"auto, at the right edge", "", scene.Box{ID: 6, X: 560, Y: 200, W: 40, H: 60}, GoMono, "for i := range frames { draw(i) }"},
		{"proportional, narrow last letters, at the right edge", "", scene.Box{ID: 6, X: 560, Y: 200, W: 40, H: 60}, "", "fill il)"},
		{"proportional, narrow last letters, top-right", "top-right", scene.Box{ID: 6, X: 200, Y: 200, W: 40, H: 60}, "", "fill il)"},
		{"top-right", "top-right", scene.Box{ID: 6, X: 200, Y: 200, W: 40, H: 60}, GoMono, "for i := range frames { draw(i) }"},
		{"centre", "centre", scene.Box{ID: 6, X: 200, Y: 200, W: 40, H: 60}, GoMono, "for i := range frames { draw(i) }"},
		{"inside-bottom-right, at the left edge", "inside-bottom-right", scene.Box{ID: 6, X: 0, Y: 200, W: 40, H: 60}, GoMono, "for i := range frames { draw(i) }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := DefaultStyle()
			st.Font, st.LabelFormat, st.LabelAnchor = tc.font, "{hex} {line}", tc.anchor
			st.LabelLines, st.LabelLineFrames, st.LabelReveal = []string{tc.line}, 100, 1
			b := newTestBuilder(t, st, w, h)
			var p Primitives
			var xs []int
			for frame := 1; frame <= 50; frame++ {
				b.Build(&p, &scene.Frame{Index: frame, Boxes: []scene.Box{tc.box}}, nil)
				l := p.Labels[0]
				if l.X < 0 || l.X+l.W > w {
					t.Errorf("frame %d: label %q at x %d..%d leaves the frame", frame, l.Text, l.X, l.X+l.W)
				}
				xs = append(xs, l.X)
			}
			if typed := string(p.Labels[0].Text); strings.HasSuffix(typed, "_") {
				t.Fatalf("still typing after 50 frames: %q", typed)
			}
			for i, x := range xs {
				if x != xs[len(xs)-1] {
					t.Fatalf("label at x %v frame by frame (first differs at frame %d): want it still", xs, i+1)
				}
			}
		})
	}
}
