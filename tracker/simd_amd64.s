//go:build gc && !purego

#include "textflag.h"

// VEC8 is a 32-byte read-only constant: the 8-byte value v four times. VEC4X2 is one of
// four 8-byte values in order.
#define VEC8(name, v) VEC4X2(name, v, v, v, v)
#define VEC4X2(name, a, b, c, d) \
	DATA  name+0x00(SB)/8, a; \
	DATA  name+0x08(SB)/8, b; \
	DATA  name+0x10(SB)/8, c; \
	DATA  name+0x18(SB)/8, d; \
	GLOBL name(SB), (NOPTR+RODATA), $32

// AVX2 twins of the tracker's row loops (plane.go's downscale by 2, lk.go's pyramid,
// points.go's corner strengths, regions.go's morphology, motion.go's background): the Go
// loops' arithmetic, several pixels a step; the Go code does what is left of a row.
// simd_amd64_test.go checks them against the Go code.

// OP3 (defined before any function, for go vet, as it reads and3AVX2's frame) is the
// body of and3AVX2 and or3AVX2: o[i] = a[i] op b[i] op c[i] for i < n, n a
// multiple of 32.
#define OP3(op, loop) \
	MOVQ    o+0(FP), DI; \
	MOVQ    a+8(FP), SI; \
	MOVQ    b+16(FP), DX; \
	MOVQ    c+24(FP), R8; \
	MOVQ    n+32(FP), CX; \
	XORQ    AX, AX; \
loop: \
	VMOVDQU (SI)(AX*1), Y0; \
	op      (DX)(AX*1), Y0, Y0; \
	op      (R8)(AX*1), Y0, Y0; \
	VMOVDQU Y0, (DI)(AX*1); \
	ADDQ    $32, AX; \
	CMPQ    AX, CX; \
	JLT     loop; \
	VZEROUPPER; \
	RET

VEC8(onesB<>, $0x0101010101010101)

VEC8(twosW<>, $0x0002000200020002)

VEC8(threesW<>, $0x0003000300030003)

VEC8(tensW<>, $0x000a000a000a000a)

// AVX2 twins of lk.go's templateGo and mismatchGo: the same integer arithmetic, eight
// window pixels a group, three groups a window row (lanes past lkWindow are read from the
// level's border and multiplied by the template's zero derivatives there). Every lane's
// 32-bit sums stay exact (lk.go gives the bounds), and are added in 64 bits at the end, so
// the results are the Go code's to the bit; simd_amd64_test.go checks that.

// The template's three arrays: lkWindow rows of lkRow lanes of 4 bytes.
#define TX 2016
#define TY 4032

// last5 zeroes the lanes past lkWindow of a row's third group (pixels 21 to 23).
VEC4X2(last5<>, $0xffffffffffffffff, $0xffffffffffffffff, $0x00000000ffffffff, $0x0000000000000000)

VEC8(round9<>, $0x0000010000000100)

VEC8(round14<>, $0x0000200000002000)

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

// func halveRowsAVX2(dst, r0, r1 *byte, n int)
// dst[x] = (r0[2x] + r0[2x+1] + r1[2x] + r1[2x+1] + 2) >> 2 for x < n, n a multiple of 16.
TEXT ·halveRowsAVX2(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    n+24(FP), CX
	VMOVDQU onesB<>(SB), Y4
	VMOVDQU twosW<>(SB), Y5

hloop:
	VMOVDQU    (SI), Y0
	VMOVDQU    (DX), Y1
	VPMADDUBSW Y4, Y0, Y0
	VPMADDUBSW Y4, Y1, Y1
	VPADDW     Y1, Y0, Y0
	VPADDW     Y5, Y0, Y0
	VPSRLW     $2, Y0, Y0
	VPACKUSWB  Y0, Y0, Y0
	VPERMQ     $0x08, Y0, Y0
	VMOVDQU    X0, (DI)
	ADDQ       $32, SI
	ADDQ       $32, DX
	ADDQ       $16, DI
	SUBQ       $16, CX
	JNZ        hloop
	VZEROUPPER
	RET

VEC8(onesW<>, $0x0001000100010001)

VEC8(eightsD<>, $0x0000000800000008)

// QSUM8 sets Y to the 8 int32 sums of the 4 × 4 blocks of the 32 bytes at off of the rows
// SI, DX, R8, R9 (byte pairs by VPMADDUBSW with ones, the rows in int16: at most 2040,
// word pairs by VPMADDWD with ones), rounded and shifted: (sum + 8) >> 4.
#define QSUM8(off, Y, T) \
	VMOVDQU    off(SI), Y; \
	VPMADDUBSW Y4, Y, Y; \
	VMOVDQU    off(DX), T; \
	VPMADDUBSW Y4, T, T; \
	VPADDW     T, Y, Y; \
	VMOVDQU    off(R8), T; \
	VPMADDUBSW Y4, T, T; \
	VPADDW     T, Y, Y; \
	VMOVDQU    off(R9), T; \
	VPMADDUBSW Y4, T, T; \
	VPADDW     T, Y, Y; \
	VPMADDWD   Y5, Y, Y; \
	VPADDD     Y6, Y, Y; \
	VPSRLD     $4, Y, Y

// func quarterRowsAVX2(dst, r0, r1, r2, r3 *byte, n int)
// dst[x] = (the sum of r0 … r3 [4x … 4x+3] + 8) >> 4 for x < n, n a multiple of 16.
TEXT ·quarterRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ    dst+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    r2+24(FP), R8
	MOVQ    r3+32(FP), R9
	MOVQ    n+40(FP), CX
	VMOVDQU onesB<>(SB), Y4
	VMOVDQU onesW<>(SB), Y5
	VMOVDQU eightsD<>(SB), Y6

qloop:
	QSUM8(0, Y0, Y2)
	QSUM8(32, Y1, Y3)
	VPACKSSDW Y1, Y0, Y0 // words 0-3, 8-11 | 4-7, 12-15
	VPERMQ    $0xd8, Y0, Y0 // 0-7 | 8-15
	VPACKUSWB Y0, Y0, Y0
	VPERMQ    $0x08, Y0, Y0
	VMOVDQU   X0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DX
	ADDQ      $64, R8
	ADDQ      $64, R9
	ADDQ      $16, DI
	SUBQ      $16, CX
	JNZ       qloop
	VZEROUPPER
	RET

// func scharrRowsAVX2(out *int16, r0, r1, r2 *byte, n int)
// The Scharr derivatives of the pixels from 1 to n of the rows r0, r1, r2 (each read from
// 0 to n+1), x and y interleaved, n a multiple of 16.
TEXT ·scharrRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ    out+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    r2+24(FP), R8
	MOVQ    n+32(FP), CX
	VMOVDQU threesW<>(SB), Y14
	VMOVDQU tensW<>(SB), Y15

sloop:
	VPMOVZXBW (SI), Y0   // a0
	VPMOVZXBW 1(SI), Y1  // b0
	VPMOVZXBW 2(SI), Y2  // c0
	VPMOVZXBW (DX), Y3   // a1
	VPMOVZXBW 2(DX), Y4  // c1
	VPMOVZXBW (R8), Y5   // a2
	VPMOVZXBW 1(R8), Y6  // b2
	VPMOVZXBW 2(R8), Y7  // c2

	// x: 3·(c0 + c2 − a0 − a2) + 10·(c1 − a1)
	VPADDW  Y7, Y2, Y8
	VPADDW  Y5, Y0, Y9
	VPSUBW  Y9, Y8, Y8
	VPMULLW Y14, Y8, Y8
	VPSUBW  Y3, Y4, Y9
	VPMULLW Y15, Y9, Y9
	VPADDW  Y9, Y8, Y8

	// y: 3·(a2 − a0 + c2 − c0) + 10·(b2 − b0)
	VPADDW  Y7, Y5, Y10
	VPADDW  Y2, Y0, Y11
	VPSUBW  Y11, Y10, Y10
	VPMULLW Y14, Y10, Y10
	VPSUBW  Y1, Y6, Y11
	VPMULLW Y15, Y11, Y11
	VPADDW  Y11, Y10, Y10

	VPUNPCKLWD Y10, Y8, Y0
	VPUNPCKHWD Y10, Y8, Y1
	VPERM2I128 $0x20, Y1, Y0, Y2
	VPERM2I128 $0x31, Y1, Y0, Y3
	VMOVDQU    Y2, (DI)
	VMOVDQU    Y3, 32(DI)

	ADDQ $16, SI
	ADDQ $16, DX
	ADDQ $16, R8
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ  sloop
	VZEROUPPER
	RET

// func and3AVX2(o, a, b, c *byte, n int)
TEXT ·and3AVX2(SB), NOSPLIT, $0-40
	OP3(VPAND, aloop)

// func or3AVX2(o, a, b, c *byte, n int)
TEXT ·or3AVX2(SB), NOSPLIT, $0-40
	OP3(VPOR, oloop)

// func median9AVX2(dst *byte, rows *[9]*byte, n int)
// dst[i] is the median of rows[0][i] … rows[8][i] (motion.go's median9), n a multiple of
// 32: the same exchange network on 32 pixels at once.
TEXT ·median9AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ rows+8(FP), AX
	MOVQ n+16(FP), CX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ 32(AX), R12
	MOVQ 40(AX), R13
	MOVQ 48(AX), R14
	MOVQ 56(AX), DX
	MOVQ 64(AX), SI
	XORQ BX, BX

#define SORT(a, b) VPMINUB a, b, Y15; VPMAXUB a, b, b; VMOVDQA Y15, a

mloop:
	VMOVDQU (R8)(BX*1), Y0
	VMOVDQU (R9)(BX*1), Y1
	VMOVDQU (R10)(BX*1), Y2
	VMOVDQU (R11)(BX*1), Y3
	VMOVDQU (R12)(BX*1), Y4
	VMOVDQU (R13)(BX*1), Y5
	VMOVDQU (R14)(BX*1), Y6
	VMOVDQU (DX)(BX*1), Y7
	VMOVDQU (SI)(BX*1), Y8
	SORT(Y1, Y2)
	SORT(Y4, Y5)
	SORT(Y7, Y8)
	SORT(Y0, Y1)
	SORT(Y3, Y4)
	SORT(Y6, Y7)
	SORT(Y1, Y2)
	SORT(Y4, Y5)
	SORT(Y7, Y8)
	VPMAXUB Y0, Y3, Y3
	VPMINUB Y5, Y8, Y5
	SORT(Y4, Y7)
	VPMAXUB Y3, Y6, Y6
	VPMAXUB Y1, Y4, Y4
	VPMINUB Y2, Y5, Y2
	VPMINUB Y4, Y7, Y4
	SORT(Y4, Y2)
	VPMAXUB Y6, Y4, Y4
	VPMINUB Y4, Y2, Y4
	VMOVDQU Y4, (DI)(BX*1)
	ADDQ    $32, BX
	CMPQ    BX, CX
	JLT     mloop
	VZEROUPPER
	RET

// func absDiffAVX2(dst, a, b *byte, n int)
// dst[i] = |a[i] − b[i]| for i < n, n a multiple of 32.
TEXT ·absDiffAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX

dloop:
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU (DX)(AX*1), Y1
	VPSUBUSB Y1, Y0, Y2
	VPSUBUSB Y0, Y1, Y3
	VPOR     Y3, Y2, Y2
	VMOVDQU  Y2, (DI)(AX*1)
	ADDQ     $32, AX
	CMPQ     AX, CX
	JLT      dloop
	VZEROUPPER
	RET

// The structure tensor's rows for points.go's minEigen: float32 operations in the Go
// code's order, no FMA, so that every value is the Go code's.

VEC4X2(deint<>, $0x0000000200000000, $0x0000000600000004, $0x0000000300000001, $0x0000000700000005)

DATA f32nd<>+0x00(SB)/4, $0x3d000000 // 1/32
DATA f32nd<>+0x04(SB)/4, $0x41100000 // 9
DATA f32nd<>+0x08(SB)/4, $0x3f000000 // 1/2
DATA f32nd<>+0x0c(SB)/4, $0x3e800000 // 1/4
GLOBL f32nd<>(SB), (NOPTR+RODATA), $16

// func productsAVX2(p *float32, d *int16, n, w int)
// p's three runs of w (gx², gx·gy, gy²) from the interleaved derivatives d scaled by 1/32,
// for the first n pixels, n a multiple of 8.
TEXT ·productsAVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), DI
	MOVQ         d+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         w+24(FP), DX
	SHLQ         $2, DX
	VBROADCASTSS f32nd<>+0(SB), Y15
	VMOVDQU      deint<>(SB), Y14

ploop:
	VPMOVSXWD  (SI), Y0
	VPMOVSXWD  16(SI), Y1
	VCVTDQ2PS  Y0, Y0
	VCVTDQ2PS  Y1, Y1
	VMULPS     Y15, Y0, Y0
	VMULPS     Y15, Y1, Y1
	VPERMD     Y0, Y14, Y0
	VPERMD     Y1, Y14, Y1
	VPERM2I128 $0x20, Y1, Y0, Y2
	VPERM2I128 $0x31, Y1, Y0, Y3
	VMULPS     Y2, Y2, Y4
	VMULPS     Y3, Y2, Y5
	VMULPS     Y3, Y3, Y6
	VMOVUPS    Y4, (DI)
	VMOVUPS    Y5, (DI)(DX*1)
	VMOVUPS    Y6, (DI)(DX*2)
	ADDQ       $32, SI
	ADDQ       $32, DI
	SUBQ       $8, CX
	JNZ        ploop
	VZEROUPPER
	RET

// func hsumAVX2(o, r *float32, n int)
// o[i] = r[i] + r[i+1] + r[i+2] for i < n, n a multiple of 8.
TEXT ·hsumAVX2(SB), NOSPLIT, $0-24
	MOVQ o+0(FP), DI
	MOVQ r+8(FP), SI
	MOVQ n+16(FP), CX

sumloop:
	VMOVUPS (SI), Y0
	VADDPS  4(SI), Y0, Y0
	VADDPS  8(SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     sumloop
	VZEROUPPER
	RET

// func eigenAVX2(e, a, b, c *float32, n, w int)
// e[i], i < n (a multiple of 8): the smaller eigenvalue of the mean of the sums in the three
// rows a, b, c (each three runs of w: xx, xy, yy).
TEXT ·eigenAVX2(SB), NOSPLIT, $0-48
	MOVQ         e+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), R8
	MOVQ         c+24(FP), R9
	MOVQ         n+32(FP), CX
	MOVQ         w+40(FP), DX
	SHLQ         $2, DX
	VBROADCASTSS f32nd<>+4(SB), Y13
	VBROADCASTSS f32nd<>+8(SB), Y12
	VBROADCASTSS f32nd<>+12(SB), Y11

eloop:
	VMOVUPS (SI), Y0
	VADDPS  (R8), Y0, Y0
	VADDPS  (R9), Y0, Y0
	VDIVPS  Y13, Y0, Y0             // xx
	VMOVUPS (SI)(DX*1), Y1
	VADDPS  (R8)(DX*1), Y1, Y1
	VADDPS  (R9)(DX*1), Y1, Y1
	VDIVPS  Y13, Y1, Y1             // xy
	VMOVUPS (SI)(DX*2), Y2
	VADDPS  (R8)(DX*2), Y2, Y2
	VADDPS  (R9)(DX*2), Y2, Y2
	VDIVPS  Y13, Y2, Y2             // yy
	VADDPS  Y2, Y0, Y3
	VMULPS  Y12, Y3, Y3             // (xx + yy)/2
	VSUBPS  Y2, Y0, Y4
	VMULPS  Y4, Y4, Y4
	VMULPS  Y11, Y4, Y4             // (xx − yy)²/4
	VMULPS  Y1, Y1, Y5
	VADDPS  Y5, Y4, Y4
	VSQRTPS Y4, Y4
	VSUBPS  Y4, Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     eloop
	VZEROUPPER
	RET

// func box5AVX2(s *uint16, p *byte, n int)
// s[i] = p[i] + … + p[i+4] for i < n, n a multiple of 16.
TEXT ·box5AVX2(SB), NOSPLIT, $0-24
	MOVQ s+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX

bloop:
	VPMOVZXBW (SI), Y0
	VPMOVZXBW 1(SI), Y1
	VPMOVZXBW 2(SI), Y2
	VPMOVZXBW 3(SI), Y3
	VPMOVZXBW 4(SI), Y4
	VPADDW    Y1, Y0, Y0
	VPADDW    Y3, Y2, Y2
	VPADDW    Y4, Y0, Y0
	VPADDW    Y2, Y0, Y0
	VMOVDQU   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $16, CX
	JNZ       bloop
	VZEROUPPER
	RET

// func colMeanAVX2(out *byte, rows **uint16, k int, m *uint32, n int)
// out[i] = (Σ rows[j][i], j < k) · m[i] >> 24 for i < n, n a multiple of 8, k ≥ 1.
TEXT ·colMeanAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ k+16(FP), R8
	MOVQ m+24(FP), DX
	MOVQ n+32(FP), CX
	XORQ AX, AX          // byte offset of the 16-bit sums

cloop:
	MOVQ    SI, R9
	MOVQ    R8, R10
	VPXOR   X0, X0, X0

csum:
	MOVQ    (R9), R11
	VPADDW  (R11)(AX*1), X0, X0
	ADDQ    $8, R9
	DECQ    R10
	JNZ     csum

	VPMOVZXWD  X0, Y0
	VPMULLD    (DX)(AX*2), Y0, Y0
	VPSRLD     $24, Y0, Y0
	VPACKUSDW  Y0, Y0, Y0
	VPERMQ     $0x08, Y0, Y0
	VPACKUSWB  X0, X0, X0
	VMOVQ      X0, (DI)
	ADDQ       $8, DI
	ADDQ       $16, AX
	SUBQ       $8, CX
	JNZ        cloop
	VZEROUPPER
	RET

// pyrDown's filters (lk.go): [1 4 6 4 1] along a row, keeping every other pixel, as three
// pairs of taps; then down five rows, rounded and divided by 256.
VEC8(taps14<>, $0x0401040104010401)

VEC8(taps64<>, $0x0406040604060406)

VEC8(taps10<>, $0x0001000100010001)

VEC8(w128<>, $0x0080008000800080)

// func pyrRowsAVX2(out *uint16, row *byte, n int)
// out[x] = row[2x] + 4·row[2x+1] + 6·row[2x+2] + 4·row[2x+3] + row[2x+4] for x < n, n a
// multiple of 16 (row read up to 2n+3).
TEXT ·pyrRowsAVX2(SB), NOSPLIT, $0-24
	MOVQ    out+0(FP), DI
	MOVQ    row+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVDQU taps14<>(SB), Y13
	VMOVDQU taps64<>(SB), Y14
	VMOVDQU taps10<>(SB), Y15

prloop:
	VMOVDQU    (SI), Y0
	VMOVDQU    2(SI), Y1
	VMOVDQU    4(SI), Y2
	VPMADDUBSW Y13, Y0, Y0
	VPMADDUBSW Y14, Y1, Y1
	VPMADDUBSW Y15, Y2, Y2
	VPADDW     Y1, Y0, Y0
	VPADDW     Y2, Y0, Y0
	VMOVDQU    Y0, (DI)
	ADDQ       $32, SI
	ADDQ       $32, DI
	SUBQ       $16, CX
	JNZ        prloop
	VZEROUPPER
	RET

// func pyrColsAVX2(o *byte, r0, r1, r2, r3, r4 *uint16, n int)
// o[x] = (r0[x] + 4·r1[x] + 6·r2[x] + 4·r3[x] + r4[x] + 128) >> 8 for x < n, n a multiple
// of 16 (the sum fits 16 bits unsigned).
TEXT ·pyrColsAVX2(SB), NOSPLIT, $0-56
	MOVQ    o+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    r2+24(FP), R8
	MOVQ    r3+32(FP), R9
	MOVQ    r4+40(FP), R10
	MOVQ    n+48(FP), CX
	VMOVDQU w128<>(SB), Y15
	XORQ    AX, AX

pcloop:
	VMOVDQU   (SI)(AX*2), Y0
	VPADDW    (R10)(AX*2), Y0, Y0
	VMOVDQU   (DX)(AX*2), Y1
	VPADDW    (R9)(AX*2), Y1, Y1
	VPSLLW    $2, Y1, Y1
	VMOVDQU   (R8)(AX*2), Y2
	VPSLLW    $1, Y2, Y3
	VPSLLW    $2, Y2, Y2
	VPADDW    Y3, Y2, Y2
	VPADDW    Y1, Y0, Y0
	VPADDW    Y2, Y0, Y0
	VPADDW    Y15, Y0, Y0
	VPSRLW    $8, Y0, Y0
	VPACKUSWB Y0, Y0, Y0
	VPERMQ    $0x08, Y0, Y0
	VMOVDQU   X0, (DI)(AX*1)
	ADDQ      $16, AX
	CMPQ      AX, CX
	JLT       pcloop
	VZEROUPPER
	RET

// func binarizeAVX2(mask, p *byte, n int, t, flip byte)
// mask[i] = (p[i] > t) xor flip, 0 or 1, for i < n (a multiple of 32):
// min(p − t saturated, 1).
TEXT ·binarizeAVX2(SB), NOSPLIT, $0-26
	MOVQ         mask+0(FP), DI
	MOVQ         p+8(FP), SI
	MOVQ         n+16(FP), CX
	VPBROADCASTB t+24(FP), Y1
	VPBROADCASTB flip+25(FP), Y3
	VMOVDQU      onesB<>(SB), Y2
	XORQ         AX, AX

zloop:
	VMOVDQU  (SI)(AX*1), Y0
	VPSUBUSB Y1, Y0, Y0
	VPMINUB  Y2, Y0, Y0
	VPXOR    Y3, Y0, Y0
	VMOVDQU  Y0, (DI)(AX*1)
	ADDQ     $32, AX
	CMPQ     AX, CX
	JLT      zloop
	VZEROUPPER
	RET
