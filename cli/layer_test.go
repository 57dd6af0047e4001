package cli

import (
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
		{"still", []string{"-o", "e.png"}, 2, "--layer-only writes a video's overlay"},
		{"segment", []string{"-o", "segs", "--segment", "0/2"}, 2, "a layer is rendered whole"},
		{"detect", []string{"-o", "d.mov", "--detect", "motion"}, 2, "track first (trackink track"},
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
}
