//go:build gc && !purego

package tracker

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in lk_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func lkTemplateAVX2(pix *byte, d *int16, stride int, w *[4]int32, t *int32, sums *[3]int64)

//go:noescape
func lkMismatchAVX2(pix *byte, stride int, w *[4]int32, t *int32, sums *[2]int64)

// template samples the window of I whose top-left pixel is (x, y) into lw and returns the
// structure tensor's sums (templateGo).
func (lw *lkWork) template(I *level, x, y int, w *[4]int32) (a11, a12, a22 int64) {
	if !haveAVX2 {
		return lw.templateGo(I, x, y, w)
	}
	o := I.origin() + y*I.stride + x
	var s [3]int64
	lkTemplateAVX2(&I.pix[o], &I.d[2*o], I.stride, w, &lw.t[0], &s)
	return s[0], s[1], s[2]
}

// mismatch is mismatchGo's twin.
func (lw *lkWork) mismatch(J *level, x, y int, w *[4]int32) (b1, b2 int64) {
	if !haveAVX2 {
		return lw.mismatchGo(J, x, y, w)
	}
	o := J.origin() + y*J.stride + x
	var s [2]int64
	lkMismatchAVX2(&J.pix[o], J.stride, w, &lw.t[0], &s)
	return s[0], s[1]
}
