package options

import (
	"os"
	"path/filepath"
	"testing"

	"trackink/overlay"
)

// TestGlowFlags: --glow, --glow-opacity and --link-color gradient from a style file and the
// command line reach the style, and the neon and plexus looks glow. (Their bad values are
// TestDrawFlags'.)
func TestGlowFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	os.WriteFile(file, []byte("glow = 6\nglow-opacity = 0.25\nlink-color = \"gradient\"\n"), 0o644)
	st, err := styleOptions("--style", file)
	if err != nil || st.Glow != 6 || st.GlowOpacity != 0.25 || !st.LinkGradient || st.LinkColor.Set {
		t.Errorf("from a file: %v, glow %g opacity %g gradient %v", err, st.Glow, st.GlowOpacity, st.LinkGradient)
	}
	st, err = styleOptions("--style", file, "--glow", "0", "--link-color", "#ff8800")
	if err != nil || st.Glow != 0 || st.LinkGradient || !st.LinkColor.Set {
		t.Errorf("the command line over the file: %v, glow %g gradient %v colour %v", err, st.Glow, st.LinkGradient, st.LinkColor)
	}
	if st, err := styleOptions(); err != nil || st.Glow != 0 || st.LinkGradient {
		t.Errorf("the default look: %v, glow %g, gradient %v (want neither)", err, st.Glow, st.LinkGradient)
	}
	for _, look := range []string{"neon", "plexus"} {
		st, err := styleOptions("--look", look)
		if err != nil || st.Glow != overlay.Auto || !(st.GlowOpacity > 0) {
			t.Errorf("--look %s: %v, glow %g opacity %g (want it to glow)", look, err, st.Glow, st.GlowOpacity)
		}
		// Scaled by the height's square root, so that it still reads at 1080 lines.
		if st.ForHeight(2160).Glow != 12 || st.ForHeight(1080).Glow != 8.5 || st.ForHeight(240).Glow != 4 {
			t.Errorf("--look %s: glow %g px at 2160 lines, %g at 1080, %g at 240 (want 12, 8.5, 4)", look,
				st.ForHeight(2160).Glow, st.ForHeight(1080).Glow, st.ForHeight(240).Glow)
		}
	}
}
