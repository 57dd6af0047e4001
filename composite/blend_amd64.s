//go:build gc && !purego

#include "textflag.h"

// blendRowAVX2 is blendConsts.row (blend.go) for add and multiply on a Y'CbCr layer, and
// pickRowAVX2 is pickRow over an 8-bit frame's luma; eight pixels a lane each, in the Go code's float32 operations and order, no FMA: the same bits
// (blend_test.go's TestBlendRowAVX2MatchesGo). Lanes of alpha 0 keep what they held.

DATA minAlpha<>+0(SB)/4, $0x30800000 // 2^-30
GLOBL minAlpha<>(SB), (NOPTR+RODATA), $4

// func blendRowAVX2(c0, c1, c2, a *float32, n int, k *blendConsts, mode Blend)
//
// Add (c_i − o_i·a, α′ = 2⁻³⁰), or multiply (mode BlendMultiply, 3): t = c0 − o0·a,
// α′ = a − t·ky held to [2⁻³⁰, a] (multiplyAlpha), c′_i = o_i·α′.
TEXT ·blendRowAVX2(SB), NOSPLIT, $0-52
	MOVQ c0+0(FP), AX
	MOVQ c1+8(FP), BX
	MOVQ c2+16(FP), CX
	MOVQ a+24(FP), DX
	MOVQ n+32(FP), SI
	MOVQ k+40(FP), DI
	VBROADCASTSS 0(DI), Y8        // o0
	VBROADCASTSS 4(DI), Y9        // o1
	VBROADCASTSS 8(DI), Y10       // o2
	VBROADCASTSS 12(DI), Y11      // ky
	VXORPS       Y12, Y12, Y12    // 0
	VBROADCASTSS minAlpha<>(SB), Y14
	XORQ         R9, R9           // byte offset
	CMPL         mode+48(FP), $3
	JEQ          mulLoop

loop:
	CMPQ    SI, $0
	JLE     done
	VMOVUPS (DX)(R9*1), Y0        // a
	VCMPPS  $4, Y12, Y0, Y15      // a != 0 (NEQ_UQ)
	// c_i = c_i − o_i·a
	VMULPS    Y0, Y8, Y5
	VMOVUPS   (AX)(R9*1), Y1
	VSUBPS    Y5, Y1, Y5
	VBLENDVPS Y15, Y5, Y1, Y1
	VMULPS    Y0, Y9, Y5
	VMOVUPS   (BX)(R9*1), Y2
	VSUBPS    Y5, Y2, Y5
	VBLENDVPS Y15, Y5, Y2, Y2
	VMULPS    Y0, Y10, Y5
	VMOVUPS   (CX)(R9*1), Y3
	VSUBPS    Y5, Y3, Y5
	VBLENDVPS Y15, Y5, Y3, Y3
	// a = 2^-30
	VBLENDVPS Y15, Y14, Y0, Y0
	VMOVUPS Y1, (AX)(R9*1)
	VMOVUPS Y2, (BX)(R9*1)
	VMOVUPS Y3, (CX)(R9*1)
	VMOVUPS Y0, (DX)(R9*1)
	ADDQ    $32, R9
	SUBQ    $8, SI
	JMP     loop

done:
	VZEROUPPER
	RET

DATA one<>+0(SB)/4, $0x3f800000 // 1
GLOBL one<>(SB), (NOPTR+RODATA), $4

mulLoop:
	CMPQ      SI, $0
	JLE       mulDone
	VMOVUPS   (DX)(R9*1), Y0      // a
	VCMPPS    $4, Y12, Y0, Y15    // a != 0 (NEQ_UQ)
	VMULPS    Y0, Y8, Y5
	VMOVUPS   (AX)(R9*1), Y1
	VSUBPS    Y5, Y1, Y5          // t = c0 − o0·a
	VMULPS    Y11, Y5, Y5         // ℓ = t·ky
	VSUBPS    Y5, Y0, Y5          // a − ℓ
	VMAXPS    Y14, Y5, Y5         // held to 2⁻³⁰ (screenAlpha's order) ...
	VMINPS    Y0, Y5, Y5          // ... and to a: α′
	VMULPS    Y5, Y8, Y2
	VBLENDVPS Y15, Y2, Y1, Y1
	VMOVUPS   Y1, (AX)(R9*1)
	VMULPS    Y5, Y9, Y2
	VMOVUPS   (BX)(R9*1), Y1
	VBLENDVPS Y15, Y2, Y1, Y1
	VMOVUPS   Y1, (BX)(R9*1)
	VMULPS    Y5, Y10, Y2
	VMOVUPS   (CX)(R9*1), Y1
	VBLENDVPS Y15, Y2, Y1, Y1
	VMOVUPS   Y1, (CX)(R9*1)
	VBLENDVPS Y15, Y5, Y0, Y0
	VMOVUPS   Y0, (DX)(R9*1)
	ADDQ      $32, R9
	SUBQ      $8, SI
	JMP       mulLoop

mulDone:
	VZEROUPPER
	RET

// SCALE sets the plane's 8 pixels at off to keep ? c : (pick ? c·s : 0), keep in Y15, pick
// in Y6, s in Y5 (pickRow's float32 operations: c·1 is c). Y1 and Y2 are clobbered.
#define SCALE(off) \
	VMOVUPS   off, Y1; \
	VMULPS    Y5, Y1, Y2; \
	VANDPS    Y6, Y2, Y2; \
	VBLENDVPS Y15, Y1, Y2, Y2; \
	VMOVUPS   Y2, off

// func pickRowAVX2(c0, c1, c2, a *float32, n int, luma *byte, w float32, darken bool)
//
// pickRow on a Y'CbCr layer over an 8-bit frame's luma samples at luma: d = c0 − a·F
// (a·F − c0 for darken, the same bits negated), s = min(d/(a·w), 1), and each plane
// scaled by s where d > 0, cleared where not; lanes of alpha 0 keep what they held.
TEXT ·pickRowAVX2(SB), NOSPLIT, $0-53
	MOVQ c0+0(FP), AX
	MOVQ c1+8(FP), BX
	MOVQ c2+16(FP), CX
	MOVQ a+24(FP), DX
	MOVQ n+32(FP), SI
	MOVQ luma+40(FP), DI
	VBROADCASTSS w+48(FP), Y13
	MOVBLZX      darken+52(FP), R8
	VXORPS       Y12, Y12, Y12
	VBROADCASTSS one<>(SB), Y14
	XORQ         R9, R9           // byte offset in the planes

pickLoop:
	CMPQ      SI, $0
	JLE       pickDone
	VMOVUPS   (DX)(R9*1), Y0      // a
	VCMPPS    $0, Y12, Y0, Y15    // keep: a == 0
	VPMOVZXBD (DI), Y4
	VCVTDQ2PS Y4, Y4
	VMULPS    Y4, Y0, Y4          // a·F
	VMOVUPS   (AX)(R9*1), Y1      // c0
	VSUBPS    Y4, Y1, Y5          // d = c0 − a·F
	CMPQ      R8, $0
	JEQ       pickHaveD
	VSUBPS    Y1, Y4, Y5          // darken: a·F − c0

pickHaveD:
	VCMPPS    $1, Y5, Y12, Y6     // pick: 0 < d (false for NaN)
	VMULPS    Y13, Y0, Y7         // a·w
	VDIVPS    Y7, Y5, Y5          // d/(a·w)
	VMINPS    Y14, Y5, Y5         // s: held below 1 (1 where not below: NaN and ∞ too)
	SCALE((AX)(R9*1))
	SCALE((BX)(R9*1))
	SCALE((CX)(R9*1))
	SCALE((DX)(R9*1))
	ADDQ      $32, R9
	ADDQ      $8, DI
	SUBQ      $8, SI
	JMP       pickLoop

pickDone:
	VZEROUPPER
	RET
