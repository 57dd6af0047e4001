//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of gauss.go's loops: along the rows, the third prefix sums (8 rows at once)
// and the eight taps (int32, 8 a group); down the columns, rows of int64 sums moved down and the last pass's
// values (4 a group). The callers pass whole groups and do the rest in Go;
// effects_simd_test.go holds each to its twin.

// TRANSPOSE8 transposes the 8 × 8 int32 block whose rows are a0 … a7 into b0 … b7 (b_j
// its column j), the a's overwritten: pairs of rows interleaved by 32 bits, then by 64,
// then the 128-bit halves swapped.
#define TRANSPOSE8(a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7) \
	VPUNPCKLDQ  a1, a0, b0;        \
	VPUNPCKHDQ  a1, a0, b1;        \
	VPUNPCKLDQ  a3, a2, b2;        \
	VPUNPCKHDQ  a3, a2, b3;        \
	VPUNPCKLDQ  a5, a4, b4;        \
	VPUNPCKHDQ  a5, a4, b5;        \
	VPUNPCKLDQ  a7, a6, b6;        \
	VPUNPCKHDQ  a7, a6, b7;        \
	VPUNPCKLQDQ b2, b0, a0;        \
	VPUNPCKHQDQ b2, b0, a1;        \
	VPUNPCKLQDQ b3, b1, a2;        \
	VPUNPCKHQDQ b3, b1, a3;        \
	VPUNPCKLQDQ b6, b4, a4;        \
	VPUNPCKHQDQ b6, b4, a5;        \
	VPUNPCKLQDQ b7, b5, a6;        \
	VPUNPCKHQDQ b7, b5, a7;        \
	VPERM2I128  $0x20, a4, a0, b0; \
	VPERM2I128  $0x31, a4, a0, b4; \
	VPERM2I128  $0x20, a5, a1, b1; \
	VPERM2I128  $0x31, a5, a1, b5; \
	VPERM2I128  $0x20, a6, a2, b2; \
	VPERM2I128  $0x31, a6, a2, b6; \
	VPERM2I128  $0x20, a7, a3, b3; \
	VPERM2I128  $0x31, a7, a3, b7

// RUNNING adds to the columns Y8 … Y15 of a block (8 lines' values at 8 positions) the
// running sum before each along the lines, carried in at off(DX) and out there.
#define RUNNING(off) \
	VPADDD  off(DX), Y8, Y8; \
	VPADDD  Y8, Y9, Y9;      \
	VPADDD  Y9, Y10, Y10;    \
	VPADDD  Y10, Y11, Y11;   \
	VPADDD  Y11, Y12, Y12;   \
	VPADDD  Y12, Y13, Y13;   \
	VPADDD  Y13, Y14, Y14;   \
	VPADDD  Y14, Y15, Y15;   \
	VMOVDQU Y15, off(DX)

// func fxPrefix3AVX2(p *int32, stride int, carry *int32, groups int)
// The 8 lines p, p + stride, … (int32s) become their third inclusive prefix sums (int32,
// wrapping), in place, a block of 8 positions at a time: transposed, three running sums
// across the columns (the carries, 3 × 8 int32 at carry, zero at the start), and back.
TEXT ·fxPrefix3AVX2(SB), NOSPLIT, $0-32
	MOVQ  p+0(FP), SI
	MOVQ  stride+8(FP), R8
	MOVQ  carry+16(FP), DX
	MOVQ  groups+24(FP), CX
	SHLQ  $2, R8
	LEAQ  (R8)(R8*2), R9
	LEAQ  (R8)(R8*4), R10
	LEAQ  (R9)(R8*4), R11
	TESTQ CX, CX
	JLE   donePrefix3

loopPrefix3:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(R8*1), Y1
	VMOVDQU (SI)(R8*2), Y2
	VMOVDQU (SI)(R9*1), Y3
	VMOVDQU (SI)(R8*4), Y4
	VMOVDQU (SI)(R10*1), Y5
	VMOVDQU (SI)(R9*2), Y6
	VMOVDQU (SI)(R11*1), Y7
	TRANSPOSE8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	RUNNING(0)
	RUNNING(32)
	RUNNING(64)
	TRANSPOSE8(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVDQU Y0, (SI)
	VMOVDQU Y1, (SI)(R8*1)
	VMOVDQU Y2, (SI)(R8*2)
	VMOVDQU Y3, (SI)(R9*1)
	VMOVDQU Y4, (SI)(R8*4)
	VMOVDQU Y5, (SI)(R10*1)
	VMOVDQU Y6, (SI)(R9*2)
	VMOVDQU Y7, (SI)(R11*1)
	ADDQ    $32, SI
	DECQ    CX
	JNZ     loopPrefix3

donePrefix3:
	VZEROUPPER
	RET

// func fxGaussTapsAVX2(out unsafe.Pointer, wide bool, p *int32, w0, w1, w2, groups int)
// out[i] = p[i+w0+w1+w2] − p[i+w0+w1] − p[i+w0+w2] − p[i+w1+w2] + p[i+w0] + p[i+w1] +
// p[i+w2] − p[i], int32 arithmetic (wrapping), out int64s (widened) if wide, else int32s;
// 8 a group.
TEXT ·fxGaussTapsAVX2(SB), NOSPLIT, $0-56
	MOVQ   out+0(FP), DI
	MOVBQZX wide+8(FP), R12
	MOVQ   p+16(FP), SI
	MOVQ   w0+24(FP), AX
	MOVQ   w1+32(FP), BX
	MOVQ   w2+40(FP), DX
	MOVQ   groups+48(FP), CX
	SHLQ $2, AX
	SHLQ $2, BX
	SHLQ $2, DX
	LEAQ (AX)(BX*1), R8
	LEAQ (AX)(DX*1), R9
	LEAQ (BX)(DX*1), R10
	LEAQ (R8)(DX*1), R11
	TESTQ CX, CX
	JLE   doneTaps

loopTaps:
	VMOVDQU      (SI)(R11*1), Y0
	VPSUBD       (SI)(R8*1), Y0, Y0
	VPSUBD       (SI)(R9*1), Y0, Y0
	VPSUBD       (SI)(R10*1), Y0, Y0
	VPADDD       (SI)(AX*1), Y0, Y0
	VPADDD       (SI)(BX*1), Y0, Y0
	VPADDD       (SI)(DX*1), Y0, Y0
	VPSUBD       (SI), Y0, Y0
	TESTQ        R12, R12
	JNZ          wideTaps
	VMOVDQU      Y0, (DI)
	ADDQ         $32, DI
	ADDQ         $32, SI
	DECQ         CX
	JNZ          loopTaps
	JMP          doneTaps

wideTaps:
	VPMOVSXDQ    X0, Y1
	VEXTRACTI128 $1, Y0, X2
	VPMOVSXDQ    X2, Y2
	VMOVDQU      Y1, (DI)
	VMOVDQU      Y2, 32(DI)
	ADDQ         $64, DI
	ADDQ         $32, SI
	DECQ         CX
	JNZ          loopTaps

doneTaps:
	VZEROUPPER
	RET

// func fxGaussSlideAVX2(dst, prev, add, sub unsafe.Pointer, wide bool, groups int)
// dst[i] = prev[i] + add[i] − sub[i] (dst may be prev), int64s if wide (4 a group), else
// int32s (8, wrapping).
TEXT ·fxGaussSlideAVX2(SB), NOSPLIT, $0-48
	MOVQ    dst+0(FP), DI
	MOVQ    prev+8(FP), SI
	MOVQ    add+16(FP), R8
	MOVQ    sub+24(FP), R9
	MOVBQZX wide+32(FP), R12
	MOVQ    groups+40(FP), CX
	TESTQ   CX, CX
	JLE     doneSlide

loopSlide:
	VMOVDQU (SI), Y0
	VMOVDQU (R8), Y1
	VMOVDQU (R9), Y2
	TESTQ   R12, R12
	JZ      narrowSlide
	VPADDQ  Y1, Y0, Y0
	VPSUBQ  Y2, Y0, Y0
	JMP     storeSlide

narrowSlide:
	VPADDD Y1, Y0, Y0
	VPSUBD Y2, Y0, Y0

storeSlide:
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	DECQ    CX
	JNZ     loopSlide

doneSlide:
	VZEROUPPER
	RET

// func fxGaussOutAVX2(out *float32, cur, add, sub unsafe.Pointer, wide bool, dx *float64, dy float64, groups int)
// cur[i] += add[i] − sub[i]; out[i] = float32(float64(cur[i]) / (dx[i]·dy)): a group is 4
// int64 sums if wide, else 8 int32s. The int64 sums lie in [0, 2⁵²): OR-ing in 2⁵²'s
// exponent and subtracting 2⁵² is the exact float64 (AVX2 has no int64 conversion); the
// int32s convert exactly (VCVTDQ2PD); the division and the rounding to float32 are IEEE's,
// as Go's.
TEXT ·fxGaussOutAVX2(SB), NOSPLIT, $0-64
	MOVQ         out+0(FP), DI
	MOVQ         cur+8(FP), SI
	MOVQ         add+16(FP), R8
	MOVQ         sub+24(FP), R9
	MOVBQZX      wide+32(FP), R12
	MOVQ         dx+40(FP), R10
	VBROADCASTSD dy+48(FP), Y5
	MOVQ         groups+56(FP), CX
	MOVQ         $0x4330000000000000, AX
	MOVQ         AX, X6
	VPBROADCASTQ X6, Y6
	TESTQ        CX, CX
	JLE          doneOut

loopOut:
	VMOVDQU (SI), Y0
	VMOVDQU (R8), Y1
	VMOVDQU (R9), Y2
	TESTQ   R12, R12
	JZ      narrowOut
	VPADDQ     Y1, Y0, Y0
	VPSUBQ     Y2, Y0, Y0
	VMOVDQU    Y0, (SI)
	VPOR       Y6, Y0, Y1
	VSUBPD     Y6, Y1, Y1
	VMULPD     (R10), Y5, Y2
	VDIVPD     Y2, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMOVUPS    X1, (DI)
	ADDQ       $16, DI
	ADDQ       $32, R10
	JMP        nextOut

narrowOut:
	VPADDD       Y1, Y0, Y0
	VPSUBD       Y2, Y0, Y0
	VMOVDQU      Y0, (SI)
	VCVTDQ2PD    X0, Y1
	VEXTRACTI128 $1, Y0, X2
	VCVTDQ2PD    X2, Y2
	VMULPD       (R10), Y5, Y3
	VMULPD       32(R10), Y5, Y4
	VDIVPD       Y3, Y1, Y1
	VDIVPD       Y4, Y2, Y2
	VCVTPD2PSY   Y1, X1
	VCVTPD2PSY   Y2, X2
	VMOVUPS      X1, (DI)
	VMOVUPS      X2, 16(DI)
	ADDQ         $32, DI
	ADDQ         $64, R10

nextOut:
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  loopOut

doneOut:
	VZEROUPPER
	RET
