package cli

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/video"
)

// render --layer-only writes the overlay alone into each format, and refuses, before any
// work, what needs the picture or is no layer, naming the flag; usage mistakes exit 2.
func TestRenderLayerOnly(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mp4")
	if err := video.Synthesize(in, 320, 240, 10, 10); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"prores", []string{"-o", "l.mov"}, 0, "ProRes 4444 with alpha"},
		{"png", []string{"-o", "l_%04d.png"}, 0, "PNG RGBA"},
		{"qtrle", []string{"-o", "q.mov", "--encoder", "qtrle"}, 0, "QuickTime Animation"},
		{"effect", []string{"-o", "e.mov", "--box-effect", "blur"}, 2, "--box-effect blur"},
		{"look effect", []string{"-o", "e.mov", "--look", "blob"}, 2, "--box-effect invert"},
		{"blend", []string{"-o", "e.mov", "--blend", "add"}, 2, "blend mode to Add"},
		{"blend lighten", []string{"-o", "e.mov", "--blend", "lighten"}, 2, "blend mode to Lighter Color"},
		{"camera", []string{"-o", "e.mov", "--look", "cctv"}, 2, "the camera look"},
		{"mp4", []string{"-o", "e.mp4"}, 2, ".webm (VP9)"},
		{"one frame's", []string{"-o", "f.png", "--frame", "3"}, 0, ""},
		{"one frame's, no alpha", []string{"-o", "f.jpg", "--frame", "3"}, 2, "a layer needs an alpha channel, which JPG has not"},
		{"one picture, no frame", []string{"-o", "g.png"}, 2, "one frame's layer: give --frame N (every frame's: -o name_%05d.png)"},
		{"segment", []string{"-o", "segs", "--segment", "0/2"}, 2, "a layer is rendered whole"},
		{"detect", []string{"-o", "d.mov", "--detect", "motion"}, 2, "track first (trackink track"},
		// The encoding flags a format does not take, each named as given (a bitrate was named
		// as "--crf 0", --crf 0 as --lossless), VP9's scale checked before any work.
		{"vp9 crf past its scale", []string{"-o", "v.webm", "--crf", "70"}, 2, "--crf 70: is outside 1..63, VP9's quality scale"},
		{"vp9 crf 0", []string{"-o", "v.webm", "--crf", "0"}, 2, "--crf 0: lossless coding is libx264's and libx265's"},
		{"prores bitrate", []string{"-o", "b.mov", "--bitrate", "100000"}, 2, "--bitrate 100000: prores_ks codes at its own quality"},
		{"png crf", []string{"-o", "c_%04d.png", "--crf", "20"}, 2, "--crf 20: png codes at its own quality"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"render", "-i", in, "--layer-only"}, tc.args...)
			if !slices.Contains(args, "--detect") {
				args = append(args, "--scene", "seed")
			}
			for i, a := range args {
				if i > 0 && args[i-1] == "-o" {
					args[i] = filepath.Join(dir, a)
				}
			}
			code, _, stderr := trackink(args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d, saying %q:\n%s", code, tc.code, tc.want, stderr)
			}
		})
	}
	if code, _, stderr := trackink("render", "--layer-only", "--scene", "seed", "--width", "96", "--height", "64", "-o", filepath.Join(dir, "s.png")); code != 2 ||
		!strings.Contains(stderr, "--layer-only writes a video's overlay: give -i VIDEO") {
		t.Errorf("a layer without a video: exit %d, %q; want 2", code, stderr)
	}
}

// render --layer-only --frame N -o NAME.png writes frame N's layer alone: the same pixels,
// alpha and all, as the layer render's picture of that frame (its history replayed), where
// it was refused as no layer.
func TestRenderLayerOneFrame(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mp4")
	if err := video.Synthesize(in, 320, 240, 10, 10); err != nil {
		t.Fatal(err)
	}
	// Fading boxes and trails: the frame depends on those before it.
	look := []string{"--scene", "seed", "--trail", "5", "--fade", "4"}
	if code, _, stderr := trackink(append([]string{"render", "-i", in, "--layer-only", "-o", filepath.Join(dir, "l_%04d.png")}, look...)...); code != 0 {
		t.Fatalf("the layer render: exit %d: %s", code, stderr)
	}
	one := filepath.Join(dir, "f.png")
	if code, _, stderr := trackink(append([]string{"render", "-i", in, "--layer-only", "--frame", "6", "-o", one}, look...)...); code != 0 {
		t.Fatalf("frame 6's layer: exit %d: %s", code, stderr)
	}
	got, want := readRGBA(t, one), readRGBA(t, filepath.Join(dir, "l_0006.png"))
	if !got.Bounds().Eq(want.Bounds()) || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("frame 6's layer differs from the layer render's picture of it")
	}
	if transparent := slices.IndexFunc(got.Pix, func(b byte) bool { return b != 0 }); transparent < 0 {
		t.Errorf("frame 6's layer is empty")
	}
}

// A layer drawn on the frame as stored (--orientation stored) of a video shown turned lies
// turned over it: a still or a container that cannot say so is warned of (it was written
// without a word); a QuickTime layer carries the turn, and the upright layer needs none.
func TestRenderLayerOfATurnedVideo(t *testing.T) {
	dir := t.TempDir()
	_, rotated := rotatedClip(t, dir)
	for _, tc := range []struct {
		args   []string
		warned bool
	}{
		{[]string{"--frame", "2", "-o", filepath.Join(dir, "f.png")}, true},
		{[]string{"-o", filepath.Join(dir, "l.webm")}, true},
		{[]string{"-o", filepath.Join(dir, "l.mov")}, false},
	} {
		for _, orientation := range []string{"stored", "display"} {
			args := append([]string{"render", "-i", rotated, "--scene", "seed", "--layer-only", "-y", "--orientation", orientation}, tc.args...)
			code, _, stderr := trackink(args...)
			want := tc.warned && orientation == "stored"
			if code != 0 || strings.Contains(stderr, "cannot say so") != want {
				t.Errorf("%v: exit %d, %q; want 0, warned of the turn %v", args, code, stderr, want)
			}
		}
	}
}
