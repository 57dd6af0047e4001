//go:build gc && !purego

#include "textflag.h"

// The byte distance between a tile's planes (composite.TileSize², times 4).
#define PLANE 16384

// SPAN blends c's channel (broadcast in cr) onto 8 pixels of the plane at off(DI):
// p = c + p·k, a multiply then an add (no FMA), as the Go twin rounds.
#define SPAN(off, cr) \
	VMULPS  off(DI), Y5, Y0; \
	VADDPS  cr, Y0, Y0; \
	VMOVUPS Y0, off(DI)

// func overSpanAVX2(p *float32, groups int, c *layerColor)
//
// The AVX2 twin of overSpanGo: p = c + p·(1 − c.A) on every plane of 8·groups pixels.
//
// YMM registers:
//
//	Y0	pixels
//	Y1-Y4	c's channels, broadcast
//	Y5	k = 1 − c.A
TEXT ·overSpanAVX2(SB), NOSPLIT, $0-24
	MOVQ  p+0(FP), DI
	MOVQ  groups+8(FP), CX
	MOVQ  c+16(FP), AX
	TESTQ CX, CX
	JLE   done

	VBROADCASTSS 0(AX), Y1
	VBROADCASTSS 4(AX), Y2
	VBROADCASTSS 8(AX), Y3
	VBROADCASTSS 12(AX), Y4
	// Y5 = 1 − c.A in every lane (the Go twin's k, the same float32 subtraction).
	MOVL         $0x3f800000, BX // 1.0
	VMOVD        BX, X5
	VSUBSS       12(AX), X5, X5
	VBROADCASTSS X5, Y5

loop:
	SPAN(0, Y1)
	SPAN(PLANE, Y2)
	SPAN(2*PLANE, Y3)
	SPAN(3*PLANE, Y4)
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER

done:
	RET
