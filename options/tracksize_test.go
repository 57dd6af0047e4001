package options

import (
	"fmt"
	"strings"
	"testing"
	"trackink/scene"
)

// TestSizeHint: tracks made at another size than the picture's are named with their reach
// and the size they were likely made at, one of the picture's aspect ratio (following the
// hint keeps the boxes' shape): vtest.avi's 768×576 tracks scaled by 1.5 were once said made
// at 1280×720, 16:9. A size of another aspect is named only when none of the picture's holds
// them, saying so. Tracks of the picture's size whose boxes run a little past its edges
// (people walking out of the picture) are no misfit. On a picture shown turned a quarter
// from the frame as stored, tracks that fit the stored frame were made on it: the hint is
// --orientation stored (--tracks-size would put the boxes on nothing).
func TestSizeHint(t *testing.T) {
	// rows are 20 boxes 60×150 spread evenly from the origin to (right, bottom), their far
	// edges: the tracks' reach.
	rows := func(right, bottom int) []string {
		var r []string
		for i := range 20 {
			r = append(r, fmt.Sprintf("1,%d,%d,%d,60,150,1,-1,-1,-1", i+1, (right-60)*i/19, (bottom-150)*i/19))
		}
		return r
	}
	var fits []string
	for i := range 20 {
		fits = append(fits, fmt.Sprintf("1,%d,%d,300,60,150,1,-1,-1,-1", i+1, 60*i))
	}
	fits = append(fits, "2,1,1250,650,60,150,1,-1,-1,-1") // runs 40 px past the right, 80 below
	for _, tc := range []struct {
		name   string
		rows   []string
		w, h   int
		turned bool   // the picture is the frame stored h × w, shown turned a quarter
		want   string // in the hint; "" for none
		wrong  string // never in it
	}{
		{"1080p on 720p", rows(1922, 1082), 1280, 720, false,
			"tracks reach 1922×1082, past the 1280×720 picture (7 of 20 boxes centred outside it): made at 1920×1080? --tracks-size 1920x1080 scales them", ""},
		// People walk in the lower half of vtest.avi: the reach's height says little.
		{"vtest.avi's tracks scaled by 1.5", rows(1150, 594), 768, 576, false,
			"made at 1152×864? --tracks-size 1152x864", "1280"},
		{"4:3 at twice the size", rows(1270, 900), 640, 480, false, "made at 1280×960?", "720"},
		{"a 4K proxy", rows(3830, 2100), 640, 360, false, "made at 3840×2160?", ""},
		{"no size of the picture's aspect holds them", rows(3800, 2100), 200, 150, false,
			"made at 3840×2160 (16:9; no size of the picture's 4:3 holds them, and scaling to this one stretches the boxes)? --tracks-size 3840x2160", ""},
		{"beyond every size", rows(9100, 5000), 1280, 720, false,
			"): --tracks-size WxH, the size they were made at, scales them", "made at 7680"},
		{"fits", fits, 1280, 720, false, "", ""},
		// vtest.avi's tracks on the frame stored 768×576 and shown 576×768.
		{"made on the frame as stored", rows(766, 570), 576, 768, true,
			"tracks reach 766×570, past the 576×768 picture (5 of 20 boxes centred outside it): made on the frame as stored, 768×576, before the video's quarter turn? render them with --orientation stored", "--tracks-size"},
		{"the same, the picture not turned", rows(766, 570), 576, 768, false, "--tracks-size", "stored"},
		{"turned, made at another size", rows(1150, 594), 576, 768, true, "--tracks-size", "stored"},
	} {
		hint := sizeHint(motTracks(t, tc.rows), tc.w, tc.h, tc.turned)
		if tc.want == "" && hint != "" || !strings.Contains(hint, tc.want) || tc.wrong != "" && strings.Contains(hint, tc.wrong) {
			t.Errorf("%s: hint %q, want %q in it", tc.name, hint, tc.want)
		}
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
