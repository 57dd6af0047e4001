package overlay

import "trackink/scene"

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
// Style.Classes (the command line lists the tracks' classes in order of first appearance,
// so no two share a colour while the palette has room), else, for a class Classes lacks,
// the colour a hash of its name picks, which stays the same from video to video.
func (b *Builder) classColor(class string) scene.Color {
	if i, ok := b.classNum[class]; ok {
		return paletteColor(b.palette, i)
	}
	return paletteColor(b.palette, classIndex(class))
}
