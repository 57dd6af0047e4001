//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// AVX2 twins of gauss.go's loops: along the rows, the third prefix sums and the eight taps
// (int32, 8 a group); down the columns, rows of int64 sums moved down and the last pass's
// values (4 a group). The callers pass whole groups and do the rest in Go;
// effects_simd_test.go holds each to its twin.

// func fxGaussSlideAVX2(dst, prev, add, sub *int64, groups int)
// dst[i] = prev[i] + add[i] − sub[i] (dst may be prev).
TEXT ·fxGaussSlideAVX2(SB), NOSPLIT, $0-40
	MOVQ  dst+0(FP), DI
	MOVQ  prev+8(FP), SI
	MOVQ  add+16(FP), R8
	MOVQ  sub+24(FP), R9
	MOVQ  groups+32(FP), CX
	TESTQ CX, CX
	JLE   doneSlide

loopSlide:
	VMOVDQU (SI), Y0
	VPADDQ  (R8), Y0, Y0
	VPSUBQ  (R9), Y0, Y0
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

// func fxGaussOutAVX2(out *float32, cur, add, sub *int64, dx *float64, dy float64, groups int)
// cur[i] += add[i] − sub[i]; out[i] = float32(float64(cur[i]) / (dx[i]·dy)). The sums lie
// in [0, 2⁵²): OR-ing in 2⁵²'s exponent and subtracting 2⁵² is the exact float64 (AVX2
// has no int64 conversion); the division and the rounding to float32 are IEEE's, as Go's.
TEXT ·fxGaussOutAVX2(SB), NOSPLIT, $0-56
	MOVQ         out+0(FP), DI
	MOVQ         cur+8(FP), SI
	MOVQ         add+16(FP), R8
	MOVQ         sub+24(FP), R9
	MOVQ         dx+32(FP), R10
	VBROADCASTSD dy+40(FP), Y5
	MOVQ         groups+48(FP), CX
	MOVQ         $0x4330000000000000, AX
	MOVQ         AX, X6
	VPBROADCASTQ X6, Y6
	TESTQ        CX, CX
	JLE          doneOut

loopOut:
	VMOVDQU    (SI), Y0
	VPADDQ     (R8), Y0, Y0
	VPSUBQ     (R9), Y0, Y0
	VMOVDQU    Y0, (SI)
	VPOR       Y6, Y0, Y1
	VSUBPD     Y6, Y1, Y1
	VMULPD     (R10), Y5, Y2
	VDIVPD     Y2, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMOVUPS    X1, (DI)
	ADDQ       $16, DI
	ADDQ       $32, SI
	ADDQ       $32, R8
	ADDQ       $32, R9
	ADDQ       $32, R10
	DECQ       CX
	JNZ        loopOut

doneOut:
	VZEROUPPER
	RET

// func fxPrefix3AVX2(p *int32, groups int)
// p becomes its third inclusive prefix sums (int32, wrapping), in place, 8 a group.
TEXT ·fxPrefix3AVX2(SB), NOSPLIT, $0-16
	MOVQ   p+0(FP), DI
	MOVQ   groups+8(FP), CX
	VPXOR  Y5, Y5, Y5
	VPXOR  Y6, Y6, Y6
	VPXOR  Y7, Y7, Y7
	TESTQ  CX, CX
	JLE    donePrefix3

loopPrefix3:
	VMOVDQU (DI), Y0
	PREFIXSTEP(Y5)
	PREFIXSTEP(Y6)
	PREFIXSTEP(Y7)
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loopPrefix3

donePrefix3:
	VZEROUPPER
	RET

// func fxGaussTapsAVX2(out *int64, p *int32, w0, w1, w2, groups int)
// out[i] = int64(p[i+w0+w1+w2] − p[i+w0+w1] − p[i+w0+w2] − p[i+w1+w2] + p[i+w0] + p[i+w1]
// + p[i+w2] − p[i]), int32 arithmetic (wrapping) then widened, 8 a group.
TEXT ·fxGaussTapsAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ w0+16(FP), AX
	MOVQ w1+24(FP), BX
	MOVQ w2+32(FP), DX
	MOVQ groups+40(FP), CX
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
