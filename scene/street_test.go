package scene

import (
	"reflect"
	"testing"
)

// The street scene is the same every time, holds 20 walkers in every frame, each box a
// pedestrian 0.41 as wide as tall, 0.11 to 0.35 of the frame high (a little more as it
// sways), its point the middle of its bottom edge, and a walker who leaves comes back as a
// new id.
func TestStreet(t *testing.T) {
	const w, h, n = 1920, 1080, 400
	frames := Street(w, h, n)
	if !reflect.DeepEqual(frames, Street(w, h, n)) {
		t.Fatal("two street scenes of one size differ")
	}
	ids := map[int]bool{}
	for _, f := range frames {
		if len(f.Boxes) != 20 || len(f.Points) != 20 {
			t.Fatalf("frame %d: %d boxes, %d points, want 20 of each", f.Index, len(f.Boxes), len(f.Points))
		}
		for i, b := range f.Boxes {
			ids[b.ID] = true
			p := f.Points[i]
			if b.Class != "pedestrian" || b.W/b.H < 0.409 || b.W/b.H > 0.411 || b.H < 0.11*h || b.H > 0.35*h+1 {
				t.Fatalf("frame %d: box %+v is not a walker", f.Index, b)
			}
			if p.ID != b.ID || abs32(p.X-(b.X+b.W/2)) > 1e-3 || abs32(p.Y-(b.Y+b.H)) > 1e-3 {
				t.Fatalf("frame %d: point %+v is not the bottom middle of %+v", f.Index, p, b)
			}
		}
	}
	if len(ids) <= 20 {
		t.Errorf("%d ids in %d frames: no walker left and came back as another", len(ids), n)
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
