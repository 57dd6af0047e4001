package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The lines stage: straight strokes with round caps from their exact distance field
// (twin: kernels/lines.cu).

// drawLines draws each line's coverage row by row (segmentCoverage), over the span of the row
// its stroke can reach. cov is scratch.
func drawLines(t *composite.Tile, lines []overlay.Line, colors []layerColor, idx []int32, cov *rowBuf) {
	for _, i := range idx {
		l := &lines[i]
		r := sdf.Reach(l.Width)
		seg := sdf.NewSeg(l.X0, l.Y0, l.X1, l.Y1)
		ylo, yhi := segmentRows(t, l.Y0, l.Y1, r)
		for y := ylo; y < yhi; y++ {
			lo, hi := segmentSpan(t, y, l.X0, l.Y0, l.X1, l.Y1, r)
			if lo >= hi {
				continue
			}
			segmentCoverage(cov, hi-lo, &seg, float32(t.X0+lo)+0.5, float32(t.Y0+y)+0.5, l.Width)
			overCoverage(t, y*ts+lo, cov[:hi-lo], &colors[i])
			t.Touch(y, lo, hi)
		}
	}
}
