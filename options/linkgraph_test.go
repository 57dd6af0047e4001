package options

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/knn"
)

// linkOptions returns the link options render's style flags make of args: the look, the
// style file and the flags.
func linkOptions(args ...string) (knn.Options, error) {
	var s Style
	fs := NewFlagSet("render", "", "", io.Discard)
	s.Register(fs, "knn", "default")
	if err := Parse(fs, args); err != nil {
		return knn.Options{}, err
	}
	o, err := s.Options(fs, false)
	return o.Links, err
}

// TestLinksFlag: --links picks the graph from the command line or a style file (the command
// line winning), and a wrong graph, or radius without its radius, is a usage error naming
// the flag.
func TestLinksFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("links = \"mst\"\nmax-degree = 2\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--links", "delaunay"}, knn.GraphDelaunay},
		{[]string{"--links", "radius", "--max-dist", "300"}, knn.GraphRadius},
		{[]string{"--style", file}, knn.GraphMST},
		{[]string{"--style", file, "--links", "knn"}, knn.GraphKNN},
	} {
		o, err := linkOptions(tc.args...)
		if err != nil || o.Graph != tc.want {
			t.Errorf("%v: graph %q (%v), want %q", tc.args, o.Graph, err, tc.want)
		}
	}
	for _, tc := range []struct {
		args      []string
		flag, msg string
	}{
		{[]string{"--links", "voronoi"}, "--links", `"voronoi": want knn, radius, delaunay, mst`},
		{[]string{"--links", "radius"}, "--max-dist", "--max-dist 0: the radius graph links every pair within it"},
	} {
		_, err := linkOptions(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.msg)
		}
		if _, usage := err.(UsageError); !usage && err != nil && !strings.Contains(err.Error(), "invalid argument") {
			t.Errorf("%v: %T is not a usage error", tc.args, err)
		}
	}
}

// TestLinkCapFlags: --max-links-per-point and --max-links-per-frame default to knn's caps,
// and are set from the command line or a style file (TestLinkCapErrors has their bad
// values).
func TestLinkCapFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("max-links-per-point = 12\n"), 0o644)
	for _, tc := range []struct {
		args             []string
		perPoint, perFrm int
	}{
		{nil, knn.DefaultMaxLinksPerPoint, knn.DefaultMaxLinks},
		{[]string{"--max-links-per-point", "8", "--max-links-per-frame", "500"}, 8, 500},
		{[]string{"--style", file}, 12, knn.DefaultMaxLinks},
		{[]string{"--style", file, "--max-links-per-point", "3", "--k", "3"}, 3, knn.DefaultMaxLinks},
	} {
		o, err := linkOptions(tc.args...)
		if err != nil || o.MaxLinksPerPoint != tc.perPoint || o.MaxLinks != tc.perFrm {
			t.Errorf("%v: caps %d, %d (%v), want %d, %d", tc.args, o.MaxLinksPerPoint, o.MaxLinks, err, tc.perPoint, tc.perFrm)
		}
	}
}
