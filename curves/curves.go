// Package curves builds the quadratic Bezier curves trackink draws along links, and flattens
// them into chords with a guaranteed error bound.
//
// A link from a to b bends to one side: its control point is the midpoint plus the unit normal
// of ab times bend × |ab|, so a curve keeps its shape whatever its length and direction.
//
// Flattening uses uniform parameter steps. For B(t) = p0 + 2(p1 − p0)t + (p0 − 2p1 + p2)t²
// the gap between the curve and the chord over a parameter interval of length h is
// E(t) = b·(t − t0)(t − t0 − h) with b = p0 − 2p1 + p2, largest at the interval's middle:
// |b|·h²/4. With n equal steps the polyline is within |b|/(4n²) of the curve (in the Hausdorff
// sense), so n = ⌈√(|b| / (4·tol))⌉ chords keep any distance measured to the polyline within
// tol of the distance to the curve, at any size. trackink uses tol = 1/20 px.
//
// The CUDA kernels carry twins of Chords, Chord and Point in kernels/geometry.cuh, and of
// Control in kernels/links.cu, with the same float32 operations in the same order; each
// function's comment names its twin.
package curves

import "math"

// Tolerance is the largest distance, in pixels, between a curve and its flattened polyline.
const Tolerance = 1.0 / 20

// Control returns the control point of the link curve from a to b with the given bend: the
// midpoint of ab moved along ab's left-hand unit normal by bend × |ab|. Twin: tk_links_emit
// in kernels/links.cu, where the device builds the link curves itself.
func Control(ax, ay, bx, by, bend float32) (cx, cy float32) {
	dx, dy := bx-ax, by-ay
	// The unit normal times the length is (−dy, dx) itself.
	return (ax+bx)/2 - dy*bend, (ay+by)/2 + dx*bend
}

// MaxChords caps the chords of one curve: reached only when |p0 − 2p1 + p2| exceeds 8.6e8 px
// (far outside any frame), where the bound would otherwise ask for gigabytes. The CUDA
// kernels use the same cap.
const MaxChords = 65536

// Chords returns how many equal parameter steps flatten the curve p0, p1, p2 within tol
// pixels: at least 1, at most MaxChords. Twin: chordCount, after its culling.
func Chords(p0x, p0y, p1x, p1y, p2x, p2y, tol float32) int {
	bx, by := float64(p0x-2*p1x+p2x), float64(p0y-2*p1y+p2y)
	n := math.Ceil(math.Sqrt(math.Hypot(bx, by) / (4 * float64(tol))))
	switch {
	case !(n >= 1): // also NaN
		return 1
	case n > MaxChords:
		return MaxChords
	}
	return int(n)
}

// Chord returns chord k (0-based) of the curve p0, p1, p2 flattened into n equal parameter
// steps: from B(k/n) to B((k+1)/n), the first starting exactly at p0. Twin: chordOf.
func Chord(p0x, p0y, p1x, p1y, p2x, p2y float32, k, n int) (ax, ay, bx, by float32) {
	ax, ay = p0x, p0y
	if k > 0 {
		ax, ay = Point(p0x, p0y, p1x, p1y, p2x, p2y, float32(k)/float32(n))
	}
	bx, by = Point(p0x, p0y, p1x, p1y, p2x, p2y, float32(k+1)/float32(n))
	return ax, ay, bx, by
}

// Point returns B(t) for the curve p0, p1, p2. Twin: curvePoint.
func Point(p0x, p0y, p1x, p1y, p2x, p2y, t float32) (x, y float32) {
	u := 1 - t
	return u*u*p0x + 2*u*t*p1x + t*t*p2x, u*u*p0y + 2*u*t*p1y + t*t*p2y
}

// ChordLen returns the length of the chord from a to b. Summed over a curve's chords in
// order, it gives the arc length at which each chord starts, which dash patterns are laid
// along (the flattened length, within the tolerance of the curve's). Twin: chordLen.
func ChordLen(ax, ay, bx, by float32) float32 {
	dx, dy := bx-ax, by-ay
	return float32(math.Sqrt(float64(float32(dx*dx) + float32(dy*dy))))
}
