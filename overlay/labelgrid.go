package overlay

import (
	"math"
	"slices"
)

// labelGrid finds the placed labels a candidate label would cover: a uniform grid over the
// frame, each cell listing the labels that reach into it, so that a frame of n labels is
// placed in about n × (labels per cell) tests rather than n²/2 (100 000 labels took 13.5 s
// that way). A label beyond the frame's edge is listed in the edge cells: clamping keeps
// every pair of overlapping rectangles in a common cell.
type labelGrid struct {
	cell   int // side of a cell in px
	nx, ny int
	// The cells' lists, in flat arrays that keep their capacity from frame to frame (the
	// drawer allocates nothing in steady state): head[c] is cell c's latest entry, next[e]
	// the entry before e in its cell (-1 ends a list), rect[e] the label entry e lists.
	head, next, rect []int32
	rects            []labelRect
}

// labelRect is a placed label's rectangle.
type labelRect struct{ x, y, w, h int }

// reset empties the grid for a w × h frame of n labels at most maxH px high: square cells
// as high as the highest label (a label, wider than high, reaches into a row of a few), and
// no more cells than labels.
func (g *labelGrid) reset(w, h, n, maxH int) {
	g.cell = max(maxH, int(math.Ceil(math.Sqrt(float64(w)*float64(h)/float64(max(n, 1))))), 1)
	g.nx, g.ny = max((w+g.cell-1)/g.cell, 1), max((h+g.cell-1)/g.cell, 1)
	g.head = slices.Grow(g.head[:0], g.nx*g.ny)[:g.nx*g.ny]
	for i := range g.head {
		g.head[i] = -1
	}
	g.next, g.rect, g.rects = g.next[:0], g.rect[:0], g.rects[:0]
}

// span is the range of cells [lo, hi] that [v, v+size) reaches along an axis of n cells.
func (g *labelGrid) span(v, size, n int) (lo, hi int) {
	lo = min(max(floorDiv(v, g.cell), 0), n-1)
	hi = min(max(floorDiv(v+size-1, g.cell), 0), n-1)
	return lo, hi
}

// add lists a placed label.
func (g *labelGrid) add(r labelRect) {
	i := int32(len(g.rects))
	g.rects = append(g.rects, r)
	x0, x1 := g.span(r.x, r.w, g.nx)
	y0, y1 := g.span(r.y, r.h, g.ny)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			c := cy*g.nx + cx
			g.next = append(g.next, g.head[c])
			g.rect = append(g.rect, i)
			g.head[c] = int32(len(g.next) - 1)
		}
	}
}

// covers reports whether r overlaps a listed label (the same test as before the grid: open
// rectangles, touching edges do not count).
func (g *labelGrid) covers(r labelRect) bool {
	x0, x1 := g.span(r.x, r.w, g.nx)
	y0, y1 := g.span(r.y, r.h, g.ny)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			for e := g.head[cy*g.nx+cx]; e >= 0; e = g.next[e] {
				l := &g.rects[g.rect[e]]
				if r.x < l.x+l.w && l.x < r.x+r.w && r.y < l.y+l.h && l.y < r.y+r.h {
					return true
				}
			}
		}
	}
	return false
}

// floorDiv is a / b rounded down (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
