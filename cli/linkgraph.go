package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"trackink/knn"
)

// registerLinkGraph adds --links, the link graph: a style flag, so style files may set it.
func (s *styleFlags) registerLinkGraph(fs *pflag.FlagSet) {
	fs.Var(choiceValue{&s.links.Graph, knn.Graphs}, "links",
		"link graph: "+strings.Join(knn.Graphs, ", ")+" (knn: each point's --k nearest; radius: every pair within --max-dist; "+
			"delaunay: the Delaunay triangulation; mst: the minimum spanning tree; all exact, ties by track id, with the caps and --hysteresis)")
}
