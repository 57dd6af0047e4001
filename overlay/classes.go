package overlay

import (
	"slices"

	"trackink/scene"
)

// ForClasses fits the style to tracks whose classes, in order of first appearance, are
// classes (scene.Tracks.Classes): they are numbered for ColorBy class, so that no two share a
// colour while the palette has room. It returns the classes ClassColors names that are not
// among them, sorted: colours that will never be drawn, worth a warning.
func (s *Style) ForClasses(classes []string) (lacking []string) {
	s.Classes = classes
	for class := range s.ClassColors {
		if !slices.Contains(classes, class) {
			lacking = append(lacking, class)
		}
	}
	slices.Sort(lacking)
	return lacking
}

// classNumbers maps each class of classes to its index: the palette colour it takes.
func classNumbers(classes []string) map[string]int {
	m := make(map[string]int, len(classes))
	for i, c := range classes {
		if _, dup := m[c]; !dup {
			m[c] = i
		}
	}
	return m
}

// classColor is the palette colour of a class's items with ColorBy class (a class's own,
// Style.ClassColors, wins over it whatever ColorBy says): colour i for the i-th class of
// Style.Classes (ForClasses), else, for a class Classes lacks,
// the colour a hash of its name picks, which stays the same from video to video.
func (b *Builder) classColor(class string) scene.Color {
	if i, ok := b.classNum[class]; ok {
		return paletteColor(b.palette, i)
	}
	return paletteColor(b.palette, classIndex(class))
}
