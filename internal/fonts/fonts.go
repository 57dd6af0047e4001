// Package fonts names the font files of Debian packages that trackink's tests and golden
// scenes set labels in (scripts/setup.sh --test installs the packages), so that a machine without
// one is told which package to install.
package fonts

import (
	"fmt"
	"os"
	"path/filepath"
)

// DirVar names a directory searched for the files before their packages' places: the GPU
// kit and the portable build's test carry the two files there, for machines that have not
// installed the packages.
const DirVar = "TRACKINK_FONTS"

// File is a font file: where its Debian package installs it, and the package.
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

// Find returns where f's file is: in $TRACKINK_FONTS when that holds it, else where its
// package puts it; an error naming the package to install when it is in neither.
func (f File) Find() (string, error) {
	if dir := os.Getenv(DirVar); dir != "" {
		p := filepath.Join(dir, filepath.Base(f.Path))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if _, err := os.Stat(f.Path); err != nil {
		return "", fmt.Errorf("font %s is missing: install Debian's %s (apt-get install %s, or scripts/setup.sh --test), or put %s in $%s",
			f.Path, f.Package, f.Package, filepath.Base(f.Path), DirVar)
	}
	return f.Path, nil
}

// TB is the part of testing.TB that Need uses (this package is linked into the program,
// which should not carry the testing package).
type TB interface {
	Helper()
	Fatal(args ...any)
}

// Need returns f's path, failing tb when the file is missing.
func (f File) Need(tb TB) string {
	tb.Helper()
	p, err := f.Find()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
