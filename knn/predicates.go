package knn

import (
	"math"
	"math/big"
)

// The geometric predicates of the Delaunay triangulation, exact for the float32 coordinates
// trackink's points have (held in float64): a float64 evaluation decides whenever its
// result is farther from 0 than Shewchuk's forward error bound ("Adaptive Precision
// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997, the bounds
// ccwerrboundA and iccerrboundA), and exact integer arithmetic decides the rest: every float32
// is an integer multiple of 2⁻¹⁴⁹, so the coordinates scaled by 2¹⁴⁹ are integers and the
// determinants are computed in math/big without rounding. The slow path runs only for
// (nearly) collinear or cocircular points.

const (
	epsilon      = 1.0 / (1 << 53) // half a float64 ulp of 1
	ccwErrBound  = (3 + 16*epsilon) * epsilon
	iccErrBound  = (10 + 96*epsilon) * epsilon
	exactScaling = 149 // float32's smallest exponent: x·2¹⁴⁹ is an integer for every float32 x
)

// orient returns the sign of the orientation determinant of a, b, c: +1 when they turn
// counter-clockwise (in a y-up frame; clockwise on the screen), −1 when clockwise, 0 when
// collinear. Exact for float32-valued coordinates.
func orient(ax, ay, bx, by, cx, cy float64) int {
	detLeft := float64((ax - cx) * (by - cy))
	detRight := float64((ay - cy) * (bx - cx))
	det := detLeft - detRight
	if bound := ccwErrBound * (math.Abs(detLeft) + math.Abs(detRight)); det > bound || -det > bound {
		return sign(det)
	}
	return orientExact(ax, ay, bx, by, cx, cy)
}

// incircle returns the sign of the in-circle determinant of a, b, c, d: for a, b, c counter-
// clockwise (orient > 0), +1 when d lies inside their circumcircle, −1 outside, 0 on it.
// Exact for float32-valued coordinates.
func incircle(ax, ay, bx, by, cx, cy, dx, dy float64) int {
	adx, ady := ax-dx, ay-dy
	bdx, bdy := bx-dx, by-dy
	cdx, cdy := cx-dx, cy-dy
	bdxcdy, cdxbdy := float64(bdx*cdy), float64(cdx*bdy)
	cdxady, adxcdy := float64(cdx*ady), float64(adx*cdy)
	adxbdy, bdxady := float64(adx*bdy), float64(bdx*ady)
	alift := float64(adx*adx) + float64(ady*ady)
	blift := float64(bdx*bdx) + float64(bdy*bdy)
	clift := float64(cdx*cdx) + float64(cdy*cdy)
	det := float64(alift*(bdxcdy-cdxbdy)) + float64(blift*(cdxady-adxcdy)) + float64(clift*(adxbdy-bdxady))
	permanent := float64((math.Abs(bdxcdy)+math.Abs(cdxbdy))*alift) +
		float64((math.Abs(cdxady)+math.Abs(adxcdy))*blift) +
		float64((math.Abs(adxbdy)+math.Abs(bdxady))*clift)
	if bound := iccErrBound * permanent; det > bound || -det > bound {
		return sign(det)
	}
	return incircleExact(ax, ay, bx, by, cx, cy, dx, dy)
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// exactInt returns v·2¹⁴⁹ as an integer: exact for float32-valued v.
func exactInt(v float64) *big.Int {
	f := new(big.Float).SetFloat64(v)
	f.SetMantExp(f, exactScaling)
	i, _ := f.Int(nil)
	return i
}

func orientExact(ax, ay, bx, by, cx, cy float64) int {
	acx, bcy := sub(exactInt(ax), exactInt(cx)), sub(exactInt(by), exactInt(cy))
	acy, bcx := sub(exactInt(ay), exactInt(cy)), sub(exactInt(bx), exactInt(cx))
	return sub(mul(acx, bcy), mul(acy, bcx)).Sign()
}

func incircleExact(ax, ay, bx, by, cx, cy, dx, dy float64) int {
	x, y := exactInt(dx), exactInt(dy)
	adx, ady := sub(exactInt(ax), x), sub(exactInt(ay), y)
	bdx, bdy := sub(exactInt(bx), x), sub(exactInt(by), y)
	cdx, cdy := sub(exactInt(cx), x), sub(exactInt(cy), y)
	alift := add(mul(adx, adx), mul(ady, ady))
	blift := add(mul(bdx, bdx), mul(bdy, bdy))
	clift := add(mul(cdx, cdx), mul(cdy, cdy))
	det := mul(alift, sub(mul(bdx, cdy), mul(cdx, bdy)))
	det = add(det, mul(blift, sub(mul(cdx, ady), mul(adx, cdy))))
	det = add(det, mul(clift, sub(mul(adx, bdy), mul(bdx, ady))))
	return det.Sign()
}

func add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func sub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
func mul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }

// dist2Exact reports whether dist2(ax, ay, bx, by) is exact: no rounding in its two
// differences, two squares and sum (Knuth's TwoSum and a fused multiply-add give each
// operation's rounding error exactly). Points of similar magnitudes usually are.
func dist2Exact(ax, ay, bx, by float64) bool {
	dx, dy := ax-bx, ay-by
	px, py := float64(dx*dx), float64(dy*dy)
	return twoSumErr(ax, -bx, dx) == 0 && twoSumErr(ay, -by, dy) == 0 &&
		math.FMA(dx, dx, -px) == 0 && math.FMA(dy, dy, -py) == 0 && twoSumErr(px, py, px+py) == 0
}

// twoSumErr is the rounding error of s = a + b (Knuth's TwoSum).
func twoSumErr(a, b, s float64) float64 {
	bv := s - a
	return (a - (s - bv)) + (b - bv)
}

// cmpDist2Exact compares the exact squared distances |ab|² and |cd|² (−1, 0, +1), for float32-
// valued coordinates: dist2 rounds, and may make two different ones equal.
func cmpDist2Exact(ax, ay, bx, by, cx, cy, dx, dy float64) int {
	sq := func(px, py, qx, qy float64) *big.Int {
		x, y := sub(exactInt(px), exactInt(qx)), sub(exactInt(py), exactInt(qy))
		return add(mul(x, x), mul(y, y))
	}
	return sq(ax, ay, bx, by).Cmp(sq(cx, cy, dx, dy))
}
