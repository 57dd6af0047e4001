package prose

import "testing"

func TestProse(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Plural(0, "frame"), "0 frames"},
		{Plural(1, "frame"), "1 frame"},
		{Plural(3, "box"), "3 boxes"},
		{List(nil, " and "), ""},
		{List([]string{"a"}, " and "), "a"},
		{List([]string{"a", "b"}, " or "), "a or b"},
		{List([]string{"a", "b", "c"}, " and "), "a, b and c"},
		{List([]string{"a, x", "b"}, ", or "), "a, x, or b"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
