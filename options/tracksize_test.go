package options

import (
	"fmt"
	"strings"
	"testing"
	"trackink/scene"
)

// TestSizeHint: tracks made at 1920×1080 drawn on a 1280×720 video are named with their
// reach and the size they were made at; tracks of the video's size whose boxes run a little
// past its edges (people walking out of the picture) are not.
func TestSizeHint(t *testing.T) {
	var big, fits []string
	for i := range 20 {
		big = append(big, fmt.Sprintf("1,%d,%d,%d,60,150,1,-1,-1,-1", i+1, 90*i+60, 40*i%900))
		fits = append(fits, fmt.Sprintf("1,%d,%d,300,60,150,1,-1,-1,-1", i+1, 60*i))
	}
	big = append(big, "2,1,1862,930,60,152,1,-1,-1,-1")
	fits = append(fits, "2,1,1250,650,60,150,1,-1,-1,-1") // runs 40 px past the right, 80 below
	hint := sizeHint(motTracks(t, big), 1280, 720)
	if !strings.Contains(hint, "tracks reach 1922×1082, past the 1280×720 picture") || !strings.Contains(hint, "made at 1920×1080? --tracks-size 1920x1080") {
		t.Errorf("hint %q", hint)
	}
	if hint := sizeHint(motTracks(t, fits), 1280, 720); hint != "" {
		t.Errorf("tracks that fit: hint %q", hint)
	}
}

// motTracks reads MOTChallenge rows.
func motTracks(t *testing.T, rows []string) *scene.Tracks {
	t.Helper()
	tr, err := scene.Read(strings.NewReader(strings.Join(rows, "\n")+"\n"), "t.txt", scene.FormatAuto, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestParseSize: WxH in its three spellings, and nothing else (768x576junk was once read
// as 768x576).
func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w, h int // 0: refused
	}{
		{"1920x1080", 1920, 1080},
		{"1920X1080", 1920, 1080},
		{"1920×1080", 1920, 1080},
		{"768x576junk", 0, 0},
		{" 768x576", 0, 0},
		{"768x", 0, 0},
		{"x576", 0, 0},
		{"0x576", 0, 0},
		{"768x-576", 0, 0},
		{"768*576", 0, 0},
		{"768x576x2", 0, 0},
		{"", 0, 0},
	} {
		w, h, err := parseSize(tc.in)
		if tc.w == 0 {
			if err == nil {
				t.Errorf("parseSize(%q) = %dx%d, want an error", tc.in, w, h)
			}
			continue
		}
		if err != nil || w != tc.w || h != tc.h {
			t.Errorf("parseSize(%q) = %dx%d, %v; want %dx%d", tc.in, w, h, err, tc.w, tc.h)
		}
	}
}
