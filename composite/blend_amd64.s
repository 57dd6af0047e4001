//go:build gc && !purego

#include "textflag.h"

// blendRowAVX2 is blendConsts.row (blend.go) for add on a Y'CbCr layer, eight pixels a lane
// each, in the Go code's float32 operations and order, no FMA: the same bits (blend_test.go's
// TestBlendRowAVX2MatchesGo). Lanes of alpha 0 keep what they held.

DATA minAlpha<>+0(SB)/4, $0x30800000 // 2^-30
GLOBL minAlpha<>(SB), (NOPTR+RODATA), $4

// func blendRowAVX2(c0, c1, c2, a *float32, n int, k *blendConsts)
TEXT ·blendRowAVX2(SB), NOSPLIT, $0-48
	MOVQ c0+0(FP), AX
	MOVQ c1+8(FP), BX
	MOVQ c2+16(FP), CX
	MOVQ a+24(FP), DX
	MOVQ n+32(FP), SI
	MOVQ k+40(FP), DI
	VBROADCASTSS 0(DI), Y8        // o0
	VBROADCASTSS 4(DI), Y9        // o1
	VBROADCASTSS 8(DI), Y10       // o2
	VXORPS       Y12, Y12, Y12    // 0
	VBROADCASTSS minAlpha<>(SB), Y14
	XORQ         R9, R9           // byte offset

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
