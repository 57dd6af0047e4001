//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of lk.go's templateGo and mismatchGo: the same integer arithmetic, eight
// window pixels a group, three groups a window row (lanes past lkWindow are read from the
// level's border and multiplied by the template's zero derivatives there). Every lane's
// 32-bit sums stay exact (lk.go gives the bounds), and are added in 64 bits at the end, so
// the results are the Go code's to the bit; lk_test.go checks that.

// The template's three arrays: lkWindow rows of lkRow lanes of 4 bytes.
#define TX 2016
#define TY 4032

// last5 zeroes the lanes past lkWindow of a row's third group (pixels 21 to 23).
DATA last5<>+0x00(SB)/8, $0xffffffffffffffff
DATA last5<>+0x08(SB)/8, $0xffffffffffffffff
DATA last5<>+0x10(SB)/8, $0x00000000ffffffff
DATA last5<>+0x18(SB)/8, $0x0000000000000000
GLOBL last5<>(SB), (NOPTR+RODATA), $32

DATA round9<>+0x00(SB)/8, $0x0000010000000100
DATA round9<>+0x08(SB)/8, $0x0000010000000100
DATA round9<>+0x10(SB)/8, $0x0000010000000100
DATA round9<>+0x18(SB)/8, $0x0000010000000100
GLOBL round9<>(SB), (NOPTR+RODATA), $32

DATA round14<>+0x00(SB)/8, $0x0000200000002000
DATA round14<>+0x08(SB)/8, $0x0000200000002000
DATA round14<>+0x10(SB)/8, $0x0000200000002000
DATA round14<>+0x18(SB)/8, $0x0000200000002000
GLOBL round14<>(SB), (NOPTR+RODATA), $32

// WEIGHTS broadcasts the bilinear weights at AX as 16-bit pairs: (w00, w01) into Y11,
// (w10, w11) into Y12 (each at most 2^14), for VPMADDWD. Clobbers BX and R11.
#define WEIGHTS \
	MOVL         0(AX), BX; \
	MOVL         4(AX), R11; \
	SHLL         $16, R11; \
	ORL          R11, BX; \
	VMOVD        BX, X11; \
	VPBROADCASTD X11, Y11; \
	MOVL         8(AX), BX; \
	MOVL         12(AX), R11; \
	SHLL         $16, R11; \
	ORL          R11, BX; \
	VMOVD        BX, X12; \
	VPBROADCASTD X12, Y12

// SAMPLE sets Y0 to the image at SI (row stride DX) sampled bilinearly at pixels off to
// off+7, scaled by 32: descale(Σ p·w, 9). Each row's pixels and their right neighbours
// are paired as 16-bit words and multiplied by a weight pair (VPMADDWD).
#define SAMPLE(off) \
	VMOVQ      off(SI), X0; \
	VMOVQ      off+1(SI), X1; \
	VPUNPCKLBW X1, X0, X0; \
	VPMOVZXBW  X0, Y0; \
	VPMADDWD   Y11, Y0, Y0; \
	VMOVQ      off(SI)(DX*1), X1; \
	VMOVQ      off+1(SI)(DX*1), X2; \
	VPUNPCKLBW X2, X1, X1; \
	VPMOVZXBW  X1, Y1; \
	VPMADDWD   Y12, Y1, Y1; \
	VPADDD     Y1, Y0, Y0; \
	VPADDD     round9<>(SB), Y0, Y0; \
	VPSRAD     $9, Y0, Y0

// DERIV8 sets Y0 and Y1 to the x and y derivatives at DI (row stride R10 bytes) sampled
// bilinearly at the eight pixels from byte off: descale(Σ d·w, 14). Unpacking the pixels
// with their right neighbours pairs each derivative with its neighbour's, in the order
// x0 x1 y0 y1 x1 x2 y1 y2 (lanes 4 to 7 likewise from pixel 4); VSHUFPS gathers the xs
// and the ys of the two halves.
#define DERIV8(off) \
	VMOVDQU    off(DI), Y1; \
	VMOVDQU    off+4(DI), Y2; \
	VPUNPCKLWD Y2, Y1, Y3; \
	VPUNPCKHWD Y2, Y1, Y4; \
	VPMADDWD   Y11, Y3, Y3; \
	VPMADDWD   Y11, Y4, Y4; \
	VMOVDQU    off(DI)(R10*1), Y1; \
	VMOVDQU    off+4(DI)(R10*1), Y2; \
	VPUNPCKLWD Y2, Y1, Y5; \
	VPUNPCKHWD Y2, Y1, Y6; \
	VPMADDWD   Y12, Y5, Y5; \
	VPMADDWD   Y12, Y6, Y6; \
	VPADDD     Y5, Y3, Y3; \
	VPADDD     Y6, Y4, Y4; \
	VPADDD     round14<>(SB), Y3, Y3; \
	VPADDD     round14<>(SB), Y4, Y4; \
	VPSRAD     $14, Y3, Y3; \
	VPSRAD     $14, Y4, Y4; \
	VSHUFPS    $0x88, Y4, Y3, Y0; \
	VSHUFPS    $0xdd, Y4, Y3, Y1

// TEMPLATE8 samples group g of a window row: the image to the template, the derivatives
// to TX and TY (masked by mask), and adds their products to Y7-Y9.
#define TEMPLATE8(g, mask) \
	SAMPLE(8*g); \
	VMOVDQU Y0, (32*g)(R8); \
	DERIV8(32*g); \
	mask; \
	VMOVDQU Y0, (TX+32*g)(R8); \
	VMOVDQU Y1, (TY+32*g)(R8); \
	VPMULLD Y0, Y0, Y2; \
	VPADDD  Y2, Y7, Y7; \
	VPMULLD Y1, Y0, Y2; \
	VPADDD  Y2, Y8, Y8; \
	VPMULLD Y1, Y1, Y2; \
	VPADDD  Y2, Y9, Y9

#define NOMASK
#define MASK5 VPAND Y10, Y0, Y0; VPAND Y10, Y1, Y1

// SUM64 adds the eight 32-bit lanes of y (clobbering x's register Xn and Y1, Y2) as 64-bit
// integers and stores the sum at dst.
#define SUM64(y, xlo, dst) \
	VEXTRACTI128 $1, y, X1; \
	VPMOVSXDQ    xlo, Y2; \
	VPMOVSXDQ    X1, Y1; \
	VPADDQ       Y1, Y2, Y2; \
	VEXTRACTI128 $1, Y2, X1; \
	VPADDQ       X1, X2, X2; \
	VPSHUFD      $0x4e, X2, X1; \
	VPADDQ       X1, X2, X2; \
	VMOVQ        X2, dst

// func lkTemplateAVX2(pix *byte, d *int16, stride int, w *[4]int32, t *int32, sums *[3]int64)
TEXT ·lkTemplateAVX2(SB), NOSPLIT, $0-48
	MOVQ pix+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ stride+16(FP), DX
	MOVQ w+24(FP), AX
	MOVQ t+32(FP), R8
	LEAQ 0(DX*4), R10
	WEIGHTS
	VMOVDQU last5<>(SB), Y10
	VPXOR   Y7, Y7, Y7
	VPXOR   Y8, Y8, Y8
	VPXOR   Y9, Y9, Y9
	MOVQ    $21, R9

trow:
	TEMPLATE8(0, NOMASK)
	TEMPLATE8(1, NOMASK)
	TEMPLATE8(2, MASK5)
	ADDQ DX, SI
	ADDQ R10, DI
	ADDQ $96, R8
	DECQ R9
	JNZ  trow

	MOVQ sums+40(FP), AX
	SUM64(Y7, X7, 0(AX))
	SUM64(Y8, X8, 8(AX))
	SUM64(Y9, X9, 16(AX))
	VZEROUPPER
	RET

// MISMATCH8 samples group g of a window row of the second image and adds its difference
// from the template times the template's derivatives to Y7 and Y8.
#define MISMATCH8(g) \
	SAMPLE(8*g); \
	VPSUBD  (32*g)(R8), Y0, Y0; \
	VPMULLD (TX+32*g)(R8), Y0, Y1; \
	VPADDD  Y1, Y7, Y7; \
	VPMULLD (TY+32*g)(R8), Y0, Y2; \
	VPADDD  Y2, Y8, Y8

// func lkMismatchAVX2(pix *byte, stride int, w *[4]int32, t *int32, sums *[2]int64)
TEXT ·lkMismatchAVX2(SB), NOSPLIT, $0-40
	MOVQ pix+0(FP), SI
	MOVQ stride+8(FP), DX
	MOVQ w+16(FP), AX
	MOVQ t+24(FP), R8
	WEIGHTS
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	MOVQ  $21, R9

mrow:
	MISMATCH8(0)
	MISMATCH8(1)
	MISMATCH8(2)
	ADDQ DX, SI
	ADDQ $96, R8
	DECQ R9
	JNZ  mrow

	MOVQ sums+32(FP), AX
	SUM64(Y7, X7, 0(AX))
	SUM64(Y8, X8, 8(AX))
	VZEROUPPER
	RET
