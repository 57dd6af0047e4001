package job

import (
	"strings"
	"testing"

	"trackink/scene"
)

// MOTChallenge text has no class column: writing several classes to it says so, and how to
// keep them; one class (--detect people) is what the file is of, and nothing is said.
func TestLiveSaysClassesLost(t *testing.T) {
	box := func(class string) scene.Box { return scene.Box{ID: 1, X: 1, Y: 1, W: 5, H: 9, Class: class} }
	for _, tc := range []struct {
		classes []string
		note    bool
	}{
		{[]string{"person", "person"}, false},
		{[]string{"person", "car"}, true},
	} {
		l := &Live{}
		for i, c := range tc.classes {
			if err := l.add(&scene.Frame{Index: i + 1, Boxes: []scene.Box{box(c)}}); err != nil {
				t.Fatal(err)
			}
		}
		var out strings.Builder
		if err := l.Write(&out, scene.FormatMOT); err != nil {
			t.Fatal(err)
		}
		if got := len(l.lost) == 1 && strings.Contains(l.lost[0], ".jsonl"); got != tc.note {
			t.Errorf("classes %v: notes %q, want a note: %v", tc.classes, l.lost, tc.note)
		}
	}
}
