//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of the row loops of plane.go's downscale (factor 2) and lk.go's scharr: the
// same integer arithmetic, 16 output pixels a step; the Go code does what is left of a
// row. rows_test.go checks them against the Go code.

DATA onesB<>+0x00(SB)/8, $0x0101010101010101
DATA onesB<>+0x08(SB)/8, $0x0101010101010101
DATA onesB<>+0x10(SB)/8, $0x0101010101010101
DATA onesB<>+0x18(SB)/8, $0x0101010101010101
GLOBL onesB<>(SB), (NOPTR+RODATA), $32

DATA twosW<>+0x00(SB)/8, $0x0002000200020002
DATA twosW<>+0x08(SB)/8, $0x0002000200020002
DATA twosW<>+0x10(SB)/8, $0x0002000200020002
DATA twosW<>+0x18(SB)/8, $0x0002000200020002
GLOBL twosW<>(SB), (NOPTR+RODATA), $32

DATA threesW<>+0x00(SB)/8, $0x0003000300030003
DATA threesW<>+0x08(SB)/8, $0x0003000300030003
DATA threesW<>+0x10(SB)/8, $0x0003000300030003
DATA threesW<>+0x18(SB)/8, $0x0003000300030003
GLOBL threesW<>(SB), (NOPTR+RODATA), $32

DATA tensW<>+0x00(SB)/8, $0x000a000a000a000a
DATA tensW<>+0x08(SB)/8, $0x000a000a000a000a
DATA tensW<>+0x10(SB)/8, $0x000a000a000a000a
DATA tensW<>+0x18(SB)/8, $0x000a000a000a000a
GLOBL tensW<>(SB), (NOPTR+RODATA), $32

// func halveRowsAVX2(dst, r0, r1 *byte, n int)
// dst[x] = (r0[2x] + r0[2x+1] + r1[2x] + r1[2x+1] + 2) >> 2 for x < n, n a multiple of 16.
TEXT ·halveRowsAVX2(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    n+24(FP), CX
	VMOVDQU onesB<>(SB), Y4
	VMOVDQU twosW<>(SB), Y5

hloop:
	VMOVDQU    (SI), Y0
	VMOVDQU    (DX), Y1
	VPMADDUBSW Y4, Y0, Y0
	VPMADDUBSW Y4, Y1, Y1
	VPADDW     Y1, Y0, Y0
	VPADDW     Y5, Y0, Y0
	VPSRLW     $2, Y0, Y0
	VPACKUSWB  Y0, Y0, Y0
	VPERMQ     $0x08, Y0, Y0
	VMOVDQU    X0, (DI)
	ADDQ       $32, SI
	ADDQ       $32, DX
	ADDQ       $16, DI
	SUBQ       $16, CX
	JNZ        hloop
	VZEROUPPER
	RET

// func scharrRowsAVX2(out *int16, r0, r1, r2 *byte, n int)
// The Scharr derivatives of the pixels from 1 to n of the rows r0, r1, r2 (each read from
// 0 to n+1), x and y interleaved, n a multiple of 16.
TEXT ·scharrRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ    out+0(FP), DI
	MOVQ    r0+8(FP), SI
	MOVQ    r1+16(FP), DX
	MOVQ    r2+24(FP), R8
	MOVQ    n+32(FP), CX
	VMOVDQU threesW<>(SB), Y14
	VMOVDQU tensW<>(SB), Y15

sloop:
	VPMOVZXBW (SI), Y0   // a0
	VPMOVZXBW 1(SI), Y1  // b0
	VPMOVZXBW 2(SI), Y2  // c0
	VPMOVZXBW (DX), Y3   // a1
	VPMOVZXBW 2(DX), Y4  // c1
	VPMOVZXBW (R8), Y5   // a2
	VPMOVZXBW 1(R8), Y6  // b2
	VPMOVZXBW 2(R8), Y7  // c2

	// x: 3·(c0 + c2 − a0 − a2) + 10·(c1 − a1)
	VPADDW  Y7, Y2, Y8
	VPADDW  Y5, Y0, Y9
	VPSUBW  Y9, Y8, Y8
	VPMULLW Y14, Y8, Y8
	VPSUBW  Y3, Y4, Y9
	VPMULLW Y15, Y9, Y9
	VPADDW  Y9, Y8, Y8

	// y: 3·(a2 − a0 + c2 − c0) + 10·(b2 − b0)
	VPADDW  Y7, Y5, Y10
	VPADDW  Y2, Y0, Y11
	VPSUBW  Y11, Y10, Y10
	VPMULLW Y14, Y10, Y10
	VPSUBW  Y1, Y6, Y11
	VPMULLW Y15, Y11, Y11
	VPADDW  Y11, Y10, Y10

	VPUNPCKLWD Y10, Y8, Y0
	VPUNPCKHWD Y10, Y8, Y1
	VPERM2I128 $0x20, Y1, Y0, Y2
	VPERM2I128 $0x31, Y1, Y0, Y3
	VMOVDQU    Y2, (DI)
	VMOVDQU    Y3, 32(DI)

	ADDQ $16, SI
	ADDQ $16, DX
	ADDQ $16, R8
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ  sloop
	VZEROUPPER
	RET
