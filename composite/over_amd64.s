//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of lumaRow and chromaRow (over.go). Each does the Go code's float32 operations
// in the Go code's order, one lane per pixel (luma) or 2×2 block (chroma), and no FMA, so
// that the results are the same bits; over_amd64_test.go checks that.
//
// Both take groups of 8 lanes and a lane range [lo, hi): the lanes outside it, and those whose
// alpha is 0 (which lumaRow and chromaRow skip), write back the sample they read.
//
// The tile's pixels are interleaved RGBA; 8 of them are loaded as four YMM registers of two
// pixels each, [p0 p4] [p1 p5] [p2 p6] [p3 p7], and a 4×4 transpose within each 128-bit half
// turns those into R, G, B and A registers with the lanes in pixel order.

// lanes are the lane numbers 0..7, in int32.
DATA lanes<>+0x00(SB)/8, $0x0000000100000000
DATA lanes<>+0x08(SB)/8, $0x0000000300000002
DATA lanes<>+0x10(SB)/8, $0x0000000500000004
DATA lanes<>+0x18(SB)/8, $0x0000000700000006
GLOBL lanes<>(SB), (NOPTR+RODATA), $32

// eight is 8 in each int32 lane: lanes advanced by one group.
DATA eight<>+0x00(SB)/8, $0x0000000800000008
DATA eight<>+0x08(SB)/8, $0x0000000800000008
DATA eight<>+0x10(SB)/8, $0x0000000800000008
DATA eight<>+0x18(SB)/8, $0x0000000800000008
GLOBL eight<>(SB), (NOPTR+RODATA), $32

// half is one/2 = 0x8000 in each int32 lane: blend16's rounding.
DATA half<>+0x00(SB)/8, $0x0000800000008000
DATA half<>+0x08(SB)/8, $0x0000800000008000
DATA half<>+0x10(SB)/8, $0x0000800000008000
DATA half<>+0x18(SB)/8, $0x0000800000008000
GLOBL half<>(SB), (NOPTR+RODATA), $32

// lowByte is 0xff in each int32 lane: an NV12 Cb sample out of a (Cb | Cr<<8) lane.
DATA lowByte<>+0x00(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x08(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x10(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x18(SB)/8, $0x000000ff000000ff
GLOBL lowByte<>(SB), (NOPTR+RODATA), $32

// TRANSPOSE turns Y0..Y3 = [p0 p4] [p1 p5] [p2 p6] [p3 p7] (RGBA each) into
// Y3 = R, Y4 = G, Y1 = B, Y0 = A, lane i holding pixel i. Y2 is left free.
#define TRANSPOSE \
	VUNPCKLPS Y1, Y0, Y4 /* r0 r1 g0 g1 */; \
	VUNPCKHPS Y1, Y0, Y0 /* b0 b1 a0 a1 */; \
	VUNPCKLPS Y3, Y2, Y1 /* r2 r3 g2 g3 */; \
	VUNPCKHPS Y3, Y2, Y2 /* b2 b3 a2 a3 */; \
	VUNPCKLPD Y1, Y4, Y3 /* r0 r1 r2 r3 */; \
	VUNPCKHPD Y1, Y4, Y4 /* g0 g1 g2 g3 */; \
	VUNPCKLPD Y2, Y0, Y1 /* b0 b1 b2 b3 */; \
	VUNPCKHPD Y2, Y0, Y0 /* a0 a1 a2 a3 */

// BLENDMASK sets mask to all ones in the lanes to blend: alpha (a) is not 0 (a NaN alpha
// blends, as in Go) and lo (Y8) ≤ lane (Y7) < hi (Y9). tmp is clobbered.
#define BLENDMASK(a, mask, tmp) \
	VXORPS    mask, mask, mask; \
	VCMPPS    $0, mask, a, mask /* a == 0 */; \
	VPCMPGTD  Y7, Y8, tmp /* lo > lane */; \
	VPOR      tmp, mask, mask; \
	VPCMPGTD  Y7, Y9, tmp /* hi > lane */; \
	VPANDN    tmp, mask, mask /* not skipped, and below hi */

// BLEND16 is blend16 on 8 lanes: dst = mask ? (dst·onema + add + one/2) >> 16 : dst, in
// int32 (saturated by PACK8). onema holds one − α; t is clobbered.
#define BLEND16(dst, onema, add, mask, t) \
	VPMULLD   dst, onema, t; \
	VPADDD    add, t, t; \
	VPADDD    half<>(SB), t, t; \
	VPSRAD    $16, t, t; \
	VPBLENDVB mask, t, dst, dst

// PACK8 saturates the 8 int32 lanes of v to bytes, in the low 8 bytes of v's XMM half x.
// tx (an XMM register) is clobbered.
#define PACK8(v, x, tx) \
	VEXTRACTI128 $1, v, tx; \
	VPACKSSDW    tx, x, x; \
	VPACKUSWB    x, x, x

// ----------------------------------------------------------------------------

// func lumaAVX2(dst *byte, src *float32, groups, lo, hi int, k *lumaCoeffs)
//
// YMM registers:
//
//	Y0-Y6	scratch
//	Y7	lane: the pixel numbers of this group, from the first of dst
//	Y8	lo
//	Y9	hi
//	Y10	one, as float32 (α in 16.16 is a·one)
//	Y11	one, as int32
//	Y12-Y15	k.off, k.r, k.g, k.b
TEXT ·lumaAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ k+40(FP), AX
	TESTQ CX, CX
	JLE  lumaDone

	VMOVDQU      lanes<>(SB), Y7
	MOVQ         lo+24(FP), BX
	VMOVD        BX, X8
	VPBROADCASTD X8, Y8
	MOVQ         hi+32(FP), BX
	VMOVD        BX, X9
	VPBROADCASTD X9, Y9
	MOVL         $0x47800000, BX // 65536.0
	VMOVD        BX, X10
	VBROADCASTSS X10, Y10
	MOVL         $0x10000, BX
	VMOVD        BX, X11
	VPBROADCASTD X11, Y11
	VBROADCASTSS 0(AX), Y12
	VBROADCASTSS 4(AX), Y13
	VBROADCASTSS 8(AX), Y14
	VBROADCASTSS 12(AX), Y15

lumaLoop:
	// Load 8 pixels (128 bytes) as [p0 p4] [p1 p5] [p2 p6] [p3 p7], and transpose.
	VMOVUPS     0(SI), X0
	VINSERTF128 $1, 64(SI), Y0, Y0
	VMOVUPS     16(SI), X1
	VINSERTF128 $1, 80(SI), Y1, Y1
	VMOVUPS     32(SI), X2
	VINSERTF128 $1, 96(SI), Y2, Y2
	VMOVUPS     48(SI), X3
	VINSERTF128 $1, 112(SI), Y3, Y3
	TRANSPOSE

	// Y2 = int32(a·off + r·yR + g·yG + b·yB), added left to right as in lumaRow.
	VMULPS     Y12, Y0, Y2
	VMULPS     Y13, Y3, Y3
	VADDPS     Y3, Y2, Y2
	VMULPS     Y14, Y4, Y4
	VADDPS     Y4, Y2, Y2
	VMULPS     Y15, Y1, Y1
	VADDPS     Y1, Y2, Y2
	VCVTTPS2DQ Y2, Y2

	// Y1 = one − int32(a·one); Y5 = the lanes to blend.
	VMULPS     Y10, Y0, Y1
	VCVTTPS2DQ Y1, Y1
	VPSUBD     Y1, Y11, Y1
	BLENDMASK(Y0, Y5, Y6)

	// Blend the 8 luma samples and store them back.
	VPMOVZXBD (DI), Y0
	BLEND16(Y0, Y1, Y2, Y5, Y3)
	PACK8(Y0, X0, X3)
	VMOVQ     X0, (DI)

	VPADDD eight<>(SB), Y7, Y7
	ADDQ   $128, SI
	ADDQ   $8, DI
	DECQ   CX
	JNZ    lumaLoop

	VZEROUPPER

lumaDone:
	RET

// ----------------------------------------------------------------------------

// BLOCKS sums the 2×2 blocks q and q+4 of the group into s = [block q, block q+4], as
// chromaRow does: ((r0 left + r0 right) + r1 left) + r1 right. A block is 32 bytes of each
// row (two pixels), so block q+4 is 128 bytes on. Y14 is clobbered.
#define BLOCKS(off, s, x) \
	VMOVUPS     off(SI), x; \
	VINSERTF128 $1, off+128(SI), s, s; \
	VMOVUPS     off+16(SI), X14; \
	VINSERTF128 $1, off+144(SI), Y14, Y14; \
	VADDPS      Y14, s, s; \
	VMOVUPS     off(R8), X14; \
	VINSERTF128 $1, off+128(R8), Y14, Y14; \
	VADDPS      Y14, s, s; \
	VMOVUPS     off+16(R8), X14; \
	VINSERTF128 $1, off+144(R8), Y14, Y14; \
	VADDPS      Y14, s, s

// DOT sets d = int32(a·128·one + r·k[0] + g·k[4] + b·k[8]) (k the address of three
// coefficients), added left to right as in chromaRow, with R, G, B, A in Y3, Y4, Y1, Y0 and
// 128·one in Y12. Y14 is clobbered.
#define DOT(k, d) \
	VMULPS       Y12, Y0, d; \
	VBROADCASTSS k+0(AX), Y14; \
	VMULPS       Y14, Y3, Y14; \
	VADDPS       Y14, d, d; \
	VBROADCASTSS k+4(AX), Y14; \
	VMULPS       Y14, Y4, Y14; \
	VADDPS       Y14, d, d; \
	VBROADCASTSS k+8(AX), Y14; \
	VMULPS       Y14, Y1, Y14; \
	VADDPS       Y14, d, d; \
	VCVTTPS2DQ   d, d

// func chromaAVX2(u, v *byte, step int, r0, r1 *float32, groups, lo, hi int, k *chromaCoeffs)
//
// A group is 8 blocks: 16 pixels (256 bytes) of each of the rows r0 and r1, and 8 Cb and
// 8 Cr samples (8 bytes at u and 8 at v, or with step 2 16 interleaved bytes at u).
//
// YMM registers:
//
//	Y0-Y6, Y14, Y15	scratch
//	Y7	lane: the block numbers of this group, from the first of u
//	Y8	lo
//	Y9	hi
//	Y10	one, as float32
//	Y11	one, as int32
//	Y12	128·one, as float32: a·128·one is α·Y'_0 for chroma
//	Y13	k.mean
TEXT ·chromaAVX2(SB), NOSPLIT, $0-72
	MOVQ u+0(FP), DI
	MOVQ v+8(FP), DX
	MOVQ step+16(FP), BX
	MOVQ r0+24(FP), SI
	MOVQ r1+32(FP), R8
	MOVQ groups+40(FP), CX
	MOVQ k+64(FP), AX
	TESTQ CX, CX
	JLE  chromaDone

	// R9 = 8·step, the bytes from one group's samples to the next's.
	MOVQ BX, R9
	SHLQ $3, R9

	VMOVDQU      lanes<>(SB), Y7
	MOVQ         lo+48(FP), R10
	VMOVD        R10, X8
	VPBROADCASTD X8, Y8
	MOVQ         hi+56(FP), R10
	VMOVD        R10, X9
	VPBROADCASTD X9, Y9
	MOVL         $0x47800000, R10 // 65536.0
	VMOVD        R10, X10
	VBROADCASTSS X10, Y10
	MOVL         $0x10000, R10
	VMOVD        R10, X11
	VPBROADCASTD X11, Y11
	MOVL         $0x4b000000, R10 // 128·65536.0
	VMOVD        R10, X12
	VBROADCASTSS X12, Y12
	VBROADCASTSS 24(AX), Y13

chromaLoop:
	// Sum the 8 blocks as [b0 b4] [b1 b5] [b2 b6] [b3 b7], and transpose.
	BLOCKS(0, Y0, X0)
	BLOCKS(32, Y1, X1)
	BLOCKS(64, Y2, X2)
	BLOCKS(96, Y3, X3)
	TRANSPOSE

	// Y5 = the blocks to blend (chromaRow tests the sum of the alphas, before the mean).
	BLENDMASK(Y0, Y5, Y6)

	// The means; Y6 = one − int32(a·one).
	VMULPS     Y13, Y3, Y3
	VMULPS     Y13, Y4, Y4
	VMULPS     Y13, Y1, Y1
	VMULPS     Y13, Y0, Y0
	VMULPS     Y10, Y0, Y6
	VCVTTPS2DQ Y6, Y6
	VPSUBD     Y6, Y11, Y6

	// Y2 = the Cb term, Y15 = the Cr term.
	DOT(0, Y2)
	DOT(12, Y15)

	// Y0 = the Cb samples, Y1 = the Cr samples.
	CMPQ      BX, $2
	JEQ       chromaLoadNV12
	VPMOVZXBD (DI), Y0
	VPMOVZXBD (DX), Y1
	JMP       chromaBlend

chromaLoadNV12:
	VPMOVZXWD (DI), Y0 // Cb | Cr<<8
	VPSRLD    $8, Y0, Y1
	VPAND     lowByte<>(SB), Y0, Y0

chromaBlend:
	BLEND16(Y0, Y6, Y2, Y5, Y3)
	BLEND16(Y1, Y6, Y15, Y5, Y4)
	PACK8(Y0, X0, X3)
	PACK8(Y1, X1, X4)
	CMPQ  BX, $2
	JEQ   chromaStoreNV12
	VMOVQ X0, (DI)
	VMOVQ X1, (DX)
	JMP   chromaNext

chromaStoreNV12:
	VPUNPCKLBW X1, X0, X0 // Cb0 Cr0 Cb1 Cr1 …
	VMOVDQU    X0, (DI)

chromaNext:
	VPADDD eight<>(SB), Y7, Y7
	ADDQ   $256, SI
	ADDQ   $256, R8
	ADDQ   R9, DI
	ADDQ   R9, DX
	DECQ   CX
	JNZ    chromaLoop

	VZEROUPPER

chromaDone:
	RET
