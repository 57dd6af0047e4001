package job

import (
	"bytes"
	"context"
	"errors"
	"image"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/tracker"
	"trackink/video"
)

// previewClip is a synthetic 64×48 clip of frames frames, and a CPU placement to draw on it.
func previewClip(t *testing.T, frames int) (string, Placement) {
	t.Helper()
	clip := filepath.Join(t.TempDir(), "in.mp4")
	if err := video.Synthesize(clip, 64, 48, frames, 10); err != nil {
		t.Fatal(err)
	}
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	return clip, place
}

// previewOptions are the options of a render of tracks onto clip, its warnings appended to
// *warnings.
func previewOptions(clip string, place Placement, style overlay.Style, tracks *scene.Tracks, warnings *[]string) Options {
	return Options{
		Video:   video.Options{Input: clip},
		Overlay: overlay.Options{Style: style, Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}},
		Place:   place,
		Tracks:  Tracks{Load: func(w, h int, _ bool) (*scene.Tracks, error) { return tracks, nil }, Name: "t.txt"},
		Warn:    func(m string) { *warnings = append(*warnings, m) },
	}
}

// The one-frame preview, which the FAQ has users check a render with, warns of what it
// draws as the render does: labels in characters the font lacks, items wholly outside the
// picture (it once said neither).
func TestPreviewSaysWhatItCouldNotDraw(t *testing.T) {
	clip, place := previewClip(t, 3)
	tracks, err := scene.NewTracks([]scene.Frame{{Index: 2, Boxes: []scene.Box{
		{ID: 1, X: 10, Y: 10, W: 20, H: 20, Class: "行人"},
		{ID: 2, X: 500, Y: 10, W: 20, H: 20, Class: "person"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	if _, _, err := Preview(t.Context(), previewOptions(clip, place, overlay.DefaultStyle(), tracks, &warnings), 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"U+884C 行", "1 tracked item in 1 frame lies wholly outside the 64x48 picture (first: frame 2, track 2)"} {
		if !strings.Contains(strings.Join(warnings, "\n"), want) {
			t.Errorf("--frame 2 warned %q, want %q", warnings, want)
		}
	}
	// A character only an earlier frame's label had is not in the picture: frame 3 is
	// drawn after frame 2 is replayed, whose labels are laid out but not shown (the preview
	// once warned of it); one that frame 3 has, and frame 2 too, is.
	for _, tc := range []struct {
		class3 string
		warns  bool
	}{{"person", false}, {"行人", true}} {
		tracks, err := scene.NewTracks([]scene.Frame{
			{Index: 2, Boxes: []scene.Box{{ID: 1, X: 10, Y: 10, W: 20, H: 20, Class: "行人"}}},
			{Index: 3, Boxes: []scene.Box{{ID: 1, X: 12, Y: 10, W: 20, H: 20, Class: tc.class3}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		warnings = nil
		if _, _, err := Preview(t.Context(), previewOptions(clip, place, overlay.DefaultStyle(), tracks, &warnings), 3); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(strings.Join(warnings, "\n"), "U+884C"); got != tc.warns {
			t.Errorf("--frame 3 labelled %q after 行人 in frame 2: warned %q; want a warning of U+884C: %t", tc.class3, warnings, tc.warns)
		}
	}
}

// movingTracks are one box moving right across a 64×48 picture in frames 1 to frames.
func movingTracks(t *testing.T, frames int) *scene.Tracks {
	t.Helper()
	var fs []scene.Frame
	for n := 1; n <= frames; n++ {
		x := float32(2 + 3*n)
		fs = append(fs, scene.Frame{Index: n, Boxes: []scene.Box{{ID: 1, X: x, Y: 14, W: 12, H: 20}}, Points: []scene.Point{{ID: 1, X: x + 6, Y: 34}}})
	}
	tracks, err := scene.NewTracks(fs)
	if err != nil {
		t.Fatal(err)
	}
	return tracks
}

// historyStyle draws what counts on the frames before: trails, ages, typed-in labels.
func historyStyle() overlay.Style {
	st := overlay.DefaultStyle()
	st.Trail, st.LabelFormat, st.LabelReveal = 5, "{id} age {age}", 1
	return st
}

// A picture drawn as frame n (-i f.png --frame n) shows what the render shows on video
// frame n: the trails, the ages and the labels typed in by then (it once drew frame n as
// if it were the first: no trail, a label "1_").
func TestStillDrawsTheRendersFrame(t *testing.T) {
	const n = 8
	tracks := movingTracks(t, 12)
	st := historyStyle()
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	canvas := func() *image.RGBA {
		img, err := LoadCanvas("", 64, 48)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	// The render: every frame up to n drawn in turn, each on its own picture.
	o := overlay.Options{Style: st, Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}, NewBackend: place.New}
	d, err := overlay.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var want *image.RGBA
	for k := 1; k <= n; k++ {
		want = canvas()
		pic := &composite.RGBA{Pix: want.Pix, Stride: want.Stride, W: 64, H: 48}
		if err := d.Draw(pic, tracks.Frame(k, new(scene.Frame))); err != nil {
			t.Fatal(err)
		}
	}
	got := canvas()
	var warnings []string
	if _, err := Still(context.Background(), previewOptions("", place, st, tracks, &warnings), got, n); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("frame %d drawn on a picture differs from the render's frame %d", n, n)
	}
}

// The preview is the frame of the render with the same --start and --end: its history (here
// the trails) begins at --start, as the render's does (it once replayed from frame 1), and a
// frame the render does not draw is refused, naming the flags (it once drew it regardless).
func TestPreviewHonoursTheRange(t *testing.T) {
	clip, place := previewClip(t, 10) // 10 fps: frame k starts at (k-1)/10 s
	tracks := movingTracks(t, 10)
	st := historyStyle()
	preview := func(tracks *scene.Tracks, start, end video.Position, n int) ([]byte, error) {
		var warnings []string
		o := previewOptions(clip, place, st, tracks, &warnings)
		o.Video.Start, o.Video.End = start, end
		pic, _, err := Preview(t.Context(), o, n)
		if err != nil {
			return nil, err
		}
		return pic.Pix, nil
	}
	frame := func(k int) video.Position { return video.Position{Frame: k} }
	at := func(d time.Duration) video.Position { return video.Position{Time: d, IsTime: true} }

	// What a render from frame 6 has seen by frame 8: the tracks from frame 6.
	var from6 []scene.Frame
	for k := 6; k <= 10; k++ {
		from6 = append(from6, *tracks.Frame(k, new(scene.Frame)))
	}
	later, err := scene.NewTracks(from6)
	if err != nil {
		t.Fatal(err)
	}
	want, err := preview(later, video.Position{}, video.Position{}, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []video.Position{frame(6), at(500 * time.Millisecond)} {
		got, err := preview(tracks, start, video.Position{}, 8)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("--start %s --frame 8: the trails are not those of the render from --start", start)
		}
	}

	for _, tc := range []struct {
		start, end video.Position
		n          int
		want       string // in the error; "" for none
	}{
		{frame(3), frame(5), 8, "--frame 8: the render with --start 3 --end 5 draws frames 3 to 5"},
		{frame(9), video.Position{}, 8, "--frame 8: the render with --start 9 draws the frames from 9"},
		{video.Position{}, frame(5), 8, "--end 5 draws frames 1 to 5"},
		{at(time.Second / 10), at(time.Second / 2), 8, "--start 100ms --end 500ms draws frames 2 to 5"},
		{frame(9), video.Position{}, 0, ""}, // no --frame: the render's first
		{frame(3), frame(8), 8, ""},
		{at(time.Second / 10), at(time.Second), 8, ""},
	} {
		_, err := preview(tracks, tc.start, tc.end, tc.n)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("--start %s --end %s --frame %d: %v", tc.start, tc.end, tc.n, err)
		case tc.want != "" && (!errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("--start %s --end %s --frame %d: error %v, want an ErrOption with %q", tc.start, tc.end, tc.n, err, tc.want)
		}
	}
}

// A preview with the built-in tracker that tracked nothing by its frame says why, with no
// file to speak of (it once said "tracks cover frames none: the file is empty").
func TestPreviewOfTheTrackerSaysWhyNothing(t *testing.T) {
	clip, place := previewClip(t, 3)
	o := tracker.DefaultOptions(tracker.Objects)
	o.Detectors = []tracker.Detector{late{new(int)}}
	var warnings []string
	opts := previewOptions(clip, place, overlay.DefaultStyle(), nil, &warnings)
	opts.Tracks = Tracks{Live: NewLive(o, scene.BottomCenter, false, nil)}
	if _, _, err := Preview(t.Context(), opts, 2); err != nil {
		t.Fatal(err)
	}
	want := "nothing is tracked by video frame 2; the detector found 1 box of --start-score 0.6 or more, but none was seen in --confirm 2 frames in a row"
	if len(warnings) != 1 || !strings.Contains(warnings[0], want) || strings.Contains(warnings[0], "file") {
		t.Errorf("--detect --frame 2 warned %q, want one with %q", warnings, want)
	}
}

// The link caps' warning of a preview counts the frame drawn, not the frames replayed before
// it (40 tracks on one spot, within 10 px of each other: 780 pairs a frame; a point keeps 4
// links, the 5 lowest ids their 10 links, and the frame 6 of them).
func TestPreviewLinkCapsCountTheFrameDrawn(t *testing.T) {
	clip, place := previewClip(t, 3)
	var frames []scene.Frame
	for n := 1; n <= 3; n++ {
		f := scene.Frame{Index: n}
		for id := 1; id <= 40; id++ {
			f.Points = append(f.Points, scene.Point{ID: id, X: 20, Y: 20})
		}
		frames = append(frames, f)
	}
	tracks, err := scene.NewTracks(frames)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	o := previewOptions(clip, place, overlay.DefaultStyle(), tracks, &warnings)
	o.Overlay.Links.Graph, o.Overlay.Links.MaxDist, o.Overlay.Links.MaxLinksPerPoint, o.Overlay.Links.MaxLinks = "radius", 10, 4, 6
	if _, _, err := Preview(t.Context(), o, 3); err != nil {
		t.Fatal(err)
	}
	want := "770 links over --max-links-per-point 4 and 4 links over --max-links-per-frame 6 dropped in 1 frame"
	if len(warnings) != 1 || !strings.Contains(warnings[0], want) {
		t.Errorf("--frame 3 warned %q, want %q", warnings, want)
	}
}

// Points alone under a look that draws nothing of points (cctv, clean: boxes and labels)
// draw nothing: said (--detect points --look cctv once drew nothing, exit 0, no word); not
// said where the look draws them or the tracks hold boxes.
func TestSaysPointsAreNotDrawn(t *testing.T) {
	clip, place := previewClip(t, 3)
	points := []scene.Point{{ID: 1, X: 10, Y: 10}, {ID: 2, X: 30, Y: 20}}
	boxes := []scene.Box{{ID: 3, X: 10, Y: 10, W: 20, H: 20}}
	for _, tc := range []struct {
		look  string
		boxes []scene.Box
		warns bool
	}{
		{"cctv", nil, true},
		{"clean", nil, true},
		{"cctv", boxes, false},
		{"hud", nil, false},
	} {
		tracks, err := scene.NewTracks([]scene.Frame{{Index: 2, Points: points, Boxes: tc.boxes}})
		if err != nil {
			t.Fatal(err)
		}
		style, ok := overlay.Preset(tc.look)
		if !ok {
			t.Fatalf("no look %s", tc.look)
		}
		var warnings []string
		if _, _, err := Preview(t.Context(), previewOptions(clip, place, style, tracks, &warnings), 2); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(strings.Join(warnings, "\n"), "the tracks hold points alone (2 points in 1 frame)")
		if said != tc.warns {
			t.Errorf("--look %s, %d boxes: warned %q; want the points said undrawn: %t", tc.look, len(tc.boxes), warnings, tc.warns)
		}
	}
}

// A box effect over points alone changes nothing (there is no box to change the picture
// under): said, with --box-from as the way (a points file with --box-effect gaussian drew
// the same picture as without it, exit 0, no word); not said with --box-from or boxes.
func TestSaysBoxEffectNeedsBoxes(t *testing.T) {
	clip, place := previewClip(t, 3)
	points := []scene.Point{{ID: 1, X: 10, Y: 10}, {ID: 2, X: 30, Y: 20}}
	boxes := []scene.Box{{ID: 3, X: 10, Y: 10, W: 20, H: 20}}
	for _, tc := range []struct {
		effect, boxFrom string
		boxes           []scene.Box
		warns           bool
	}{
		{"gaussian", "", nil, true},
		{"sort", "none", nil, true},
		{"gaussian", "radius", nil, false},
		{"gaussian", "", boxes, false},
		{"", "", nil, false},
	} {
		tracks, err := scene.NewTracks([]scene.Frame{{Index: 2, Points: points, Boxes: tc.boxes}})
		if err != nil {
			t.Fatal(err)
		}
		style := overlay.DefaultStyle()
		style.BoxFrom = tc.boxFrom
		if tc.effect != "" {
			e, err := overlay.ParseEffect(tc.effect)
			if err != nil {
				t.Fatal(err)
			}
			style.BoxEffects = []overlay.Effect{e}
		}
		var warnings []string
		if _, _, err := Preview(t.Context(), previewOptions(clip, place, style, tracks, &warnings), 2); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(strings.Join(warnings, "\n"), "--box-effect changes the picture under boxes: nothing of it is drawn; give --box-from radius")
		if said != tc.warns {
			t.Errorf("--box-effect %q --box-from %q, %d boxes: warned %q; want the effect said undrawn: %t", tc.effect, tc.boxFrom, len(tc.boxes), warnings, tc.warns)
		}
	}
}

// A stop signal ends a picture's replay of the frames before --frame: it once replayed them
// all first (--frame 2147483647: six minutes after SIGTERM). The ctx is done before the
// call, so the replay stops at its first look.
func TestStillStopsWhenCtxEnds(t *testing.T) {
	const n = scene.MaxFrame
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	img, err := LoadCanvas("", 64, 48)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var warnings []string
	rep, err := Still(ctx, previewOptions("", place, historyStyle(), movingTracks(t, 12), &warnings), img, n)
	if !errors.Is(err, context.Canceled) || rep.Replayed >= n-1 {
		t.Errorf("Still with its ctx done: %v, %d frames replayed; want context.Canceled before the %d frames", err, rep.Replayed, n-1)
	}
}
