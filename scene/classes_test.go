package scene

import (
	"slices"
	"strings"
	"testing"
)

// TestClasses: classes come in order of first appearance by frame, not by file order (MOT17
// ground truth is sorted by track).
func TestClasses(t *testing.T) {
	rows := strings.Join([]string{
		"2,1,10,10,5,5,1,1,1", // track 1, pedestrian, from frame 2
		"3,1,11,10,5,5,1,1,1",
		"1,5,50,10,5,5,1,3,1",  // track 5, car, frame 1
		"3,9,90,10,5,5,0,12,1", // track 9, reflection, frame 3
	}, "\n") + "\n"
	tr, err := Read(strings.NewReader(rows), "gt.txt", FormatAuto, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Classes(), []string{"car", "pedestrian", "reflection"}; !slices.Equal(got, want) {
		t.Errorf("classes %q, want %q", got, want)
	}
	if none, _ := Read(strings.NewReader("1,1,10,10,5,5\n"), "t.txt", FormatAuto, Options{}); len(none.Classes()) != 0 {
		t.Errorf("classes of class-less tracks: %q", none.Classes())
	}
}
