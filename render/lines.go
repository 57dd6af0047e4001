package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The lines stage: straight strokes with round caps from their exact distance field
// (twin: kernels/lines.cu).

func drawLines(t *composite.Tile, lines []overlay.Line, colors []layerColor, idx []int32) {
	for _, i := range idx {
		l := &lines[i]
		r := sdf.Reach(l.Width)
		thin := sdf.ThinScale(l.Width)
		c := &colors[i]
		seg := sdf.NewSeg(l.X0, l.Y0, l.X1, l.Y1)
		ylo, yhi := segmentRows(t, l.Y0, l.Y1, r)
		for y := ylo; y < yhi; y++ {
			lo, hi := segmentSpan(t, y, l.X0, l.Y0, l.X1, l.Y1, r)
			if lo >= hi {
				continue
			}
			py := float32(t.Y0+y) + 0.5
			row := y * ts
			touched := false
			for x := lo; x < hi; x++ {
				px := float32(t.X0+x) + 0.5
				cov := sdf.Coverage(sdf.Stroke(sdf.Sqrt(seg.Dist2(px, py)), l.Width)) * thin
				if cov > 0 {
					over(t, row+x, c, cov)
					touched = true
				}
			}
			if touched {
				t.Touch(y, lo, hi)
			}
		}
	}
}
