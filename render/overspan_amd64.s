//go:build gc && !purego

#include "textflag.h"

// func overSpanAVX2(px *float32, n int, c *RGBA)
//
// The AVX2 twin of overSpanGo: p = c + p·(1 − c.A) on each channel of n premultiplied RGBA
// pixels, with a multiply then an add (no FMA), as the Go twin rounds. A YMM register holds
// two pixels, so c and 1 − c.A are broadcast as [R G B A R G B A] and [k k k k k k k k].
//
// YMM registers:
//
//	Y0-Y3	pixels
//	Y4	c, twice
//	Y5	k = 1 − c.A
TEXT ·overSpanAVX2(SB), NOSPLIT, $0-24
	MOVQ px+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ c+16(FP), AX

	// Y4 = c twice; Y5 = 1 − c.A in every lane (the Go twin's k, the same float32 subtraction).
	VBROADCASTF128 (AX), Y4
	MOVL           $0x3f800000, BX // 1.0
	VMOVD          BX, X5
	VSUBSS         12(AX), X5, X5
	VBROADCASTSS   X5, Y5

	// Eight pixels (four registers) at a time.
	CMPQ CX, $8
	JLT  tail4

loop8:
	VMULPS  0(DI), Y5, Y0
	VMULPS  32(DI), Y5, Y1
	VMULPS  64(DI), Y5, Y2
	VMULPS  96(DI), Y5, Y3
	VADDPS  Y4, Y0, Y0
	VADDPS  Y4, Y1, Y1
	VADDPS  Y4, Y2, Y2
	VADDPS  Y4, Y3, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, DI
	SUBQ    $8, CX
	CMPQ    CX, $8
	JGE     loop8

tail4:
	// Then four, two and one.
	CMPQ    CX, $4
	JLT     tail2
	VMULPS  0(DI), Y5, Y0
	VMULPS  32(DI), Y5, Y1
	VADDPS  Y4, Y0, Y0
	VADDPS  Y4, Y1, Y1
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    $64, DI
	SUBQ    $4, CX

tail2:
	CMPQ    CX, $2
	JLT     tail1
	VMULPS  0(DI), Y5, Y0
	VADDPS  Y4, Y0, Y0
	VMOVUPS Y0, 0(DI)
	ADDQ    $32, DI
	SUBQ    $2, CX

tail1:
	CMPQ    CX, $1
	JLT     done
	VMULPS  0(DI), X5, X0
	VADDPS  X4, X0, X0
	VMOVUPS X0, 0(DI)

done:
	VZEROUPPER
	RET
