//go:build gc && !purego

#include "textflag.h"

// func fadeAVX2(p *float32, n int, a float32)
//
// p[i] *= a for i < n (a multiple of 8), eight a time: Tile.Fade's loop, the same bits
// (one float32 multiply each).
TEXT ·fadeAVX2(SB), NOSPLIT, $0-20
	MOVQ         p+0(FP), AX
	MOVQ         n+8(FP), CX
	VBROADCASTSS a+16(FP), Y0
	SHLQ         $2, CX
	XORQ         DX, DX

loop:
	CMPQ    DX, CX
	JGE     done
	VMULPS  (AX)(DX*1), Y0, Y1
	VMOVUPS Y1, (AX)(DX*1)
	ADDQ    $32, DX
	JMP     loop

done:
	VZEROUPPER
	RET
