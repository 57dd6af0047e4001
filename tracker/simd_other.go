//go:build !amd64 || !gc || purego

package tracker

func (lw *lkWork) template(I *level, x, y int, w *[4]int32) (a11, a12, a22 int64) {
	return lw.templateGo(I, x, y, w)
}

func (lw *lkWork) mismatch(J *level, x, y int, w *[4]int32) (b1, b2 int64) {
	return lw.mismatchGo(J, x, y, w)
}

func halveRows(dst, r0, r1 []byte) int { return 0 }

func quarterRows(dst, r0, r1, r2, r3 []byte) int { return 0 }

func scharrRows(out []int16, r0, r1, r2 []byte) int { return 0 }

func op3(o, a, b, c []byte, erode bool) int { return 0 }

func median9Rows(dst []byte, rows *[9][]byte) int { return 0 }

func absDiff(dst, a, b []byte) int { return 0 }

func productsRows(p []float32, d []int16) int { return 0 }

func hsumRows(o, r []float32) int { return 0 }

func eigenRows(e, a, b, c []float32, w int) int { return 0 }

func box5Rows(s []uint16, p []byte) int { return 0 }

func colMeanRows(out []byte, rows [][]uint16, m []uint32) int { return 0 }

func pyrRows(out []uint16, row []byte) int { return 0 }

func pyrCols(o []byte, r0, r1, r2, r3, r4 []uint16) int { return 0 }

func binarizeRows(mask, p []byte, t int, below bool) int { return 0 }
