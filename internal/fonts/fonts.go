// Package fonts names the font files of Debian packages that trackink's tests and golden
// scenes set labels in (scripts/setup.sh installs the packages), so that a machine without
// one is told which package to install.
package fonts

import (
	"fmt"
	"os"
	"testing"
)

// File is a font file and the Debian package that installs it.
type File struct {
	Path, Package string
}

var (
	// DejaVuSans has Latin, Greek, Cyrillic, Hebrew and Arabic (with Arabic Presentation
	// Forms), and kerning; no CJK.
	DejaVuSans = File{"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "fonts-dejavu-core"}
	// DroidSansFallback has CJK ideographs, kana and Hangul, and no Latin letters.
	DroidSansFallback = File{"/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf", "fonts-droid-fallback"}
)

// Check returns an error naming the package to install when f's file is missing.
func (f File) Check() error {
	if _, err := os.Stat(f.Path); err != nil {
		return fmt.Errorf("font %s is missing: install Debian's %s (apt-get install %s, or scripts/setup.sh)", f.Path, f.Package, f.Package)
	}
	return nil
}

// Need returns f's path, failing tb when the file is missing.
func (f File) Need(tb testing.TB) string {
	tb.Helper()
	if err := f.Check(); err != nil {
		tb.Fatal(err)
	}
	return f.Path
}
