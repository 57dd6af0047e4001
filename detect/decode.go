package detect

import (
	"cmp"
	"math"
	"slices"
)

// Detection is one object found in a frame: its box in the frame's pixels, its class (an
// index into Classes) and its score, objectness × class probability, 0..1.
type Detection struct {
	X0, Y0, X1, Y1 float32
	Class          int
	Score          float32
}

// strides are YOLOX's three output grids, finest first, in the order of the output rows.
var strides = [3]int{8, 16, 32}

// cells is the number of output rows for a w × h input.
func cells(w, h int) int {
	n := 0
	for _, s := range strides {
		n += (w / s) * (h / s)
	}
	return n
}

// decoder turns the network's output rows into detections.
type decoder struct {
	w, h     int // the input's size
	classes  int
	wanted   []bool // per class: asked for
	minScore float32
	iou      float32 // within a class
	crossIoU float32 // between classes
	cand     []Detection
}

// decode appends to dst the detections in out (cells × (5 + classes) floats) that score at
// least d.minScore, in frame pixels (input pixels divided by scale, clipped to w × h), after
// non-maximum suppression, best first.
func (d *decoder) decode(dst []Detection, out []float32, scale float64, w, h int) []Detection {
	row := 5 + d.classes
	d.cand = d.cand[:0]
	inv := float32(1 / scale)
	fw, fh := float32(w), float32(h)
	i := 0
	for _, s := range strides {
		fs := float32(s)
		for gy := range d.h / s {
			for gx := range d.w / s {
				r := out[i*row : (i+1)*row]
				i++
				obj := r[4]
				if obj < d.minScore {
					continue // no class can reach the score
				}
				best, score := -1, float32(0)
				for c, p := range r[5:] {
					if d.wanted[c] && obj*p > score {
						best, score = c, obj*p
					}
				}
				if best < 0 || score < d.minScore {
					continue
				}
				cx, cy := (r[0]+float32(gx))*fs, (r[1]+float32(gy))*fs
				bw, bh := expf(r[2])*fs, expf(r[3])*fs
				x0 := min(max((cx-bw/2)*inv, 0), fw)
				y0 := min(max((cy-bh/2)*inv, 0), fh)
				x1 := min(max((cx+bw/2)*inv, 0), fw)
				y1 := min(max((cy+bh/2)*inv, 0), fh)
				if !(x1 > x0 && y1 > y0) { // NaN too
					continue
				}
				d.cand = append(d.cand, Detection{X0: x0, Y0: y0, X1: x1, Y1: y1, Class: best, Score: score})
			}
		}
	}
	return nms(dst, d.cand, d.iou, d.crossIoU)
}

func expf(v float32) float32 { return float32(math.Exp(float64(v))) }

// nms appends to dst the candidates that overlap no better candidate of their class by more
// than limit (IoU), nor a better one of another class by more than crossLimit, best first.
// The second is one object read as two classes (a van as a car and as a truck, nearly the
// same box): it keeps the better score's box and class. Ties in score keep the order of the
// grid, so the result is the same run after run. cand is sorted in place.
func nms(dst, cand []Detection, limit, crossLimit float32) []Detection {
	slices.SortStableFunc(cand, func(a, b Detection) int { return cmp.Compare(b.Score, a.Score) })
	first := len(dst)
	for _, c := range cand {
		keep := true
		for _, k := range dst[first:] {
			l := crossLimit
			if k.Class == c.Class {
				l = limit
			}
			if iou(k, c) > l {
				keep = false
				break
			}
		}
		if keep {
			dst = append(dst, c)
		}
	}
	return dst
}

// iou is the intersection over union of two boxes.
func iou(a, b Detection) float32 {
	iw := min(a.X1, b.X1) - max(a.X0, b.X0)
	ih := min(a.Y1, b.Y1) - max(a.Y0, b.Y0)
	if iw <= 0 || ih <= 0 {
		return 0
	}
	inter := iw * ih
	return inter / (float32((a.X1-a.X0)*(a.Y1-a.Y0)) + float32((b.X1-b.X0)*(b.Y1-b.Y0)) - inter) // no fused multiply-add
}
