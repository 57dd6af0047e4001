// Package docs_test checks the user documentation as a reader meets it: the README stays
// short, every relative link and picture in README.md, CONTRIBUTING.md and docs/ leads to a
// file of the repository (and a heading, where it names one), nothing points outside the
// repository, and every built-in look has its picture, made by `make gallery`, in the
// README's gallery.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"trackink/overlay"
)

// maxREADMELines is the README's bound: the README is what a newcomer reads from the top;
// everything else belongs in docs/.
const maxREADMELines = 250

// pages lists the Markdown files a reader follows links through, relative to the root.
func pages(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, pattern := range []string{"docs/*.md", "docs/*/*.md"} {
		m, err := filepath.Glob(filepath.Join("..", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, err := filepath.Rel("..", f)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, rel)
		}
	}
	return files
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fence   = regexp.MustCompile("(?s)```.*?```")
	heading = regexp.MustCompile(`(?m)^#+ (.*)$`)
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// slug is the anchor GitHub gives a heading: lower case, letters, digits, '-' and '_'
// kept, spaces turned into '-', everything else dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Partial files: nothing lost on failure", "partial-files-nothing-lost-on-failure"},
		{"Links: `--k`, `--link-style`, `--line-width`", "links---k---link-style---line-width"},
		{"What trackink understood: `trackink tracks`", "what-trackink-understood-trackink-tracks"},
		{"10-bit video", "10-bit-video"},
	} {
		if got := slug(c.heading); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

func TestREADMEIsShort(t *testing.T) {
	if n := strings.Count(read(t, "README.md"), "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines; keep it to %d and move the rest into docs/", n, maxREADMELines)
	}
}

func TestLinksResolve(t *testing.T) {
	files := pages(t)
	anchors := map[string]map[string]bool{}
	for _, f := range files {
		anchors[f] = map[string]bool{}
		for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(read(t, f), ""), -1) {
			anchors[f][slug(m[1])] = true
		}
	}
	for _, f := range files {
		text := fence.ReplaceAllString(read(t, f), "")
		if strings.Contains(text, "../shared") {
			t.Errorf("%s refers to ../shared, outside the repository", f)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			url := m[1]
			if strings.Contains(url, "://") || strings.HasPrefix(url, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(url, "#")
			target := f
			if path != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(f), path))
			}
			if target == ".." || strings.HasPrefix(target, "../") || filepath.IsAbs(target) {
				t.Errorf("%s: link %s leaves the repository", f, url)
				continue
			}
			if _, err := os.Stat(filepath.Join("..", target)); err != nil {
				t.Errorf("%s: link %s: %s does not exist", f, url, target)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") {
				if a, ok := anchors[target]; ok && !a[frag] {
					t.Errorf("%s: link %s: %s has no heading #%s", f, url, target, frag)
				}
			}
		}
	}
}

// Every look the binary offers has its picture in docs/img and in the README's gallery:
// a look added without `make gallery` fails here.
func TestEveryLookInTheGallery(t *testing.T) {
	readme := read(t, "README.md")
	looks := read(t, "docs/looks.md")
	names, _ := overlay.PresetNames()
	for _, name := range names {
		pic := "img/look-" + name + ".webp"
		if _, err := os.Stat(filepath.Join("..", "docs", pic)); err != nil {
			t.Errorf("look %s has no picture docs/%s: run make gallery", name, pic)
		}
		if !strings.Contains(readme, "](docs/"+pic+")") || !strings.Contains(looks, "]("+pic+")") {
			t.Errorf("look %s is not in the galleries of README.md and docs/looks.md: run make gallery", name)
		}
	}
}
