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

VEC8(ones<>, $0x3f8000003f800000)

VEC8(halves<>, $0x3f0000003f000000)

VEC8(maxByte<>, $0x437f0000437f0000)

// lowByte is 0xff in each int32 lane: an NV12 Cb sample out of a (Cb | Cr<<8) lane.
VEC8(lowByte<>, $0x000000ff000000ff)

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

// func lumaTileAVX2(dst *byte, stride int, c *float32, spans *Span, h, w int)
//
// Row by row: the span [x0, x1) is widened to groups = ⌈(x1 − x0)/8⌉ groups from
// w0 = min(x0, w − 8·groups) (≥ 0: w is a multiple of 8), then blended 8 pixels a group.
TEXT ·lumaTileAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), R10 // the row's first sample
	MOVQ c+16(FP), R12  // the row's first luma
	MOVQ spans+24(FP), R8
	MOVQ h+32(FP), R13
	CONSTANTS

lumaRow:
	MOVL    (R8), AX
	MOVL    4(R8), BX
	CMPL    AX, BX
	JGE     lumaNext
	MOVQ    BX, CX
	SUBQ    AX, CX
	ADDQ    $7, CX
	SHRQ    $3, CX
	MOVQ    w+40(FP), DX
	MOVQ    CX, R9
	SHLQ    $3, R9
	SUBQ    R9, DX
	CMPQ    AX, DX
	CMOVQLT AX, DX
	LEAQ    (R10)(DX*1), DI
	LEAQ    (R12)(DX*4), SI

lumaGroup:
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
	JNZ       lumaGroup

lumaNext:
	ADDQ $8, R8
	ADDQ stride+8(FP), R10
	ADDQ $ROW, R12
	DECQ R13
	JNZ  lumaRow
	VZEROUPPER
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

DATA quarters<>+0x00(SB)/4, $0x3e800000 // 0.25
GLOBL quarters<>(SB), (NOPTR+RODATA), $4

// func chromaTileAVX2(u, v *byte, uStride, vStride, step int, cb *float32, spans *Span, h, w int)
//
// Pair of rows by pair of rows: the union of the two spans (the second row only when it is
// in the tile) gives the blocks [b0, b1), widened to groups = ⌈(b1 − b0)/8⌉ groups from
// w0 = min(b0, w/2 − 8·groups); the blocks' sums are scaled by ¼, or ½ for a lone last row.
// A group is 8 blocks: 16 pixels of two rows in each of the Cb, Cr and alpha planes, and 8
// Cb and 8 Cr samples (8 bytes at u and 8 at v, or with step 2 16 interleaved bytes at u).
//
// YMM registers:
//
//	Y0	Cb sums, then means		Y3	Cb samples
//	Y1	Cr sums, then means		Y4	Cr samples
//	Y2	alpha sums, then means		Y5-Y7	scratch
//	Y8	the row pair's mean		Y9	the blocks to keep: alpha sum == 0
//	Y10	¼				Y11	½
//	Y12-Y15	BLEND's constants
TEXT ·chromaTileAVX2(SB), NOSPLIT, $0-72
	MOVQ         u+0(FP), R10 // the chroma row's first samples
	MOVQ         v+8(FP), R11
	MOVQ         step+32(FP), BX
	MOVQ         cb+40(FP), R12 // the row pair's first Cb
	MOVQ         spans+48(FP), R8
	MOVQ         h+56(FP), R13
	CONSTANTS
	VBROADCASTSS quarters<>(SB), Y10
	VMOVUPS      halves<>(SB), Y11
	XORQ         R14, R14 // the pair's first row

	// R9 = 8·step, the bytes from one group's samples to the next's.
	MOVQ BX, R9
	SHLQ $3, R9

chromaRowPair:
	MOVL (R8), AX // the union of the spans in [AX, DX)
	MOVL 4(R8), DX
	LEAQ 1(R14), R15
	CMPQ R15, R13
	JGE  chromaLoneRow
	VMOVUPS Y10, Y8
	MOVL 8(R8), SI
	MOVL 12(R8), DI
	CMPL AX, DX
	JGE  chromaSecondSpan
	CMPL SI, DI
	JGE  chromaHaveSpan
	CMPL    SI, AX
	CMOVLLT SI, AX
	CMPL    DI, DX
	CMOVLGT DI, DX
	JMP     chromaHaveSpan

chromaSecondSpan:
	MOVL SI, AX
	MOVL DI, DX
	JMP  chromaHaveSpan

chromaLoneRow:
	VMOVUPS Y11, Y8

chromaHaveSpan:
	CMPL    AX, DX
	JGE     chromaNext
	SHRL    $1, AX // b0
	INCL    DX
	SHRL    $1, DX // b1
	MOVL    DX, CX
	SUBL    AX, CX
	ADDL    $7, CX
	SHRL    $3, CX // groups
	MOVQ    w+64(FP), DX
	SHRQ    $1, DX
	MOVQ    CX, SI
	SHLQ    $3, SI
	SUBQ    SI, DX
	CMPQ    AX, DX
	CMOVQLT AX, DX // w0
	LEAQ    (R12)(DX*8), SI
	IMULQ   BX, DX
	LEAQ    (R10)(DX*1), DI
	LEAQ    (R11)(DX*1), DX

chromaGroup:
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
	JMP   chromaGroupNext

chromaStoreNV12:
	VPUNPCKLBW X4, X3, X3 // Cb0 Cr0 Cb1 Cr1 …
	VMOVDQU    X3, (DI)

chromaGroupNext:
	ADDQ $64, SI
	ADDQ R9, DI
	ADDQ R9, DX
	DECQ CX
	JNZ  chromaGroup

chromaNext:
	ADDQ $16, R8
	ADDQ uStride+16(FP), R10
	ADDQ vStride+24(FP), R11
	ADDQ $2*ROW, R12
	ADDQ $2, R14
	CMPQ R14, R13
	JLT  chromaRowPair
	VZEROUPPER
	RET

// func prefetchRows(p *byte, stride, rows int)
TEXT ·prefetchRows(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ rows+16(FP), CX

prefetchLoop:
	PREFETCHT0 (SI)
	ADDQ       BX, SI
	DECQ       CX
	JNZ        prefetchLoop
	RET
