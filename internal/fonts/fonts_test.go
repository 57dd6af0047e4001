package fonts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	carried := t.TempDir()
	if err := os.WriteFile(filepath.Join(carried, "Here.ttf"), []byte("font"), 0o644); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(t.TempDir(), "Installed.ttf")
	if err := os.WriteFile(installed, []byte("font"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir string
		file      File
		want      string // the path found, or what the error says
		ok        bool
	}{
		{"carried in the directory", carried, File{"/nowhere/Here.ttf", "fonts-here"}, filepath.Join(carried, "Here.ttf"), true},
		{"installed, not carried", carried, File{installed, "fonts-installed"}, installed, true},
		{"installed, no directory", "", File{installed, "fonts-installed"}, installed, true},
		{"neither", carried, File{"/nowhere/Gone.ttf", "fonts-gone"}, "apt-get install fonts-gone", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(DirVar, tc.dir)
			got, err := tc.file.Find()
			switch {
			case tc.ok && (err != nil || got != tc.want):
				t.Errorf("Find() = %q, %v; want %q", got, err, tc.want)
			case !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), DirVar)):
				t.Errorf("Find() = %q, %v; want an error saying %q and naming $%s", got, err, tc.want, DirVar)
			}
		})
	}
}
