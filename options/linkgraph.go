package options

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/knn"
)

// registerLinkGraph adds --links, the link graph, and the caps on links per point and per
// frame: style flags, so style files may set them.
func (s *Style) registerLinkGraph(fs *pflag.FlagSet) {
	fs.Var(choiceValue{&s.Links.Graph, knn.Graphs}, "links",
		"link graph: "+strings.Join(knn.Graphs, ", ")+" (knn: each point's --k nearest; radius: every pair within --max-dist; "+
			"delaunay: the Delaunay triangulation; mst: the minimum spanning tree; all exact, ties by track id, with the caps and --hysteresis)")
	s.Links.MaxLinksPerPoint, s.Links.MaxLinks = knn.DefaultMaxLinksPerPoint, knn.DefaultMaxLinks
	fs.Var(capValue{&s.Links.MaxLinksPerPoint}, "max-links-per-point",
		"at most this many links at a point, its shortest (as --max-degree), so that a frame costs at most points × this; --k and --max-degree may not exceed it")
	fs.Var(capValue{&s.Links.MaxLinks}, "max-links-per-frame",
		"at most this many links in a frame, its shortest")
}

// capValue is a flag that caps a count: a positive whole number, refused otherwise as it is
// parsed, so that no cap can be turned off.
type capValue struct{ n *int }

func (v capValue) String() string {
	if v.n == nil {
		return "0"
	}
	return strconv.Itoa(*v.n)
}

func (v capValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("must be at most %d", math.MaxInt32)
	case err != nil:
		return errors.New("want a whole number of links")
	case n < 1:
		return errors.New("must be at least 1 (a cap cannot be turned off)")
	}
	*v.n = int(n)
	return nil
}

func (capValue) Type() string { return "links" }
