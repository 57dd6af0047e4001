package overlay

import (
	"testing"

	"trackink/scene"
)

// TestLabelCoordinatesKeepTheirWidth: {x} {y} {w} {h} are zero-padded to the frame's digits,
// so a label's text has the same width wherever its box is (the blob look's labels).
func TestLabelCoordinatesKeepTheirWidth(t *testing.T) {
	f, err := parseLabelFormat("x{x} y{y} {w}x{h:.1f} c{cx},{cy:.1f}")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		box    scene.Box
		digits int
		want   string
	}{
		{scene.Box{X: 7, Y: 1079.6, W: 30, H: 60.25}, 4, "x0007 y1080 0030x0060.2 c0022,1109.7"},
		{scene.Box{X: -3.4, Y: 12, W: 1920, H: 5}, 4, "x-0003 y0012 1920x0005.0 c0957,0014.5"},
		{scene.Box{X: 12345, Y: 0, W: 1, H: 1}, 4, "x12345 y0000 0001x0001.0 c12346,0000.5"},
		{scene.Box{X: 7, Y: 8, W: 9, H: 10}, 0, "x7 y8 9x10.0 c12,13.0"},
	} {
		v := labelValues{box: &tc.box, digits: tc.digits}
		if got := string(f.appendLabel(nil, &v)); got != tc.want {
			t.Errorf("%+v with %d digits: %q, want %q", tc.box, tc.digits, got, tc.want)
		}
	}
	if d := digitsFor(3840, 2160); d != 4 {
		t.Errorf("digitsFor(3840, 2160) = %d, want 4", d)
	}
}

// TestLabelHex: {hex} is six hex digits per track, the same in every frame, different for
// different tracks, and missing for untracked boxes.
func TestLabelHex(t *testing.T) {
	f, err := parseLabelFormat("{hex} #{id}")
	if err != nil {
		t.Fatal(err)
	}
	label := func(id int) string {
		b := scene.Box{ID: id}
		return string(f.appendLabel(nil, &labelValues{box: &b}))
	}
	seen := map[string]int{}
	for id := range 1000 {
		s := label(id)
		if len(s) < 7 || s != label(id) {
			t.Fatalf("id %d: %q, then %q", id, s, label(id))
		}
		for _, c := range s[:6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				t.Fatalf("id %d: %q is not hex", id, s[:6])
			}
		}
		if other, ok := seen[s[:6]]; ok {
			t.Errorf("ids %d and %d share %q", other, id, s[:6])
		}
		seen[s[:6]] = id
	}
	if s := label(scene.NoID); s != "" {
		t.Errorf("untracked: %q, want nothing", s)
	}
}

// TestLabelFieldNamesAreEveryField: the names --label's help lists are the template's
// fields, each once (the help once left out {hex}, {speed} and {line}).
func TestLabelFieldNamesAreEveryField(t *testing.T) {
	names := LabelFieldNames()
	if len(names) != len(labelFields) {
		t.Fatalf("%d names for %d fields", len(names), len(labelFields))
	}
	seen := map[labelField]bool{}
	for _, name := range names {
		f, err := parseLabelFormat(name)
		if err != nil || len(f) != 1 || len(f[0]) != 1 || f[0][0].field == fieldText {
			t.Errorf("%s is not one field: %v, %+v", name, err, f)
			continue
		}
		if seen[f[0][0].field] {
			t.Errorf("%s listed twice", name)
		}
		seen[f[0][0].field] = true
	}
}
