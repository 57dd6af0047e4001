package overlay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/scene"
)

// randomFrame is n boxes with ids 1..n in random order, scattered over a w × h frame (some
// reaching past its edges), each 8 to 60 px.
func randomFrame(rng *rand.Rand, n, w, h, index int) *scene.Frame {
	f := &scene.Frame{Index: index}
	for _, id := range rng.Perm(n) {
		bw, bh := 8+rng.Float32()*52, 8+rng.Float32()*52
		f.Boxes = append(f.Boxes, scene.Box{ID: id + 1, X: rng.Float32()*float32(w+40) - 20 - bw/2, Y: rng.Float32()*float32(h+40) - 20 - bh/2, W: bw, H: bh})
	}
	return f
}

// The grid places every label where the plain rule puts it (see labels.go): in id order,
// at the first place among its last one and the places in order that covers no label placed
// before it, else at its last place; there, a label the frame's edge moved is moved down or
// up, the less far, to just past the labels it covers (maxApart label heights at most),
// where it covers none inside the frame. The rule is checked here against every label
// placed before, as placeLabels did before the grid, on dense frames where most labels
// collide.
func TestLabelGridPlacesAsTheRule(t *testing.T) {
	const w, h = 640, 480
	rng := rand.New(rand.NewPCG(24, 1))
	b := newTestBuilder(t, DefaultStyle(), w, h)
	var p Primitives
	for frame := 1; frame <= 4; frame++ {
		f := randomFrame(rng, 300*frame, w, h, frame)
		prev := map[int]int{}
		for id, pl := range b.places {
			prev[id] = pl.place
		}
		b.Build(&p, f, nil)
		// The labels in Labels' order are those of the boxes on the frame, in box order.
		var boxes []*scene.Box
		for i := range f.Boxes {
			if !offFrame(&f.Boxes[i], w, h) {
				boxes = append(boxes, &f.Boxes[i])
			}
		}
		if len(boxes) != len(p.Labels) {
			t.Fatalf("%d labels for %d boxes", len(p.Labels), len(boxes))
		}
		order := make([]int, len(boxes))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int { return boxes[i].ID - boxes[j].ID })
		var placed []labelRect
		// over returns the least top and greatest bottom of the labels placed before that r
		// covers; ok false for none.
		over := func(r labelRect) (top, bottom int, ok bool) {
			for _, q := range placed {
				if r.x < q.x+q.w && q.x < r.x+r.w && r.y < q.y+q.h && q.y < r.y+r.h {
					if !ok {
						top, bottom, ok = q.y, q.y+q.h, true
					}
					top, bottom = min(top, q.y), max(bottom, q.y+q.h)
				}
			}
			return top, bottom, ok
		}
		moved, apart := 0, 0
		for _, i := range order {
			l := &p.Labels[i]
			place, ok := prev[boxes[i].ID]
			if !ok {
				place = placeAbove
			}
			for try := -1; try < numPlaces; try++ {
				cand := place
				if try >= 0 {
					cand = try
				}
				x, y := labelAt(boxes[i], cand, b.style.BoxStroke, l.W, l.H, w, h)
				if _, _, ok := over(labelRect{x, y, l.W, l.H}); !ok {
					place = cand
					break
				}
			}
			x, y := labelAt(boxes[i], place, b.style.BoxStroke, l.W, l.H, w, h)
			ux, uy := labelCorner(boxes[i], place, b.style.BoxStroke, l.H)
			r := labelRect{x, y, l.W, l.H}
			if _, _, covered := over(r); covered && (x != ux || y != uy) {
				best, found := r, false
				for _, down := range []bool{true, false} {
					c := r
					for max(c.y-r.y, r.y-c.y) <= maxApart*r.h {
						top, bottom, hit := over(c)
						if !hit {
							if !found || math.Abs(float64(c.y-r.y)) < math.Abs(float64(best.y-r.y)) {
								best, found = c, true
							}
							break
						}
						if c.y = top - c.h; down {
							c.y = bottom
						}
						if c.y < 0 || c.y+c.h > h {
							break
						}
					}
				}
				if found {
					r = best
					apart++
				}
			}
			if l.X != r.x || l.Y != r.y {
				t.Fatalf("frame %d, track %d: label at (%d, %d), the rule puts it at (%d, %d)", frame, boxes[i].ID, l.X, l.Y, r.x, r.y)
			}
			if place != placeAbove {
				moved++
			}
			placed = append(placed, r)
		}
		if moved == 0 || apart == 0 {
			t.Fatalf("frame %d: %d labels moved to another place, %d at the edge apart: the test shows too little", frame, moved, apart)
		}
	}
}

// BenchmarkPlaceLabels builds a 4K frame of n labelled boxes: label placement dominates
// (before the label grid, 100 000 boxes took 13.5 s, 25 000 1.2 s).
func BenchmarkPlaceLabels(b *testing.B) {
	const w, h = 3840, 2160
	for _, n := range []int{25000, 100000} {
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(24, 2))
			f := randomFrame(rng, n, w, h, 1)
			bl, err := NewBuilder(DefaultStyle().ForHeight(h), testFont(b), w, h)
			if err != nil {
				b.Fatal(err)
			}
			var p Primitives
			for i := 0; b.Loop(); i++ {
				f.Index = i + 1
				bl.Build(&p, f, nil)
			}
		})
	}
}
