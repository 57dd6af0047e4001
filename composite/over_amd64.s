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
	ROUND(s, m, t)

// ROUND ends BLEND: s = m ? s : t + 0.5 saturated to 0..255 and truncated.
#define ROUND(s, m, t) \
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

// LUMA blends 16 pixels of one row (the luma plane at off(SI), alpha 3 planes on) onto the
// luma samples at y0 (8 of them) and y8 (the next 8), and clears the luma; the alpha stays
// for CHROMA. Y0-Y5 are clobbered.
#define LUMA(off, y0, y8) \
	VMOVUPS   off(SI), Y0; \
	VMOVUPS   off+3*PLANE(SI), Y1; \
	VMOVUPS   Y12, off(SI); \
	VCMPPS    $0, Y12, Y1, Y2 /* the lanes to keep: alpha == 0 */; \
	VPMOVZXBD y0, Y3; \
	BLEND(Y3, Y0, Y1, Y2, Y4, Y5); \
	PACK8(Y3, X3, X4); \
	VMOVQ     X3, y0; \
	VMOVUPS   off+32(SI), Y0; \
	VMOVUPS   off+32+3*PLANE(SI), Y1; \
	VMOVUPS   Y12, off+32(SI); \
	VCMPPS    $0, Y12, Y1, Y2; \
	VPMOVZXBD y8, Y3; \
	BLEND(Y3, Y0, Y1, Y2, Y4, Y5); \
	PACK8(Y3, X3, X4); \
	VMOVQ     X3, y8

// CHROMA blends the group's 8 blocks (the Cb, Cr and alpha planes 1, 2, 3 planes on from SI;
// both rows) onto the Cb and Cr samples at DI and DX (interleaved at DI when BX, the step,
// is 2), the sums scaled by Y8, and clears the blocks' Cb, Cr and alpha. The four labels
// are the macro's own.
#define CHROMA(loadNV12, blendSamples, storeNV12, done) \
	BLOCKS(PLANE, Y0, Y5); \
	BLOCKS(2*PLANE, Y1, Y5); \
	BLOCKS(3*PLANE, Y2, Y5); \
	ZERO(PLANE); \
	ZERO(2*PLANE); \
	ZERO(3*PLANE); \
	VCMPPS    $0, Y12, Y2, Y9 /* the blocks to keep: alpha sum == 0 */; \
	CHROMA_SAMPLES(BLENDC_OVER, loadNV12, blendSamples, storeNV12, done)

// The blend modes (Tile.Blend), made as the layer is read, in the Go twins' float32
// operations and order: BLEND_ADD is BLEND for add, whose α′ is 0 or 2⁻³⁰ (1 − α′ rounds
// to 1, so the sample is added whole), and the LUMA and CHROMA variants change the layer's
// pixels (add: applyBlend's) or sums (screen: blendConsts.screenLuma and chromaRow's) before
// they blend them. Y7 holds the offset o0; add keeps o1 and o2 in Y10 and Y11, screen keeps
// them in the frame's o1 and o2 and its sums in Y6, Y9, Y10 and Y11 (a call has one mode);
// the frame's ky and mina hold 1/M_Y·(1, 1, 1) and 2⁻³⁰ eight times. The add variants
// keep a chroma block whose alpha sum is 0, as over does: alpha is never negative, so that
// is the block whose α′ sum is 0.

VEC8(minAlphas<>, $0x3080000030800000)

// BLEND_ADD is BLEND with 1 − a = 1: s = m ? s : min(max(c + s + 0.5, 0), 255).
#define BLEND_ADD(s, c, m, t) \
	VCVTDQ2PS  s, t; \
	VADDPS     t, c, t; \
	ROUND(s, m, t)

// LUMA_ADD is LUMA for add: c0′ = c0 − o0·a.
#define LUMA_ADD8(off, y0) \
	VMOVUPS   off(SI), Y0; \
	VMOVUPS   off+3*PLANE(SI), Y1; \
	VMOVUPS   Y12, off(SI); \
	VCMPPS    $0, Y12, Y1, Y2; \
	VMULPS    Y1, Y7, Y4; \
	VSUBPS    Y4, Y0, Y0; \
	VPMOVZXBD y0, Y3; \
	BLEND_ADD(Y3, Y0, Y2, Y4); \
	PACK8(Y3, X3, X4); \
	VMOVQ     X3, y0

#define LUMA_ADD(off, y0, y8) \
	LUMA_ADD8(off, y0); \
	LUMA_ADD8(off+32, y8)

// LUMA_SCREEN8 is LUMA for screen, 8 pixels (the luma plane at off(SI)) onto the samples s at
// y0, their alpha a (a register, or the alpha plane in memory): t = c0 − o0·a, α′ =
// min(max(t·ky, 2⁻³⁰), a) (blendConsts.screenLuma), and where a is not 0 the sample
// (t + s) + α′·(o0 − s) (sampleFormat.screenAt), rounded as BLEND; the luma is cleared. It
// leaves α′ in l. Y0 and Y2-Y5 are clobbered.
#define LUMA_SCREEN8(off, y0, a, l) \
	VMOVUPS   off(SI), Y0; \
	VMOVUPS   Y12, off(SI); \
	VCMPPS    $0, a, Y12, Y2; \
	VMULPS    a, Y7, Y4; \
	VSUBPS    Y4, Y0, Y0; \
	VMULPS    ky-32(SP), Y0, l; \
	VMAXPS    mina-64(SP), l, l; \
	VMINPS    a, l, l; \
	VPMOVZXBD y0, Y3; \
	VCVTDQ2PS Y3, Y4; \
	VSUBPS    Y4, Y7, Y5; \
	VMULPS    Y5, l, Y5; \
	VADDPS    Y4, Y0, Y0; \
	VADDPS    Y5, Y0, Y0; \
	ROUND(Y3, Y2, Y0); \
	PACK8(Y3, X3, X4); \
	VMOVQ     X3, y0

// LUMA_SCREEN_TOP screens the 16 pixels of a pair's top row (luma at off(SI)) onto the
// samples at y0 and y8, leaving their alpha and α′ in Y9, Y11 and Y10, Y6 (pixels 0-7,
// 8-15) for LUMA_SCREEN_BOTTOM and CHROMA_SCREEN.
#define LUMA_SCREEN_TOP(off, y0, y8) \
	VMOVUPS off+3*PLANE(SI), Y9; \
	LUMA_SCREEN8(off, y0, Y9, Y10); \
	VMOVUPS off+32+3*PLANE(SI), Y11; \
	LUMA_SCREEN8(off+32, y8, Y11, Y6)

// LUMA_SCREEN_BOTTOM screens the pair's bottom row and adds its alpha and α′ to the top
// row's: Y9, Y11, Y10 and Y6 become the sums of the pixels' columns. Y1 is clobbered.
#define LUMA_SCREEN_BOTTOM(off, y0, y8) \
	LUMA_SCREEN8(off, y0, off+3*PLANE(SI), Y1); \
	VADDPS off+3*PLANE(SI), Y9, Y9; \
	VADDPS Y1, Y10, Y10; \
	LUMA_SCREEN8(off+32, y8, off+32+3*PLANE(SI), Y1); \
	VADDPS off+32+3*PLANE(SI), Y11, Y11; \
	VADDPS Y1, Y6, Y6

// ADD_AT sets d to pixel group p's (byte offset p from SI) value of the plane at off for
// add: c − o·a. Y3 is clobbered.
#define ADD_AT(off, p, o, d) \
	VMULPS  3*PLANE+p(SI), o, Y3; \
	VMOVUPS off+p(SI), d; \
	VSUBPS  Y3, d, d

// XBLOCKS is BLOCKS over the pixels' changed values, AT(off, p, o, d) giving each group's:
// (top left + bottom left) + (top right + bottom right), in BLOCKS's order. Y3 and Y4 are
// clobbered.
#define XBLOCKS(AT, off, o, s, t) \
	AT(off, 0, o, s); \
	AT(off, ROW, o, Y4); \
	VADDPS  Y4, s, s; \
	AT(off, 32, o, t); \
	AT(off, ROW+32, o, Y4); \
	VADDPS  Y4, t, t; \
	VHADDPS t, s, s; \
	VPERMPD $0xd8, s, s

// CHROMA_BLEND is CHROMA's second half: the sums in Y0 (Cb), Y1 (Cr) and Y2 (alpha), the
// blocks to keep in Y9, the sums scaled by Y8, blended by BLENDC onto the samples.
#define CHROMA_SAMPLES(BLENDC, loadNV12, blendSamples, storeNV12, done) \
	VMULPS    Y8, Y0, Y0; \
	VMULPS    Y8, Y1, Y1; \
	VMULPS    Y8, Y2, Y2; \
	CMPQ      BX, $2; \
	JEQ       loadNV12; \
	VPMOVZXBD (DI), Y3; \
	VPMOVZXBD (DX), Y4; \
	JMP       blendSamples; \
loadNV12: \
	VPMOVZXWD (DI), Y3 /* Cb | Cr<<8 */; \
	VPSRLD    $8, Y3, Y4; \
	VPAND     lowByte<>(SB), Y3, Y3; \
blendSamples: \
	BLENDC(Y3, Y0); \
	BLENDC(Y4, Y1); \
	PACK8(Y3, X3, X5); \
	PACK8(Y4, X4, X5); \
	CMPQ      BX, $2; \
	JEQ       storeNV12; \
	VMOVQ     X3, (DI); \
	VMOVQ     X4, (DX); \
	JMP       done; \
storeNV12: \
	VPUNPCKLBW X4, X3, X3 /* Cb0 Cr0 Cb1 Cr1 … */; \
	VMOVDQU   X3, (DI); \
done:

#define BLENDC_OVER(s, c) BLEND(s, c, Y2, Y9, Y5, Y6)
#define BLENDC_ADD(s, c) BLEND_ADD(s, c, Y9, Y5)

// CHROMA_ADD is CHROMA for add.
#define CHROMA_ADD(loadNV12, blendSamples, storeNV12, done) \
	XBLOCKS(ADD_AT, PLANE, Y10, Y0, Y5); \
	XBLOCKS(ADD_AT, 2*PLANE, Y11, Y1, Y5); \
	BLOCKS(3*PLANE, Y2, Y5); \
	ZERO(PLANE); \
	ZERO(2*PLANE); \
	ZERO(3*PLANE); \
	VCMPPS    $0, Y12, Y2, Y9; \
	CHROMA_SAMPLES(BLENDC_ADD, loadNV12, blendSamples, storeNV12, done)

// CHROMA_SCREEN is CHROMA for screen, the pixels' alpha and α′ summed by columns in Y9,
// Y11 (a) and Y10, Y6 (α′) by the LUMA_SCREEN macros: the blocks' Σα′ is the alpha, and
// Cb and Cr take o·(Σα′ − Σa), in chromaRow's order.
#define CHROMA_SCREEN(loadNV12, blendSamples, storeNV12, done) \
	BLOCKS(PLANE, Y0, Y5); \
	BLOCKS(2*PLANE, Y1, Y5); \
	VHADDPS   Y11, Y9, Y9; \
	VPERMPD   $0xd8, Y9, Y9; \
	VHADDPS   Y6, Y10, Y2; \
	VPERMPD   $0xd8, Y2, Y2; \
	VSUBPS    Y9, Y2, Y9; \
	VMULPS    o1-96(SP), Y9, Y3; \
	VADDPS    Y3, Y0, Y0; \
	VMULPS    o2-128(SP), Y9, Y3; \
	VADDPS    Y3, Y1, Y1; \
	ZERO(PLANE); \
	ZERO(2*PLANE); \
	ZERO(3*PLANE); \
	VCMPPS    $0, Y12, Y2, Y9; \
	CHROMA_SAMPLES(BLENDC_OVER, loadNV12, blendSamples, storeNV12, done)

// func tileAVX2(y *byte, yStride int, u, v *byte, uStride, vStride, step int, planes *float32, spans *Span, h, w int)
//
// overYCbCr for a tile whose width w is a multiple of 16, a pair of rows at a time: the union
// of the two rows' spans (the second only when it is in the tile) gives the chroma blocks
// [b0, b1), widened to groups = ⌈(b1 − b0)/8⌉ groups of 8 from w0 = min(b0, w/2 − 8·groups);
// a group blends 16 pixels of luma in each row (LUMA; the pixels outside a row's span have
// alpha 0 and keep their samples) and its 8 chroma blocks (CHROMA), the blocks' sums scaled
// by ¼, or by ½ for a lone last row, whose second row is the zero row below the tile.
//
// Registers: AX the pair's first luma row, R15 the luma stride, R10 and R11 the chroma rows,
// R12 the pair's planes, R8 its spans, R13 the rows left; per group SI the planes, R14 the
// luma, DI and DX the chroma samples, CX the groups left, BX the step, R9 8·step; Y8 the
// mean, Y12-Y15 BLEND's constants, Y7, Y10, Y11 the blend's offsets (see the blend modes).
// mode (add or screen) changes the layer as it is read, with k's constants; the groups
// branch on it.
TEXT ·tileAVX2(SB), NOSPLIT, $128-100
	MOVQ         k+88(FP), SI
	VBROADCASTSS 0(SI), Y7
	VBROADCASTSS 4(SI), Y10
	VBROADCASTSS 8(SI), Y11
	VBROADCASTSS 12(SI), Y0
	VMOVUPS      Y0, ky-32(SP)
	VMOVUPS      minAlphas<>(SB), Y0
	VMOVUPS      Y0, mina-64(SP)
	VMOVUPS      Y10, o1-96(SP)
	VMOVUPS      Y11, o2-128(SP)
	MOVQ y+0(FP), AX
	MOVQ yStride+8(FP), R15
	MOVQ u+16(FP), R10
	MOVQ v+24(FP), R11
	MOVQ step+48(FP), BX
	MOVQ planes+56(FP), R12
	MOVQ spans+64(FP), R8
	MOVQ h+72(FP), R13
	CONSTANTS
	MOVQ BX, R9
	SHLQ $3, R9

tilePair:
	// The union of the spans, in [CX, DX).
	MOVL         (R8), CX
	MOVL         4(R8), DX
	CMPQ         R13, $2
	JLT          tileLone
	VBROADCASTSS quarters<>(SB), Y8
	MOVL         8(R8), SI
	MOVL         12(R8), DI
	CMPL         CX, DX
	JGE          tileSecondSpan
	CMPL         SI, DI
	JGE          tileHaveSpan
	CMPL         SI, CX
	CMOVLLT      SI, CX
	CMPL         DI, DX
	CMOVLGT      DI, DX
	JMP          tileHaveSpan

tileSecondSpan:
	MOVL SI, CX
	MOVL DI, DX
	JMP  tileHaveSpan

tileLone:
	VMOVUPS halves<>(SB), Y8

tileHaveSpan:
	CMPL    CX, DX
	JGE     tileNext
	SHRL    $1, CX // b0
	INCL    DX
	SHRL    $1, DX // b1
	SUBL    CX, DX
	ADDL    $7, DX
	SHRL    $3, DX // groups
	MOVQ    w+80(FP), SI
	SHRQ    $1, SI
	MOVQ    DX, DI
	SHLQ    $3, DI
	SUBQ    DI, SI
	CMPQ    CX, SI
	CMOVQLT CX, SI // w0
	MOVQ    DX, CX
	LEAQ    (AX)(SI*2), R14
	MOVQ    SI, DX
	IMULQ   BX, DX
	LEAQ    (R10)(DX*1), DI
	ADDQ    R11, DX
	LEAQ    (R12)(SI*8), SI
	CMPQ    R13, $2
	JLT     tileOneRow

tileTwoRows:
	CMPL mode+96(FP), $1
	JEQ  twoAdd
	JGT  twoScreen
	LUMA(0, (R14), 8(R14))
	LUMA(ROW, (R14)(R15*1), 8(R14)(R15*1))
	CHROMA(twoLoadNV12, twoBlend, twoStoreNV12, twoDone)
	JMP  twoNext

twoAdd:
	LUMA_ADD(0, (R14), 8(R14))
	LUMA_ADD(ROW, (R14)(R15*1), 8(R14)(R15*1))
	CHROMA_ADD(twoAddLoadNV12, twoAddBlend, twoAddStoreNV12, twoAddDone)
	JMP  twoNext

twoScreen:
	LUMA_SCREEN_TOP(0, (R14), 8(R14))
	LUMA_SCREEN_BOTTOM(ROW, (R14)(R15*1), 8(R14)(R15*1))
	CHROMA_SCREEN(twoScreenLoadNV12, twoScreenBlend, twoScreenStoreNV12, twoScreenDone)

twoNext:
	ADDQ $64, SI
	ADDQ $16, R14
	ADDQ R9, DI
	ADDQ R9, DX
	DECQ CX
	JNZ  tileTwoRows
	JMP  tileNext

tileOneRow:
	CMPL mode+96(FP), $1
	JEQ  oneAdd
	JGT  oneScreen
	LUMA(0, (R14), 8(R14))
	CHROMA(oneLoadNV12, oneBlend, oneStoreNV12, oneDone)
	JMP  oneNext

oneAdd:
	LUMA_ADD(0, (R14), 8(R14))
	CHROMA_ADD(oneAddLoadNV12, oneAddBlend, oneAddStoreNV12, oneAddDone)
	JMP  oneNext

oneScreen:
	// The bottom row is the zero row below the tile, whose α′ is 0: added as chromaRow adds it.
	LUMA_SCREEN_TOP(0, (R14), 8(R14))
	VADDPS Y12, Y9, Y9
	VADDPS Y12, Y10, Y10
	VADDPS Y12, Y11, Y11
	VADDPS Y12, Y6, Y6
	CHROMA_SCREEN(oneScreenLoadNV12, oneScreenBlend, oneScreenStoreNV12, oneScreenDone)

oneNext:
	ADDQ $64, SI
	ADDQ $16, R14
	ADDQ R9, DI
	ADDQ R9, DX
	DECQ CX
	JNZ  tileOneRow

tileNext:
	ADDQ $16, R8
	LEAQ (AX)(R15*2), AX
	ADDQ uStride+32(FP), R10
	ADDQ vStride+40(FP), R11
	ADDQ $2*ROW, R12
	SUBQ $2, R13
	JGT  tilePair
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
