package video

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A numbered picture sequence with a picture missing before others is refused at the open,
// naming the missing picture and the ones after it: FFmpeg's image2 stops at the first gap
// (or, where its probe for the last number jumped the gap, fails there with "Input/output
// error"), and a render made a video of the pictures before it, exit 0, without a word.
// Pictures another pattern names (another width) are no gap.
func TestSequenceGap(t *testing.T) {
	one := filepath.Join(t.TempDir(), "one.png")
	makeSource(t, "-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", "-y", one)
	png, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, pattern string
		pictures      []string
		says          string // "" for none: the sequence opens
	}{
		{"whole", "f_%04d.png", []string{"f_0001.png", "f_0002.png", "f_0003.png"}, ""},
		{"whole from 0", "f_%04d.png", []string{"f_0000.png", "f_0001.png"}, ""},
		{"a gap past image2's probe", "f_%04d.png", []string{"f_0001.png", "f_0002.png", "f_0003.png", "f_0004.png", "f_0005.png", "f_0012.png", "f_0013.png"},
			"f_0006.png is missing, but 2 pictures after it exist (f_0012.png … f_0013.png)"},
		{"a gap image2's probe jumps", "f_%04d.png", []string{"f_0001.png", "f_0002.png", "f_0003.png", "f_0005.png", "f_0006.png"},
			"f_0004.png is missing, but 2 pictures after it exist (f_0005.png … f_0006.png)"},
		{"one picture after the gap", "f_%d.png", []string{"f_2.png", "f_3.png", "f_9.png"}, "f_4.png is missing, but 1 picture after it exists (f_9.png)"},
		{"ordered by number", "f_%d.png", []string{"f_1.png", "f_10.png", "f_9.png"}, "(f_9.png … f_10.png)"},
		{"another width is another sequence", "f_%04d.png", []string{"f_0001.png", "f_0002.png", "f_7.png", "f_00009.png"}, ""},
	} {
		dir := t.TempDir()
		for _, p := range tc.pictures {
			if err := os.WriteFile(filepath.Join(dir, p), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pattern := filepath.Join(dir, tc.pattern)
		s, err := Open(t.Context(), pattern, 0)
		if err == nil {
			s.Close()
		}
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}
