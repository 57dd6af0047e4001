package scene

// Classes returns the boxes' class names in order of first appearance: by frame, then in
// the frame's order.
func (t *Tracks) Classes() []string {
	seen := make([]bool, len(t.classes))
	var names []string
	for i := range t.boxes.n {
		// Boxes are stored frame by frame, in order.
		if c := t.boxes.at(i).class; c != 0 && !seen[c] {
			seen[c] = true
			names = append(names, t.classes[c])
		}
	}
	return names
}
