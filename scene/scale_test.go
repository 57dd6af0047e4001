package scene

import (
	"strings"
	"testing"
)

// TestScale: boxes, the points they yield and explicit points are all scaled.
func TestScale(t *testing.T) {
	tr, err := Read(strings.NewReader(`{"frame":1,"boxes":[{"id":1,"x":100,"y":50,"w":40,"h":20}],"points":[{"id":2,"x":10,"y":30}]}`+"\n"),
		"t.jsonl", FormatAuto, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Scale(0.5, 2)
	f := tr.Frame(1, new(Frame))
	if b := f.Boxes[0]; b.X != 50 || b.Y != 100 || b.W != 20 || b.H != 40 {
		t.Errorf("box %+v", b)
	}
	if p := f.Points[0]; p.X != 5 || p.Y != 60 {
		t.Errorf("point %+v", p)
	}
	mot, err := Read(strings.NewReader("1,1,100,50,40,20\n"), "t.txt", FormatAuto, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mot.Scale(0.5, 2)
	if p := mot.Frame(1, new(Frame)).Points[0]; p.X != 60 || p.Y != 140 {
		t.Errorf("a box's point %+v, want its bottom centre (60, 140)", p)
	}
}
