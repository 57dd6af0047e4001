package scene

import "testing"

func TestSeedSceneStaysInsideTheFrame(t *testing.T) {
	for _, size := range [][2]int{{SeedWidth, SeedHeight}, {641, 479}, {320, 180}} {
		w, h := float32(size[0]), float32(size[1])
		tr := Seed(size[0], size[1], 600)
		for _, f := range tr {
			if len(f.Boxes) != 100 || len(f.Points) != 100 {
				t.Fatalf("frame %d: %d boxes, %d points", f.Index, len(f.Boxes), len(f.Points))
			}
			for i, b := range f.Boxes {
				if b.X < 0 || b.Y < 0 || b.X+b.W > w || b.Y+b.H > h {
					t.Fatalf("%vx%v frame %d: box %d at (%g,%g) %gx%g leaves the frame", w, h, f.Index, b.ID, b.X, b.Y, b.W, b.H)
				}
				if p := f.Points[i]; p.ID != b.ID || abs(p.X-(b.X+b.W/2)) > 1e-3 || abs(p.Y-(b.Y+b.H)) > 1e-3 {
					t.Fatalf("point %d is not its box's bottom-centre", p.ID)
				}
			}
		}
	}
}

func TestSeedFrameIsTheSameAnyOrder(t *testing.T) {
	s := NewSeed(1280, 720)
	var a, b Frame
	s.Frame(37, &a)
	s.Frame(2, &b)
	s.Frame(37, &b)
	for i := range a.Boxes {
		if a.Boxes[i] != b.Boxes[i] {
			t.Fatalf("frame 37 differs after asking for frame 2")
		}
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
