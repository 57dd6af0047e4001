package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trackink/overlay"
	"trackink/scene"
)

// classColorsValue is --class-colors: person=#ff0000,car=#00ff00.
type classColorsValue struct{ m *map[string]scene.Color }

func (v classColorsValue) String() string {
	if v.m == nil || len(*v.m) == 0 {
		return ""
	}
	var parts []string
	for class, c := range *v.m {
		parts = append(parts, class+"="+c.String())
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func (v classColorsValue) Set(s string) error {
	m := map[string]scene.Color{}
	for _, part := range strings.Split(s, ",") {
		class, colour, ok := strings.Cut(part, "=")
		class = strings.TrimSpace(class)
		if !ok || class == "" {
			return fmt.Errorf("%q: want CLASS=#rrggbb[,CLASS=#rrggbb…]", part)
		}
		c, err := overlay.ParseOptionalColor(strings.TrimSpace(colour))
		if err != nil {
			return fmt.Errorf("%s: %w", class, err)
		}
		m[class] = c.C
	}
	*v.m = m
	return nil
}

func (classColorsValue) Type() string { return "string" }

// forTracks fits the look to the tracks: it numbers their classes for --color-by class in
// order of first appearance (two classes never share a colour while the palette has room),
// and warns, once, when colouring by class was asked for and the tracks have no classes,
// or --class-colors names a class they lack.
func (s *styleFlags) forTracks(fs *pflag.FlagSet, o *overlay.Options, tr *scene.Tracks, warn func(string)) {
	o.Style.Classes = tr.Classes()
	_, inFile := s.fromFile["color-by"]
	if o.Style.ColorBy == overlay.ByClass && len(o.Style.Classes) == 0 && (fs.Changed("color-by") || inFile) {
		warn("--color-by class: the tracks have no classes, so each track keeps its own colour")
	}
	var lacking []string
	for class := range o.Style.ClassColors {
		if !slices.Contains(o.Style.Classes, class) {
			lacking = append(lacking, fmt.Sprintf("%q%s", class, didYouMean(class, o.Style.Classes)))
		}
	}
	if lacking != nil {
		slices.Sort(lacking)
		known := "none"
		if len(o.Style.Classes) > 0 {
			known = strings.Join(o.Style.Classes, ", ")
		}
		warn(fmt.Sprintf("--class-colors: no box is of class %s (the tracks' classes: %s)", strings.Join(lacking, ", "), known))
	}
}
