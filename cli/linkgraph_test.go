package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/knn"
	"trackink/overlay"
)

// TestLinksFlag: --links picks the graph from the command line or a style file (the command
// line winning), and a wrong graph, or radius without its radius, is a usage error naming
// the flag.
func TestLinksFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	options := func(args ...string) (overlay.Options, error) {
		var s styleFlags
		fs := newFlagSet("render", "", "", io.Discard)
		s.register(fs, "knn", "default")
		if err := parse(fs, args); err != nil {
			return overlay.Options{}, err
		}
		return s.options(fs, false)
	}
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
		o, err := options(tc.args...)
		if err != nil || o.Links.Graph != tc.want {
			t.Errorf("%v: graph %q (%v), want %q", tc.args, o.Links.Graph, err, tc.want)
		}
	}
	for _, tc := range []struct {
		args      []string
		flag, msg string
	}{
		{[]string{"--links", "voronoi"}, "--links", `"voronoi": want knn, radius, delaunay, mst`},
		{[]string{"--links", "radius"}, "--max-dist", "--max-dist 0: the radius graph links every pair within it"},
	} {
		_, err := options(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.msg)
		}
		if _, usage := err.(usageError); !usage && err != nil && !strings.Contains(err.Error(), "invalid argument") {
			t.Errorf("%v: %T is not a usage error", tc.args, err)
		}
	}
}
