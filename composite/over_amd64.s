//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of lumaRow and chromaRow (over.go). Each does the Go code's float32 operations
// in the Go code's order, one lane per pixel (luma) or 2×2 block (chroma), and no FMA, so
// that the results are the same bits; over_simd_test.go checks that. Lanes whose alpha is 0
// (which lumaRow and chromaRow skip) write back the sample they read. Both zero the planes
// they are done with, as their twins do: the chroma blend Cb and Cr, the luma blend luma and
// alpha (so it runs after the chroma blend).
//
// The tile's planes are planar FP32, so 8 neighbouring pixels of one channel are one load.

// Byte offsets within a tile (over.go's planeStride and rowStride, times 4).
#define PLANE 16384
#define ROW 256

DATA ones<>+0x00(SB)/8, $0x3f8000003f800000
DATA ones<>+0x08(SB)/8, $0x3f8000003f800000
DATA ones<>+0x10(SB)/8, $0x3f8000003f800000
DATA ones<>+0x18(SB)/8, $0x3f8000003f800000
GLOBL ones<>(SB), (NOPTR+RODATA), $32

DATA halves<>+0x00(SB)/8, $0x3f0000003f000000
DATA halves<>+0x08(SB)/8, $0x3f0000003f000000
DATA halves<>+0x10(SB)/8, $0x3f0000003f000000
DATA halves<>+0x18(SB)/8, $0x3f0000003f000000
GLOBL halves<>(SB), (NOPTR+RODATA), $32

DATA maxByte<>+0x00(SB)/8, $0x437f0000437f0000
DATA maxByte<>+0x08(SB)/8, $0x437f0000437f0000
DATA maxByte<>+0x10(SB)/8, $0x437f0000437f0000
DATA maxByte<>+0x18(SB)/8, $0x437f0000437f0000
GLOBL maxByte<>(SB), (NOPTR+RODATA), $32

// lowByte is 0xff in each int32 lane: an NV12 Cb sample out of a (Cb | Cr<<8) lane.
DATA lowByte<>+0x00(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x08(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x10(SB)/8, $0x000000ff000000ff
DATA lowByte<>+0x18(SB)/8, $0x000000ff000000ff
GLOBL lowByte<>(SB), (NOPTR+RODATA), $32

// CONSTANTS loads the registers BLEND uses: Y15 = 1, Y14 = 0.5, Y13 = 255, Y12 = 0.
#define CONSTANTS \
	VMOVUPS ones<>(SB), Y15; \
	VMOVUPS halves<>(SB), Y14; \
	VMOVUPS maxByte<>(SB), Y13; \
	VXORPS  Y12, Y12, Y12

// BLEND is blend on 8 lanes: s (samples, int32) = m ? s : min(max(c + (1 − a)·s + 0.5, 0),
// 255) truncated to int32, in blend's order. t and k are clobbered.
#define BLEND(s, c, a, m, t, k) \
	VCVTDQ2PS  s, t; \
	VSUBPS     a, Y15, k; \
	VMULPS     t, k, t; \
	VADDPS     t, c, t; \
	VADDPS     Y14, t, t; \
	VMAXPS     Y12, t, t; \
	VMINPS     Y13, t, t; \
	VCVTTPS2DQ t, t; \
	VPBLENDVB  m, s, t, s

// PACK8 saturates the 8 int32 lanes of v to bytes, in the low 8 bytes of v's XMM half x.
// tx (an XMM register) is clobbered.
#define PACK8(v, x, tx) \
	VEXTRACTI128 $1, v, tx; \
	VPACKSSDW    tx, x, x; \
	VPACKUSWB    x, x, x

// func lumaAVX2(dst *byte, c *float32, groups int)
TEXT ·lumaAVX2(SB), NOSPLIT, $0-24
	MOVQ  dst+0(FP), DI
	MOVQ  c+8(FP), SI
	MOVQ  groups+16(FP), CX
	TESTQ CX, CX
	JLE   lumaDone
	CONSTANTS

lumaLoop:
	VMOVUPS   (SI), Y0          // luma
	VMOVUPS   3*PLANE(SI), Y1   // alpha
	VMOVUPS   Y12, (SI)         // both cleared for the next tile
	VMOVUPS   Y12, 3*PLANE(SI)
	VCMPPS    $0, Y12, Y1, Y2   // the lanes to keep: alpha == 0
	VPMOVZXBD (DI), Y3
	BLEND(Y3, Y0, Y1, Y2, Y4, Y5)
	PACK8(Y3, X3, X4)
	VMOVQ     X3, (DI)
	ADDQ      $32, SI
	ADDQ      $8, DI
	DECQ      CX
	JNZ       lumaLoop
	VZEROUPPER

lumaDone:
	RET

// BLOCKS sets s to the sums of the 8 blocks of one plane (at byte offset off from SI), as
// chromaRow adds them: (top left + bottom left) + (top right + bottom right). The pixels'
// column sums are added in pairs by VHADDPS, which interleaves the two registers' 128-bit
// halves; VPERMPD puts the blocks back in order. t is clobbered.
#define BLOCKS(off, s, t) \
	VMOVUPS off(SI), s; \
	VADDPS  off+ROW(SI), s, s; \
	VMOVUPS off+32(SI), t; \
	VADDPS  off+ROW+32(SI), t, t; \
	VHADDPS t, s, s; \
	VPERMPD $0xd8, s, s

// ZERO clears the group's pixels of one plane (at byte offset off from SI), both rows.
#define ZERO(off) \
	VMOVUPS Y12, off(SI); \
	VMOVUPS Y12, off+32(SI); \
	VMOVUPS Y12, off+ROW(SI); \
	VMOVUPS Y12, off+ROW+32(SI)

// func chromaAVX2(u, v *byte, step int, cb *float32, groups int, mean float32)
//
// A group is 8 blocks: 16 pixels of two rows in each of the Cb, Cr and alpha planes, and 8 Cb
// and 8 Cr samples (8 bytes at u and 8 at v, or with step 2 16 interleaved bytes at u).
//
// YMM registers:
//
//	Y0	Cb sums, then means		Y3	Cb samples
//	Y1	Cr sums, then means		Y4	Cr samples
//	Y2	alpha sums, then means		Y5-Y7	scratch
//	Y8	mean				Y9	the blocks to keep: alpha sum == 0
//	Y12-Y15	BLEND's constants
TEXT ·chromaAVX2(SB), NOSPLIT, $0-44
	MOVQ  u+0(FP), DI
	MOVQ  v+8(FP), DX
	MOVQ  step+16(FP), BX
	MOVQ  cb+24(FP), SI
	MOVQ  groups+32(FP), CX
	TESTQ CX, CX
	JLE   chromaDone
	CONSTANTS
	VBROADCASTSS mean+40(FP), Y8

	// R9 = 8·step, the bytes from one group's samples to the next's.
	MOVQ BX, R9
	SHLQ $3, R9

chromaLoop:
	BLOCKS(0, Y0, Y5)
	BLOCKS(PLANE, Y1, Y5)
	BLOCKS(2*PLANE, Y2, Y5)
	ZERO(0)
	ZERO(PLANE)
	VCMPPS $0, Y12, Y2, Y9
	VMULPS Y8, Y0, Y0
	VMULPS Y8, Y1, Y1
	VMULPS Y8, Y2, Y2

	CMPQ      BX, $2
	JEQ       chromaLoadNV12
	VPMOVZXBD (DI), Y3
	VPMOVZXBD (DX), Y4
	JMP       chromaBlend

chromaLoadNV12:
	VPMOVZXWD (DI), Y3 // Cb | Cr<<8
	VPSRLD    $8, Y3, Y4
	VPAND     lowByte<>(SB), Y3, Y3

chromaBlend:
	BLEND(Y3, Y0, Y2, Y9, Y5, Y6)
	BLEND(Y4, Y1, Y2, Y9, Y5, Y6)
	PACK8(Y3, X3, X5)
	PACK8(Y4, X4, X5)
	CMPQ  BX, $2
	JEQ   chromaStoreNV12
	VMOVQ X3, (DI)
	VMOVQ X4, (DX)
	JMP   chromaNext

chromaStoreNV12:
	VPUNPCKLBW X4, X3, X3 // Cb0 Cr0 Cb1 Cr1 …
	VMOVDQU    X3, (DI)

chromaNext:
	ADDQ $64, SI
	ADDQ R9, DI
	ADDQ R9, DX
	DECQ CX
	JNZ  chromaLoop
	VZEROUPPER

chromaDone:
	RET
