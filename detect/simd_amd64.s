//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of letterbox.go's filter passes: the Go code's arithmetic, in its order, 8
// samples a step; the Go code does what is left of a row. simd_amd64_test.go checks them
// against the Go code.

// verticalAVX2 sets dst[x], x < n (a multiple of 8), to w[0]·src[x], then adds
// w[k]·src[k·stride + x] for k = 1 … taps−1 in turn.
// func verticalAVX2(dst *float32, src *byte, stride int, w *float32, taps int, n int)
TEXT ·verticalAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ w+24(FP), R8
	MOVQ taps+32(FP), R9
	MOVQ n+40(FP), CX
	VBROADCASTSS (R8), Y4
	XORQ AX, AX

column:
	VPMOVZXBD    (SI)(AX*1), Y0
	VCVTDQ2PS    Y0, Y0
	VMULPS       Y4, Y0, Y0
	LEAQ         (SI)(AX*1), R10
	MOVQ         $1, R11

tap:
	CMPQ         R11, R9
	JGE          store
	ADDQ         DX, R10
	VPMOVZXBD    (R10), Y2
	VCVTDQ2PS    Y2, Y2
	VBROADCASTSS (R8)(R11*4), Y3
	VMULPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	INCQ         R11
	JMP          tap

store:
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ    $8, AX
	CMPQ    AX, CX
	JLT     column
	VZEROUPPER
	RET

// PRODUCTS8 loads output j's 8 samples from its start and multiplies them by its 8
// weights, into register r.
#define PRODUCTS8(j, r) \
	MOVLQSX (j*4)(DX)(AX*4), R9; \
	VMOVUPS (SI)(R9*4), r; \
	VMULPS  (j*32)(R8), r, r

// horizontal8AVX2 sets dst[i], i < n (a multiple of 8), to the sum of the 8 products
// w[i][k]·src[start[i] + k], in pairs: ((p0+p1)+(p2+p3))+((p4+p5)+(p6+p7)). Eight outputs
// a step: their products' pairs are added by VHADDPS twice, which leaves each output's
// first and second four in the two halves of a register, and the halves are added.
// func horizontal8AVX2(dst *float32, src *float32, start *int32, w *[8]float32, n int)
TEXT ·horizontal8AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ start+16(FP), DX
	MOVQ w+24(FP), R8
	MOVQ n+32(FP), CX
	XORQ AX, AX

outputs:
	PRODUCTS8(0, Y0)
	PRODUCTS8(1, Y1)
	PRODUCTS8(2, Y2)
	PRODUCTS8(3, Y3)
	PRODUCTS8(4, Y4)
	PRODUCTS8(5, Y5)
	PRODUCTS8(6, Y6)
	PRODUCTS8(7, Y7)
	VHADDPS    Y1, Y0, Y0
	VHADDPS    Y3, Y2, Y2
	VHADDPS    Y5, Y4, Y4
	VHADDPS    Y7, Y6, Y6
	VHADDPS    Y2, Y0, Y0
	VHADDPS    Y6, Y4, Y4
	VPERM2F128 $0x20, Y4, Y0, Y1
	VPERM2F128 $0x31, Y4, Y0, Y2
	VADDPS     Y2, Y1, Y1
	VMOVUPS    Y1, (DI)(AX*4)
	ADDQ       $256, R8
	ADDQ       $8, AX
	CMPQ       AX, CX
	JLT        outputs
	VZEROUPPER
	RET

DATA  f255<>+0(SB)/4, $255.0
GLOBL f255<>(SB), (NOPTR+RODATA), $4

// CLAMP255 holds register r to 0..255 as Go's min(max(r, 0), 255) does: VMAXPS returns its
// second source, +0, where both are zeros.
#define CLAMP255(r) \
	VMAXPS Y15, r, r; \
	VMINPS Y7, r, r

// toRGBAVX2 is ycbcrToRGB.rows for x < n (a multiple of 8): yy = (y − yOff)·yScale,
// u = cb − cOff, v = cr − cOff; r = yy + rCr·v, g = (yy + gCb·u) + gCr·v, b = yy + bCb·u,
// each clamped to 0..255. k's fields, in order: yOff, yScale, cOff, rCr, gCb, gCr, bCb.
// func toRGBAVX2(rOut, gOut, bOut, y, cb, cr *float32, k *ycbcrToRGB, n int)
TEXT ·toRGBAVX2(SB), NOSPLIT, $0-64
	MOVQ         rOut+0(FP), DI
	MOVQ         gOut+8(FP), R10
	MOVQ         bOut+16(FP), R11
	MOVQ         y+24(FP), SI
	MOVQ         cb+32(FP), DX
	MOVQ         cr+40(FP), R8
	MOVQ         k+48(FP), R9
	MOVQ         n+56(FP), CX
	VBROADCASTSS 0(R9), Y8
	VBROADCASTSS 4(R9), Y9
	VBROADCASTSS 8(R9), Y10
	VBROADCASTSS 12(R9), Y11
	VBROADCASTSS 16(R9), Y12
	VBROADCASTSS 20(R9), Y13
	VBROADCASTSS 24(R9), Y14
	VBROADCASTSS f255<>(SB), Y7
	VXORPS       Y15, Y15, Y15
	XORQ         AX, AX

pixels:
	VMOVUPS (SI)(AX*4), Y0
	VSUBPS  Y8, Y0, Y0
	VMULPS  Y9, Y0, Y0
	VMOVUPS (DX)(AX*4), Y1
	VSUBPS  Y10, Y1, Y1
	VMOVUPS (R8)(AX*4), Y2
	VSUBPS  Y10, Y2, Y2
	VMULPS  Y11, Y2, Y3
	VADDPS  Y3, Y0, Y3
	CLAMP255(Y3)
	VMOVUPS Y3, (DI)(AX*4)
	VMULPS  Y12, Y1, Y4
	VADDPS  Y4, Y0, Y4
	VMULPS  Y13, Y2, Y5
	VADDPS  Y5, Y4, Y4
	CLAMP255(Y4)
	VMOVUPS Y4, (R10)(AX*4)
	VMULPS  Y14, Y1, Y6
	VADDPS  Y6, Y0, Y6
	CLAMP255(Y6)
	VMOVUPS Y6, (R11)(AX*4)
	ADDQ    $8, AX
	CMPQ    AX, CX
	JLT     pixels
	VZEROUPPER
	RET
