package suggest

import "testing"

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"render", "render", 0}, {"rendr", "render", 1}, {"trakcs", "tracks", 1}, {"colour-by", "color-by", 1}, {"kitten", "sitting", 3}} {
		if d := editDistance(tc.a, tc.b); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

func TestClosest(t *testing.T) {
	looks := []string{"blob", "cctv", "clean", "default", "hud", "neon", "plexus"}
	for _, tc := range []struct{ typed, want string }{
		{"plexis", "plexus"},
		{"HUD", "hud"}, // once nothing: a case-only difference counted as no typo
		{"Neon", "neon"},
		{"hud", ""}, // the name itself is no typo
		{"bold", ""},
		{"", ""},
	} {
		if got := Closest(tc.typed, looks); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}
