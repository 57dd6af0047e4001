//go:build gc && !purego

#include "textflag.h"

// blendRowAVX2 is blendConsts.row (blend.go) for a Y'CbCr layer, eight pixels a lane each,
// in the Go code's float32 operations and order, no FMA: the same bits (blend_test.go's
// TestBlendRowAVX2MatchesGo). Lanes of alpha 0 keep what they held.

DATA minAlpha<>+0(SB)/4, $0x30800000 // 2^-30
GLOBL minAlpha<>(SB), (NOPTR+RODATA), $4

DATA one<>+0(SB)/4, $0x3f800000
GLOBL one<>(SB), (NOPTR+RODATA), $4

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
	VBROADCASTSS 12(DI), Y11      // ky
	MOVL         16(DI), R8       // screen
	VXORPS       Y12, Y12, Y12    // 0
	VBROADCASTSS one<>(SB), Y13   // 1
	VBROADCASTSS minAlpha<>(SB), Y14
	XORQ         R9, R9           // byte offset

loop:
	CMPQ    SI, $0
	JLE     done
	VMOVUPS (DX)(R9*1), Y0        // a
	VCMPPS  $4, Y12, Y0, Y15      // a != 0 (NEQ_UQ)
	VMOVUPS (AX)(R9*1), Y1        // c0
	VMOVUPS (BX)(R9*1), Y2        // c1
	VMOVUPS (CX)(R9*1), Y3        // c2
	VXORPS  Y4, Y4, Y4            // a2 = 0 (add)
	CMPL    R8, $0
	JEQ     apply
	// a2 = min(max((c0 − o0·a)·ky, 0), 1); max with +0 as the second source gives +0 for
	// −0, as Go's max.
	VMULPS  Y0, Y8, Y5
	VSUBPS  Y5, Y1, Y4
	VMULPS  Y11, Y4, Y4
	VMAXPS  Y12, Y4, Y4
	VMINPS  Y13, Y4, Y4

apply:
	// c_i = (c_i − o_i·a) + o_i·a2
	VMULPS  Y0, Y8, Y5
	VSUBPS  Y5, Y1, Y5
	VMULPS  Y4, Y8, Y6
	VADDPS  Y6, Y5, Y5
	VBLENDVPS Y15, Y5, Y1, Y1
	VMULPS  Y0, Y9, Y5
	VSUBPS  Y5, Y2, Y5
	VMULPS  Y4, Y9, Y6
	VADDPS  Y6, Y5, Y5
	VBLENDVPS Y15, Y5, Y2, Y2
	VMULPS  Y0, Y10, Y5
	VSUBPS  Y5, Y3, Y5
	VMULPS  Y4, Y10, Y6
	VADDPS  Y6, Y5, Y5
	VBLENDVPS Y15, Y5, Y3, Y3
	// a = max(a2, 2^-30)
	VMAXPS  Y14, Y4, Y5
	VBLENDVPS Y15, Y5, Y0, Y0
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
