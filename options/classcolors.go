package options

import (
	"fmt"
	"maps"
	"slices"
	"strings"

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

// Set adds the classes' colours to those given before (a look's, an earlier --class-colors).
func (v classColorsValue) Set(s string) error {
	m := maps.Clone(*v.m) // a look's map is the look's: never written into
	if m == nil {
		m = map[string]scene.Color{}
	}
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
		if !c.Set { // auto or nothing: once the class was drawn in transparent black
			return fmt.Errorf("%s=%s: want a colour, #rrggbb[aa] or a name (a class left out takes the palette's)", class, strings.TrimSpace(colour))
		}
		m[class] = c.C
	}
	*v.m = m
	return nil
}

func (classColorsValue) Type() string { return "string" }
func (classColorsValue) adds()        {}
