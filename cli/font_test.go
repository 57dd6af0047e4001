package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/internal/fonts"
)

func TestRenderFont(t *testing.T) {
	dejavu := fonts.DejaVuSans.Need(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	writePicture(t, in, 200, 120)
	tracks := func(class string) string {
		p := filepath.Join(dir, class+".jsonl")
		os.WriteFile(p, []byte(`{"frame":1,"boxes":[{"id":3,"x":20,"y":40,"w":120,"h":60,"label":"`+class+`","score":0.9}]}`+"\n"), 0o644)
		return p
	}
	style := filepath.Join(dir, "style.toml")
	os.WriteFile(style, []byte("font = '"+dejavu+"'\nlabel-size = 18\n"), 0o644)
	for _, tc := range []struct {
		name    string
		args    []string
		warning string // "" for none
	}{
		{"go medium lacks cjk", []string{"--tracks", tracks("行人")}, "Go Medium, the built-in font, lacks, drawn as hollow boxes: U+884C 行 U+4EBA 人"},
		{"dejavu has arabic", []string{"--tracks", tracks("سيارة"), "--font", dejavu, "--label-size", "18"}, ""},
		{"style file", []string{"--tracks", tracks("سيارة"), "--style", style}, ""},
		{"dejavu lacks cjk", []string{"--tracks", tracks("行人"), "--font", dejavu}, "neither " + dejavu + " nor Go Medium has"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".png")
			code, _, stderr := trackink(append([]string{"render", "-i", in, "--frame", "1", "-o", out}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tc.warning == "" && strings.Contains(stderr, "warning") || !strings.Contains(stderr, tc.warning) {
				t.Errorf("stderr %q, want a warning saying %q", stderr, tc.warning)
			}
		})
	}
	a, _ := os.ReadFile(filepath.Join(dir, "dejavu-has-arabic.png"))
	b, _ := os.ReadFile(filepath.Join(dir, "style-file.png"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the style file's font key draws otherwise than --font")
	}
}
