package options

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// The text-on-tracks flags (overlay/tracktext.go): per-class label templates, the lines of
// {line}, the typewriter reveal; style-file keys too.

// registerTextFlags adds the text-on-tracks flags for style st.
func registerTextFlags(fs *pflag.FlagSet, st *overlay.Style) {
	fs.Var(classLabelValue{&st.ClassLabels}, "class-label", "CLASS=TEMPLATE: boxes of CLASS take this label template instead of --label (the flag again for another class)")
	fs.IntVar(&st.LabelLineFrames, "label-line-frames", st.LabelLineFrames, "frames each {line} shows (0 = 25)")
	fs.Var(choiceValue{&st.LabelAnchor, overlay.LabelAnchors}, "label-anchor", "where a label sits by its box: auto (above, moving out of other labels' way), "+
		"top-left, top, top-right, bottom-left, bottom, bottom-right (on the top or bottom edge, outside, flush with that side), left, right (beside the box), centre, "+
		"or inside-… (inside the box); an anchored label that would cover another is mirrored unless --labels-overlap")
	fs.Var(pairValue{&st.LabelOffset, "dx,dy"}, "label-offset", "move every label this many px (right, down; mirrored where the label is)")
	fs.Float32Var(&st.LabelOutline, "label-outline", st.LabelOutline, fmt.Sprintf("outline label text by this many px, 0..%d, in --label-outline-color, so bare text (--label-opacity 0) reads on any footage (0 = none)", overlay.MaxLabelOutline))
	fs.Float32Var(&st.LabelReveal, "label-reveal", st.LabelReveal, "type labels on, this many characters a frame from the track's first frame (and each new {line}), with a _ cursor (0 = off)")
}

// classLabelValue is --class-label CLASS=TEMPLATE, one class each time it is given. Its
// String is every class's, NUL between them (which no argument can hold), and Set takes that
// back: a look (applyLook) sets again what the command line gave.
type classLabelValue struct{ m *map[string]string }

func (v classLabelValue) String() string {
	if v.m == nil {
		return ""
	}
	var parts []string
	for class, tmpl := range *v.m {
		parts = append(parts, class+"="+tmpl)
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x00")
}

func (v classLabelValue) Set(s string) error {
	m := maps.Clone(*v.m) // a look's map is the look's: never written into
	if m == nil {
		m = map[string]string{}
	}
	for part := range strings.SplitSeq(s, "\x00") {
		class, tmpl, ok := strings.Cut(part, "=")
		if !ok || class == "" {
			return fmt.Errorf("%q: want CLASS=TEMPLATE", part)
		}
		m[class] = tmpl
	}
	*v.m = m
	return nil
}

func (classLabelValue) Type() string { return "class=template" }
func (classLabelValue) adds()        {}

// addingValue is a flag whose every use adds to what it holds (--class-label): a style file
// gives it a list, each string a use.
type addingValue interface {
	pflag.Value
	adds()
}
