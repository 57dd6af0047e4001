//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// AVX2 twins of effects_simd.go's Go loops (the blends, on planes whose samples lie side by
// side; blur's column and prefix sums and means; zoom's vertical interpolation): 8 samples
// a group, the Go code's operations in its order (a multiply then an add, no FMA), so that
// the results are the same bits; effects_simd_test.go checks that. The callers pass whole
// groups and do the rest in Go.

VEC8(fxHalves<>, $0x3f0000003f000000)

VEC8(fxMax8<>, $0x437f0000437f0000)

VEC8(fxMax10<>, $0x447fc000447fc000)

// FXMIX is fxMix on 8 lanes: Y3 = the effect values, Y1 = the samples (float32), coverage
// at (DX); Y3 becomes min(max(s + c·(e − s) + 0.5, 0), max) truncated to int32. Y6 = 0,
// Y7 = 0.5, Y8 = max.
#define FXMIX \
	VSUBPS     Y1, Y3, Y3; \
	VMULPS     (DX), Y3, Y3; \
	VADDPS     Y3, Y1, Y3; \
	VADDPS     Y7, Y3, Y3; \
	VMAXPS     Y6, Y3, Y3; \
	VMINPS     Y8, Y3, Y3; \
	VCVTTPS2DQ Y3, Y3

// POINT loads the fxPoint at R8 (unless nil): its op in R9, a, b, c in Y11, Y12, Y13.
#define POINT(none) \
	TESTQ        R8, R8; \
	JZ           none; \
	MOVLQSX      0(R8), R9; \
	VBROADCASTSS 4(R8), Y11; \
	VBROADCASTSS 8(R8), Y12; \
	VBROADCASTSS 12(R8), Y13; \
none:

// EFFECT sets Y3 to the effect values of the samples Y1: fxPoint.at where R8 is not nil,
// else the next 8 values at SI. Y2 is clobbered.
#define EFFECT(values, threshold, tint, next) \
	TESTQ     R8, R8; \
	JZ        values; \
	CMPQ      R9, $2; \
	JEQ       threshold; \
	JGT       tint; \
	VSUBPS    Y1, Y11, Y3 /* invert: a − s */; \
	JMP       next; \
threshold: \
	VCMPPS    $0x1d, Y11, Y1, Y2 /* s ≥ a (GE_OQ) */; \
	VBLENDVPS Y2, Y12, Y13, Y3; \
	JMP       next; \
tint: \
	VSUBPS    Y1, Y12, Y3 /* s + a·(b − s) */; \
	VMULPS    Y3, Y11, Y3; \
	VADDPS    Y3, Y1, Y3; \
	JMP       next; \
values: \
	VMOVUPS   (SI), Y3; \
	ADDQ      $32, SI; \
next:

// BLEND is the loop of fxBlend8AVX2 and fxBlend16AVX2 over CX groups of size-byte samples
// at DI: load sets Y0 to 8 samples as int32, store writes Y3's 8 results back. Y8 = max.
#define BLEND(load, store, size, point, values, threshold, tint, have, next, done) \
	VXORPS    Y6, Y6, Y6; \
	VMOVUPS   fxHalves<>(SB), Y7; \
	POINT(point); \
	TESTQ     CX, CX; \
	JLE       done; \
next: \
	load; \
	VCVTDQ2PS Y0, Y1; \
	EFFECT(values, threshold, tint, have); \
	FXMIX; \
	store; \
	ADDQ      $(8*size), DI; \
	ADDQ      $32, DX; \
	DECQ      CX; \
	JNZ       next; \
done: \
	VZEROUPPER; \
	RET

#define LOAD8 VPMOVZXBD (DI), Y0
#define STORE8 \
	VEXTRACTI128 $1, Y3, X4; \
	VPACKUSDW    X4, X3, X3; \
	VPACKUSWB    X3, X3, X3; \
	VMOVQ        X3, (DI)

// The 10-bit words: the value at bit shift X9.
#define LOAD16 VPMOVZXWD (DI), Y0; VPSRLD X9, Y0, Y0
#define STORE16 \
	VPSLLD       X9, Y3, Y3; \
	VEXTRACTI128 $1, Y3, X4; \
	VPACKUSDW    X4, X3, X3; \
	VMOVDQU      X3, (DI)

// func fxBlend8AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int)
TEXT ·fxBlend8AVX2(SB), NOSPLIT, $0-40
	MOVQ    p+0(FP), DI
	MOVQ    e+8(FP), SI
	MOVQ    q+16(FP), R8
	MOVQ    cov+24(FP), DX
	MOVQ    groups+32(FP), CX
	VMOVUPS fxMax8<>(SB), Y8
	BLEND(LOAD8, STORE8, 1, point8, values8, threshold8, tint8, have8, loop8, done8)

// func fxBlend16AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int, shift uint)
TEXT ·fxBlend16AVX2(SB), NOSPLIT, $0-48
	MOVQ    p+0(FP), DI
	MOVQ    e+8(FP), SI
	MOVQ    q+16(FP), R8
	MOVQ    cov+24(FP), DX
	MOVQ    groups+32(FP), CX
	MOVQ    shift+40(FP), BX
	VMOVQ   BX, X9
	VMOVUPS fxMax10<>(SB), Y8
	BLEND(LOAD16, STORE16, 2, point16, values16, threshold16, tint16, have16, loop16, done16)

// func fxLerpAVX2(out, top, bot *float32, t float32, groups int)
TEXT ·fxLerpAVX2(SB), NOSPLIT, $0-40
	MOVQ         out+0(FP), DI
	MOVQ         top+8(FP), SI
	MOVQ         bot+16(FP), DX
	VBROADCASTSS t+24(FP), Y5
	MOVQ         groups+32(FP), CX
	TESTQ        CX, CX
	JLE          doneLerp

loopLerp:
	VMOVUPS (SI), Y0
	VMOVUPS (DX), Y1
	VSUBPS  Y0, Y1, Y1
	VMULPS  Y1, Y5, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	DECQ    CX
	JNZ     loopLerp

doneLerp:
	VZEROUPPER
	RET

// SLIDE8 and SLIDE16 set Y0 to 8 samples at reg as int32 (SLIDE16: shifted right by X9).
#define SLIDE8(reg) VPMOVZXBD (reg), Y0
#define SLIDE16(reg) VPMOVZXWD (reg), Y0; VPSRLD X9, Y0, Y0

// SLIDE is the loop of fxSlide8AVX2 and fxSlide16AVX2: col += the samples at SI, less those
// at DX unless DX is nil; size bytes a sample.
#define SLIDE(load, size, sub, next, done) \
	TESTQ   CX, CX; \
	JLE     done; \
next: \
	load(SI); \
	VPADDD  (DI), Y0, Y1; \
	TESTQ   DX, DX; \
	JZ      sub; \
	load(DX); \
	VPSUBD  Y0, Y1, Y1; \
	ADDQ    $(8*size), DX; \
sub: \
	VMOVDQU Y1, (DI); \
	ADDQ    $32, DI; \
	ADDQ    $(8*size), SI; \
	DECQ    CX; \
	JNZ     next; \
done: \
	VZEROUPPER; \
	RET

// func fxSlide8AVX2(col *int32, add, sub *byte, groups int)
TEXT ·fxSlide8AVX2(SB), NOSPLIT, $0-32
	MOVQ col+0(FP), DI
	MOVQ add+8(FP), SI
	MOVQ sub+16(FP), DX
	MOVQ groups+24(FP), CX
	SLIDE(SLIDE8, 1, nosub8, next8, done8s)

// func fxSlide16AVX2(col *int32, add, sub *byte, groups int, shift uint)
TEXT ·fxSlide16AVX2(SB), NOSPLIT, $0-40
	MOVQ  col+0(FP), DI
	MOVQ  add+8(FP), SI
	MOVQ  sub+16(FP), DX
	MOVQ  groups+24(FP), CX
	MOVQ  shift+32(FP), BX
	VMOVQ BX, X9
	SLIDE(SLIDE16, 2, nosub16, next16, done16s)

// func fxBoxOutAVX2(out *float32, hi, lo *int32, recip *float32, groups int)
TEXT ·fxBoxOutAVX2(SB), NOSPLIT, $0-40
	MOVQ  out+0(FP), DI
	MOVQ  hi+8(FP), SI
	MOVQ  lo+16(FP), DX
	MOVQ  recip+24(FP), R8
	MOVQ  groups+32(FP), CX
	TESTQ CX, CX
	JLE   doneOut

loopOut:
	VMOVDQU   (SI), Y0
	VPSUBD    (DX), Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    (R8), Y0, Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $32, DI
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, R8
	DECQ      CX
	JNZ       loopOut

doneOut:
	VZEROUPPER
	RET

// func fxPrefixAVX2(p, col *int32, groups int)
// p[i] = p[i−1] + col[i−1] for i = 1 … 8·groups (p[0] given), int32 arithmetic (wrapping):
// within each 128-bit half by two shifted adds, the low half's last sum carried into the
// high half, and the sum before the group into all eight. The group's own total is
// broadcast from its sums before that carry, so that the chain from group to group is one
// add.
TEXT ·fxPrefixAVX2(SB), NOSPLIT, $0-24
	MOVQ         p+0(FP), DI
	MOVQ         col+8(FP), SI
	MOVQ         groups+16(FP), CX
	VPBROADCASTD (DI), Y5
	ADDQ         $4, DI
	TESTQ        CX, CX
	JLE          donePrefix

loopPrefix:
	VMOVDQU    (SI), Y0
	VPSLLDQ    $4, Y0, Y1
	VPADDD     Y1, Y0, Y0
	VPSLLDQ    $8, Y0, Y1
	VPADDD     Y1, Y0, Y0
	VPSHUFD    $0xff, Y0, Y1
	VPERM2I128 $0x08, Y1, Y1, Y1
	VPADDD     Y1, Y0, Y0
	VPSHUFD    $0xff, Y0, Y2
	VPERM2I128 $0x11, Y2, Y2, Y2
	VPADDD     Y5, Y0, Y0
	VPADDD     Y2, Y5, Y5
	VMOVDQU    Y0, (DI)
	ADDQ       $32, DI
	ADDQ       $32, SI
	DECQ       CX
	JNZ        loopPrefix

donePrefix:
	VZEROUPPER
	RET

// func fxAcrossAVX2(dst, row *float32, base, perm *int32, w *float32, groups int)
// dst[x] = a0 + w[x]·(a1 − a0), a0 = row[base[g] + perm[16g + j]], a1 = row[base[g] + 1 +
// perm[16g + 8 + j]] for x = 8g + j: two loads of 8 and a permutation each, no gather.
TEXT ·fxAcrossAVX2(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DI
	MOVQ  row+8(FP), SI
	MOVQ  base+16(FP), DX
	MOVQ  perm+24(FP), R8
	MOVQ  w+32(FP), R9
	MOVQ  groups+40(FP), CX
	TESTQ CX, CX
	JLE   doneAcross

loopAcross:
	MOVLQSX (DX), AX
	VMOVDQU 0(R8), Y2
	VMOVDQU 32(R8), Y3
	VPERMPS (SI)(AX*4), Y2, Y0
	VPERMPS 4(SI)(AX*4), Y3, Y1
	VSUBPS  Y0, Y1, Y1
	VMULPS  (R9), Y1, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $4, DX
	ADDQ    $64, R8
	ADDQ    $32, R9
	DECQ    CX
	JNZ     loopAcross

doneAcross:
	VZEROUPPER
	RET

// func fxCapAVX2(dst, src *float32, c float32, groups int)
// dst[x] = src[x] capped at c (VMINPS: src[x] where below c, else c).
TEXT ·fxCapAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	VBROADCASTSS c+16(FP), Y1
	MOVQ         groups+24(FP), CX
	TESTQ        CX, CX
	JLE          doneCap

loopCap:
	VMINPS  (SI), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNZ     loopCap

doneCap:
	VZEROUPPER
	RET

// func fxChromaAVX2(dst, c0, c1 *float32, q float32, groups int)
// dst[i] = ((c0[2i] + c1[2i]) + (c0[2i+1] + c1[2i+1]))·q: the column sums of 16 pixels,
// added in pairs by VHADDPS (which interleaves its registers' 128-bit halves; VPERMPD puts
// the 8 results back in order).
TEXT ·fxChromaAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         c0+8(FP), SI
	MOVQ         c1+16(FP), DX
	VBROADCASTSS q+24(FP), Y5
	MOVQ         groups+32(FP), CX
	TESTQ        CX, CX
	JLE          doneChroma

loopChroma:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VADDPS  (DX), Y0, Y0
	VADDPS  32(DX), Y1, Y1
	VHADDPS Y1, Y0, Y0
	VPERMPD $0xd8, Y0, Y0
	VMULPS  Y5, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	DECQ    CX
	JNZ     loopChroma

doneChroma:
	VZEROUPPER
	RET

// func fxWiden8AVX2(out *float32, src *byte, groups int)
TEXT ·fxWiden8AVX2(SB), NOSPLIT, $0-24
	MOVQ  out+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  groups+16(FP), CX
	TESTQ CX, CX
	JLE   widenDone

widenNext:
	VPMOVZXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $8, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       widenNext

widenDone:
	VZEROUPPER
	RET

// func fxEvenBytesAVX2(dst, src *byte, groups int)
//
// dst[i] = src[2i], 32 a group: 64 bytes masked to their words' low bytes, packed (each
// 128 bits' halves side by side) and put back in order.
TEXT ·fxEvenBytesAVX2(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         groups+16(FP), CX
	VPCMPEQW     Y8, Y8, Y8
	VPSRLW       $8, Y8, Y8 // 0x00ff a word
	TESTQ        CX, CX
	JLE          evenDone

evenNext:
	VPAND     (SI), Y8, Y0
	VPAND     32(SI), Y8, Y1
	VPACKUSWB Y1, Y0, Y0
	VPERMQ    $0xd8, Y0, Y0
	VMOVDQU   Y0, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       evenNext

evenDone:
	VZEROUPPER
	RET

// TCOLUMNS stores x's two columns of 8 bytes at BX and BX + DX, BX moved past them.
#define TCOLUMNS(x) \
	VMOVQ   x, (BX); \
	ADDQ    DX, BX; \
	VMOVHPS x, (BX); \
	ADDQ    DX, BX

// func fxTransposeAVX2(dst *byte, m int, src *byte, n int, groups int)
//
// 8 rows of groups·32 bytes from src (rows n apart) into groups·32 rows of 8 from dst (m
// apart): per 32 columns the rows' bytes, words and double words interleaved in turn
// (VPUNPCK…), which leaves in each 128 bits of register k columns 2k and 2k + 1 (16 more
// in the upper 128), 8 bytes each.
TEXT ·fxTransposeAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ m+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), AX
	MOVQ groups+32(FP), CX
	TESTQ CX, CX
	JLE  transposeDone
	LEAQ (AX)(AX*2), R8 // 3n

transposeNext:
	MOVQ       SI, R9
	VMOVDQU    (R9), Y8
	VPUNPCKLBW (R9)(AX*1), Y8, Y0
	VPUNPCKHBW (R9)(AX*1), Y8, Y1
	VMOVDQU    (R9)(AX*2), Y8
	VPUNPCKLBW (R9)(R8*1), Y8, Y2
	VPUNPCKHBW (R9)(R8*1), Y8, Y3
	LEAQ       (R9)(AX*4), R9
	VMOVDQU    (R9), Y8
	VPUNPCKLBW (R9)(AX*1), Y8, Y4
	VPUNPCKHBW (R9)(AX*1), Y8, Y5
	VMOVDQU    (R9)(AX*2), Y8
	VPUNPCKLBW (R9)(R8*1), Y8, Y6
	VPUNPCKHBW (R9)(R8*1), Y8, Y7

	VPUNPCKHWD Y2, Y0, Y8
	VPUNPCKLWD Y2, Y0, Y0 // columns 0-3, rows 0-3
	VPUNPCKHWD Y3, Y1, Y2 // columns 12-15
	VPUNPCKLWD Y3, Y1, Y1 // columns 8-11
	VMOVDQU    Y8, Y3     // columns 4-7
	VPUNPCKHWD Y6, Y4, Y8
	VPUNPCKLWD Y6, Y4, Y4 // columns 0-3, rows 4-7
	VPUNPCKHWD Y7, Y5, Y6 // columns 12-15
	VPUNPCKLWD Y7, Y5, Y5 // columns 8-11
	VMOVDQU    Y8, Y7     // columns 4-7

	VPUNPCKHDQ Y4, Y0, Y8  // columns 2, 3
	VPUNPCKLDQ Y4, Y0, Y0  // columns 0, 1
	VPUNPCKHDQ Y7, Y3, Y9  // columns 6, 7
	VPUNPCKLDQ Y7, Y3, Y10 // columns 4, 5
	VPUNPCKHDQ Y5, Y1, Y11 // columns 10, 11
	VPUNPCKLDQ Y5, Y1, Y12 // columns 8, 9
	VPUNPCKHDQ Y6, Y2, Y7  // columns 14, 15
	VPUNPCKLDQ Y6, Y2, Y6  // columns 12, 13
	VMOVDQU    Y8, Y1
	VMOVDQU    Y10, Y2
	VMOVDQU    Y9, Y3
	VMOVDQU    Y12, Y4
	VMOVDQU    Y11, Y5

	MOVQ DI, BX
	TCOLUMNS(X0)
	TCOLUMNS(X1)
	TCOLUMNS(X2)
	TCOLUMNS(X3)
	TCOLUMNS(X4)
	TCOLUMNS(X5)
	TCOLUMNS(X6)
	TCOLUMNS(X7)
	VEXTRACTI128 $1, Y0, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y1, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y2, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y3, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y4, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y5, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y6, X8
	TCOLUMNS(X8)
	VEXTRACTI128 $1, Y7, X8
	TCOLUMNS(X8)
	ADDQ $32, SI
	MOVQ BX, DI
	DECQ CX
	JNZ  transposeNext

transposeDone:
	VZEROUPPER
	RET

// func fxSortMasksAVX2(in, down *uint64, keys *byte, lo, span uint32, groups int)
//
// Per group of 32 keys, a 32-bit half of in and of down: (key − lo) mod 256 ≤ span, and the
// next key (one past the group's last is read) below the key.
TEXT ·fxSortMasksAVX2(SB), NOSPLIT, $0-40
	MOVQ         in+0(FP), DI
	MOVQ         down+8(FP), DX
	MOVQ         keys+16(FP), SI
	MOVL         lo+24(FP), AX
	VMOVD        AX, X8
	VPBROADCASTB X8, Y8
	MOVL         span+28(FP), AX
	VMOVD        AX, X9
	VPBROADCASTB X9, Y9
	MOVQ         groups+32(FP), CX
	TESTQ        CX, CX
	JLE          masksDone

masksNext:
	VMOVDQU   (SI), Y0
	VMOVDQU   1(SI), Y1
	VPSUBB    Y8, Y0, Y2
	VPMINUB   Y9, Y2, Y3
	VPCMPEQB  Y2, Y3, Y3 // key − lo ≤ span
	VPMOVMSKB Y3, AX
	MOVL      AX, (DI)
	VPMINUB   Y0, Y1, Y4
	VPCMPEQB  Y0, Y4, Y4 // the next key ≥ the key
	VPMOVMSKB Y4, AX
	NOTL      AX
	MOVL      AX, (DX)
	ADDQ      $32, SI
	ADDQ      $4, DI
	ADDQ      $4, DX
	DECQ      CX
	JNZ       masksNext

masksDone:
	VZEROUPPER
	RET

// func fxKeyRangeAVX2(keys *byte, groups int) (lo, hi uint32)
//
// The least and greatest of groups (at least 1) groups of 32 keys.
TEXT ·fxKeyRangeAVX2(SB), NOSPLIT, $0-24
	MOVQ    keys+0(FP), SI
	MOVQ    groups+8(FP), CX
	VMOVDQU (SI), Y0
	VMOVDQU Y0, Y1
	ADDQ    $32, SI
	DECQ    CX
	JLE     rangeReduce

rangeNext:
	VMOVDQU (SI), Y2
	VPMINUB Y2, Y0, Y0
	VPMAXUB Y2, Y1, Y1
	ADDQ    $32, SI
	DECQ    CX
	JNZ     rangeNext

rangeReduce:
	VEXTRACTI128 $1, Y0, X2
	VPMINUB      X2, X0, X0
	VEXTRACTI128 $1, Y1, X3
	VPMAXUB      X3, X1, X1
	VPSRLDQ      $8, X0, X2
	VPMINUB      X2, X0, X0
	VPSRLDQ      $8, X1, X3
	VPMAXUB      X3, X1, X1
	VPSRLDQ      $4, X0, X2
	VPMINUB      X2, X0, X0
	VPSRLDQ      $4, X1, X3
	VPMAXUB      X3, X1, X1
	VPSRLDQ      $2, X0, X2
	VPMINUB      X2, X0, X0
	VPSRLDQ      $2, X1, X3
	VPMAXUB      X3, X1, X1
	VPSRLDQ      $1, X0, X2
	VPMINUB      X2, X0, X0
	VPSRLDQ      $1, X1, X3
	VPMAXUB      X3, X1, X1
	VMOVD        X0, AX
	MOVBLZX      AL, AX
	MOVL         AX, lo+16(FP)
	VMOVD        X1, AX
	MOVBLZX      AL, AX
	MOVL         AX, hi+20(FP)
	VZEROUPPER
	RET

// func fxLayOutAVX2(out *float32, c *int32, values int, least float32)
//
// Each of values keys from least on, as many times as c counts it (its float32), laid
// out from out one after another: 8 at a time, so up to 7 past the last are written too.
TEXT ·fxLayOutAVX2(SB), NOSPLIT, $0-28
	MOVQ         out+0(FP), DI
	MOVQ         c+8(FP), SI
	MOVQ         values+16(FP), CX
	VBROADCASTSS least+24(FP), Y0
	MOVL         $0x3f800000, AX  // 1.0
	VMOVD        AX, X1
	VBROADCASTSS X1, Y1
	TESTQ        CX, CX
	JLE          layOutDone

layOutValue:
	MOVLQSX (SI), DX
	MOVQ    DI, BX
	LEAQ    (DI)(DX*4), DI // the next key's first

layOutStore:
	VMOVUPS Y0, (BX)
	ADDQ    $32, BX
	CMPQ    BX, DI
	JLT     layOutStore
	VADDPS  Y1, Y0, Y0
	ADDQ    $4, SI
	DECQ    CX
	JNZ     layOutValue

layOutDone:
	VZEROUPPER
	RET

// fxRankItems are the items' lanes 0 to 63 with the top bit set: an item (key << 8 | lane)
// with its top bit flipped compares as unsigned under VPCMPGTW.
DATA fxRankItems<>+0x00(SB)/8, $0x8003800280018000
DATA fxRankItems<>+0x08(SB)/8, $0x8007800680058004
DATA fxRankItems<>+0x10(SB)/8, $0x800b800a80098008
DATA fxRankItems<>+0x18(SB)/8, $0x800f800e800d800c
DATA fxRankItems<>+0x20(SB)/8, $0x8013801280118010
DATA fxRankItems<>+0x28(SB)/8, $0x8017801680158014
DATA fxRankItems<>+0x30(SB)/8, $0x801b801a80198018
DATA fxRankItems<>+0x38(SB)/8, $0x801f801e801d801c
DATA fxRankItems<>+0x40(SB)/8, $0x8023802280218020
DATA fxRankItems<>+0x48(SB)/8, $0x8027802680258024
DATA fxRankItems<>+0x50(SB)/8, $0x802b802a80298028
DATA fxRankItems<>+0x58(SB)/8, $0x802f802e802d802c
DATA fxRankItems<>+0x60(SB)/8, $0x8033803280318030
DATA fxRankItems<>+0x68(SB)/8, $0x8037803680358034
DATA fxRankItems<>+0x70(SB)/8, $0x803b803a80398038
DATA fxRankItems<>+0x78(SB)/8, $0x803f803e803d803c
GLOBL fxRankItems<>(SB), (NOPTR+RODATA), $128

// RANKITEMS makes 16 items from the keys at off(SI), lanes at 2·off(AX), into y, and keeps
// them at 2·off(DI).
#define RANKITEMS(off, off2, y) \
	VPMOVZXBW off(SI), y; \
	VPSLLW    $8, y, y; \
	VPXOR     off2(AX), y, y; \
	VMOVDQU   y, off2(DI)

// RANKOUT stores the 16 word counts in acc (scratch x) as int32 at off(DI) and off+32(DI).
#define RANKOUT(acc, xacc, off, off32) \
	VPMOVZXWD    xacc, Y8; \
	VMOVDQU      Y8, off(DI); \
	VEXTRACTI128 $1, acc, X9; \
	VPMOVZXWD    X9, Y9; \
	VMOVDQU      Y9, off32(DI)

// RANKCMP counts in acc the items of the vector items above the item in Y8 (t scratch).
#define RANKCMP(items, acc, t) \
	VPCMPGTW Y8, items, t; \
	VPSUBW   t, acc, acc

// func fxRanksAVX2(places *int32, keys *byte, n int)
//
// The place of each of n (1 to 64) keys in them sorted stably: how many keys lie below it,
// and how many equal to it come before it. Each key is an item, key << 8 | its lane, and its
// place how many items lie below its own: the items are compared 16 lanes a vector with each
// item in turn. It reads 16·⌈n/16⌉ keys and writes 64 places, those past n scratch; places
// holds the items (words) until the counts replace them.
TEXT ·fxRanksAVX2(SB), NOSPLIT, $0-24
	MOVQ   places+0(FP), DI
	MOVQ   keys+8(FP), SI
	MOVQ   n+16(FP), CX
	LEAQ   fxRankItems<>(SB), AX
	VPXOR  Y4, Y4, Y4
	VPXOR  Y5, Y5, Y5
	VPXOR  Y6, Y6, Y6
	VPXOR  Y7, Y7, Y7
	XORQ   BX, BX
	RANKITEMS(0, 0, Y0)
	CMPQ   CX, $16
	JLE    ranks1
	RANKITEMS(16, 32, Y1)
	CMPQ   CX, $32
	JLE    ranks2
	RANKITEMS(32, 64, Y2)
	CMPQ   CX, $48
	JLE    ranks3
	RANKITEMS(48, 96, Y3)

ranks4:
	VPBROADCASTW (DI)(BX*2), Y8
	RANKCMP(Y0, Y4, Y9)
	RANKCMP(Y1, Y5, Y10)
	RANKCMP(Y2, Y6, Y11)
	RANKCMP(Y3, Y7, Y12)
	INCQ         BX
	CMPQ         BX, CX
	JLT          ranks4
	JMP          ranksOut

ranks3:
	VPBROADCASTW (DI)(BX*2), Y8
	RANKCMP(Y0, Y4, Y9)
	RANKCMP(Y1, Y5, Y10)
	RANKCMP(Y2, Y6, Y11)
	INCQ         BX
	CMPQ         BX, CX
	JLT          ranks3
	JMP          ranksOut

ranks2:
	VPBROADCASTW (DI)(BX*2), Y8
	RANKCMP(Y0, Y4, Y9)
	RANKCMP(Y1, Y5, Y10)
	INCQ         BX
	CMPQ         BX, CX
	JLT          ranks2
	JMP          ranksOut

ranks1:
	VPBROADCASTW (DI)(BX*2), Y8
	RANKCMP(Y0, Y4, Y9)
	INCQ         BX
	CMPQ         BX, CX
	JLT          ranks1

ranksOut:
	RANKOUT(Y4, X4, 0, 32)
	RANKOUT(Y5, X5, 64, 96)
	RANKOUT(Y6, X6, 128, 160)
	RANKOUT(Y7, X7, 192, 224)
	VZEROUPPER
	RET

// fxNetLanes are the lane numbers 0 to 127 (the lanes past a run's keys get 255).
DATA fxNetLanes<>+0x00(SB)/8, $0x0706050403020100
DATA fxNetLanes<>+0x08(SB)/8, $0x0f0e0d0c0b0a0908
DATA fxNetLanes<>+0x10(SB)/8, $0x1716151413121110
DATA fxNetLanes<>+0x18(SB)/8, $0x1f1e1d1c1b1a1918
DATA fxNetLanes<>+0x20(SB)/8, $0x2726252423222120
DATA fxNetLanes<>+0x28(SB)/8, $0x2f2e2d2c2b2a2928
DATA fxNetLanes<>+0x30(SB)/8, $0x3736353433323130
DATA fxNetLanes<>+0x38(SB)/8, $0x3f3e3d3c3b3a3938
DATA fxNetLanes<>+0x40(SB)/8, $0x4746454443424140
DATA fxNetLanes<>+0x48(SB)/8, $0x4f4e4d4c4b4a4948
DATA fxNetLanes<>+0x50(SB)/8, $0x5756555453525150
DATA fxNetLanes<>+0x58(SB)/8, $0x5f5e5d5c5b5a5958
DATA fxNetLanes<>+0x60(SB)/8, $0x6766656463626160
DATA fxNetLanes<>+0x68(SB)/8, $0x6f6e6d6c6b6a6968
DATA fxNetLanes<>+0x70(SB)/8, $0x7776757473727170
DATA fxNetLanes<>+0x78(SB)/8, $0x7f7e7d7c7b7a7978
GLOBL fxNetLanes<>(SB), (NOPTR+RODATA), $128

// fxNetXor are VPSHUFB's controls that give each lane the key of lane i XOR 1, 2, 4, 8, 3,
// 7 and 15 within its 16 (at 0x00, 0x20, … 0xc0).
DATA fxNetXor<>+0x00(SB)/8, $0x0607040502030001
DATA fxNetXor<>+0x08(SB)/8, $0x0e0f0c0d0a0b0809
DATA fxNetXor<>+0x10(SB)/8, $0x0607040502030001
DATA fxNetXor<>+0x18(SB)/8, $0x0e0f0c0d0a0b0809
DATA fxNetXor<>+0x20(SB)/8, $0x0504070601000302
DATA fxNetXor<>+0x28(SB)/8, $0x0d0c0f0e09080b0a
DATA fxNetXor<>+0x30(SB)/8, $0x0504070601000302
DATA fxNetXor<>+0x38(SB)/8, $0x0d0c0f0e09080b0a
DATA fxNetXor<>+0x40(SB)/8, $0x0302010007060504
DATA fxNetXor<>+0x48(SB)/8, $0x0b0a09080f0e0d0c
DATA fxNetXor<>+0x50(SB)/8, $0x0302010007060504
DATA fxNetXor<>+0x58(SB)/8, $0x0b0a09080f0e0d0c
DATA fxNetXor<>+0x60(SB)/8, $0x0f0e0d0c0b0a0908
DATA fxNetXor<>+0x68(SB)/8, $0x0706050403020100
DATA fxNetXor<>+0x70(SB)/8, $0x0f0e0d0c0b0a0908
DATA fxNetXor<>+0x78(SB)/8, $0x0706050403020100
DATA fxNetXor<>+0x80(SB)/8, $0x0405060700010203
DATA fxNetXor<>+0x88(SB)/8, $0x0c0d0e0f08090a0b
DATA fxNetXor<>+0x90(SB)/8, $0x0405060700010203
DATA fxNetXor<>+0x98(SB)/8, $0x0c0d0e0f08090a0b
DATA fxNetXor<>+0xa0(SB)/8, $0x0001020304050607
DATA fxNetXor<>+0xa8(SB)/8, $0x08090a0b0c0d0e0f
DATA fxNetXor<>+0xb0(SB)/8, $0x0001020304050607
DATA fxNetXor<>+0xb8(SB)/8, $0x08090a0b0c0d0e0f
DATA fxNetXor<>+0xc0(SB)/8, $0x08090a0b0c0d0e0f
DATA fxNetXor<>+0xc8(SB)/8, $0x0001020304050607
DATA fxNetXor<>+0xd0(SB)/8, $0x08090a0b0c0d0e0f
DATA fxNetXor<>+0xd8(SB)/8, $0x0001020304050607
GLOBL fxNetXor<>(SB), (NOPTR+RODATA), $224

// fxNetUpper marks the lanes i with bit 1, 2, 4, 8 and 16 set (at 0x00, 0x20, … 0x80):
// those that keep the greater key of their pair.
DATA fxNetUpper<>+0x00(SB)/8, $0xff00ff00ff00ff00
DATA fxNetUpper<>+0x08(SB)/8, $0xff00ff00ff00ff00
DATA fxNetUpper<>+0x10(SB)/8, $0xff00ff00ff00ff00
DATA fxNetUpper<>+0x18(SB)/8, $0xff00ff00ff00ff00
DATA fxNetUpper<>+0x20(SB)/8, $0xffff0000ffff0000
DATA fxNetUpper<>+0x28(SB)/8, $0xffff0000ffff0000
DATA fxNetUpper<>+0x30(SB)/8, $0xffff0000ffff0000
DATA fxNetUpper<>+0x38(SB)/8, $0xffff0000ffff0000
DATA fxNetUpper<>+0x40(SB)/8, $0xffffffff00000000
DATA fxNetUpper<>+0x48(SB)/8, $0xffffffff00000000
DATA fxNetUpper<>+0x50(SB)/8, $0xffffffff00000000
DATA fxNetUpper<>+0x58(SB)/8, $0xffffffff00000000
DATA fxNetUpper<>+0x60(SB)/8, $0x0000000000000000
DATA fxNetUpper<>+0x68(SB)/8, $0xffffffffffffffff
DATA fxNetUpper<>+0x70(SB)/8, $0x0000000000000000
DATA fxNetUpper<>+0x78(SB)/8, $0xffffffffffffffff
DATA fxNetUpper<>+0x80(SB)/8, $0x0000000000000000
DATA fxNetUpper<>+0x88(SB)/8, $0x0000000000000000
DATA fxNetUpper<>+0x90(SB)/8, $0xffffffffffffffff
DATA fxNetUpper<>+0x98(SB)/8, $0xffffffffffffffff
GLOBL fxNetUpper<>(SB), (NOPTR+RODATA), $160

// NETMIX compare-exchanges x's lanes with their partners' keys in p: the lanes that m marks
// take the greater, the others the lesser (t scratch). NETSUB does it with the partners
// from VPSHUFB control c (fxNetXor's, at BX), NETSWAP with the other half's (lane XOR 16),
// NETREV with lane XOR 31's; Y11 to Y15 hold fxNetUpper's masks.
#define NETMIX(x, m, p, t) \
	VPMINUB   p, x, t; \
	VPMAXUB   p, x, p; \
	VPBLENDVB m, p, t, x

#define NETSUB(x, c, m, p, t) \
	VPSHUFB c(BX), x, p; \
	NETMIX(x, m, p, t)

#define NETSWAP(x, p, t) \
	VPERMQ $0x4e, x, p; \
	NETMIX(x, Y15, p, t)

#define NETREV(x, p, t) \
	VPSHUFB 0xc0(BX), x, p; \
	VPERMQ  $0x4e, p, p; \
	NETMIX(x, Y15, p, t)

// NETSORT32 sorts x's 32 keys: a bitonic network, each merge's first step comparing lane i
// with lane i XOR (size − 1), so that every step keeps the lesser key in the lower lane.
#define NETSORT32(x, p, t) \
	NETSUB(x, 0x00, Y11, p, t); \
	NETSUB(x, 0x80, Y12, p, t); \
	NETSUB(x, 0x00, Y11, p, t); \
	NETSUB(x, 0xa0, Y13, p, t); \
	NETSUB(x, 0x20, Y12, p, t); \
	NETSUB(x, 0x00, Y11, p, t); \
	NETSUB(x, 0xc0, Y14, p, t); \
	NETSUB(x, 0x40, Y13, p, t); \
	NETSUB(x, 0x20, Y12, p, t); \
	NETSUB(x, 0x00, Y11, p, t); \
	NETREV(x, p, t); \
	NETMERGE16(x, p, t)

// NETMERGE32 sorts x's 32 keys when they are bitonic (in order rising then falling, or
// falling then rising); NETMERGE16 each 16 of them.
#define NETMERGE32(x, p, t) \
	NETSWAP(x, p, t); \
	NETMERGE16(x, p, t)

#define NETMERGE16(x, p, t) \
	NETSUB(x, 0x60, Y14, p, t); \
	NETSUB(x, 0x40, Y13, p, t); \
	NETSUB(x, 0x20, Y12, p, t); \
	NETSUB(x, 0x00, Y11, p, t)

// NETCROSSREV compares each key of a with its mirror in b, lane i with lane 31 − i: a keeps
// the lesser, b the greater, in a's lane order (b then holds the mirror of the network's
// upper half: still bitonic, which is all the merge after it needs).
#define NETCROSSREV(a, b, p) \
	VPSHUFB 0xc0(BX), b, p; \
	VPERMQ  $0x4e, p, p; \
	VPMAXUB p, a, b; \
	VPMINUB p, a, a

// NETCROSS compares lane i of a with lane i of b: a keeps the lesser, b the greater.
#define NETCROSS(a, b, t) \
	VPMAXUB b, a, t; \
	VPMINUB b, a, a; \
	VMOVDQU t, b

// NETLOAD loads 32 keys from off(SI) into x, those in lanes past the keys set to 255: where
// the lane's number within its 128 (at AX: fxNetLanes) is above Y10 (bytes). Y8 scratch.
#define NETLOAD(off, x, lanes) \
	VMOVDQU  off(SI), x; \
	VMOVDQU  lanes(AX), Y8; \
	VPCMPGTB Y10, Y8, Y8; \
	VPOR     Y8, x, x

// NETSORT64 sorts the 64 keys of a and b (in that order).
#define NETSORT64(a, b) \
	NETSORT32(a, Y8, Y9); \
	NETSORT32(b, Y8, Y9); \
	NETCROSSREV(a, b, Y8); \
	NETMERGE32(a, Y8, Y9); \
	NETMERGE32(b, Y8, Y9)

// NETSORT96 is NETSORT128 when its d would be all 255, which the comparisons with d leave
// as it is, and leave the other key as it was: those are left out.
#define NETSORT96(a, b, c) \
	NETSORT64(a, b); \
	NETSORT32(c, Y8, Y9); \
	NETCROSSREV(b, c, Y8); \
	NETCROSS(a, b, Y8); \
	NETMERGE32(a, Y8, Y9); \
	NETMERGE32(b, Y8, Y9); \
	NETMERGE32(c, Y8, Y9)

// NETSORT128 sorts the 128 keys of a, b, c and d (in that order): each 32, each 64 (b and d
// mirrored), then a and b against d and c mirrored, which leaves the upper half mirrored as
// d, c: the pair keeps its lesser keys in c, as NETMERGE64 does. (Two NETSORT64s in turn
// would be the same network, but the four 32s side by side keep more of the CPU busy: 112
// keys took 67 ns so, 78 so.)
#define NETSORT128(a, b, c, d) \
	NETSORT32(a, Y8, Y9); \
	NETSORT32(b, Y8, Y9); \
	NETSORT32(c, Y8, Y9); \
	NETSORT32(d, Y8, Y9); \
	NETCROSSREV(a, b, Y8); \
	NETCROSSREV(c, d, Y8); \
	NETMERGE32(a, Y8, Y9); \
	NETMERGE32(b, Y8, Y9); \
	NETMERGE32(c, Y8, Y9); \
	NETMERGE32(d, Y8, Y9); \
	NETCROSSREV(a, d, Y8); \
	NETCROSSREV(b, c, Y8); \
	NETMERGE64(a, b, c, d)

// NETMERGE64 sorts the 64 keys of a and b, and those of c and d, each 64 bitonic.
#define NETMERGE64(a, b, c, d) \
	NETCROSS(a, b, Y8); \
	NETCROSS(c, d, Y8); \
	NETMERGE32(a, Y8, Y9); \
	NETMERGE32(b, Y8, Y9); \
	NETMERGE32(c, Y8, Y9); \
	NETMERGE32(d, Y8, Y9)

// func fxSortBytesAVX2(dst, src *byte, n int)
//
// The n (1 to 256) keys from src sorted, into dst: a sorting network (bitonic) over the
// 32, 64, 128 or 256 lanes that hold them, the lanes past n 255 (sorted last), in
// registers; of 128 or 256 lanes, the last 32 or 64 are left out where they would be all
// 255. It reads and writes 32, 64, 96, 128, 192 or 256 bytes. A merge's upper half, compared
// with the lower mirrored, is left mirrored (a bitonic sequence still, all that the half
// merges after need), and its registers taken in their mirrored order.
TEXT ·fxSortBytesAVX2(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	LEAQ         fxNetUpper<>(SB), AX
	VMOVDQU      0x00(AX), Y11
	VMOVDQU      0x20(AX), Y12
	VMOVDQU      0x40(AX), Y13
	VMOVDQU      0x60(AX), Y14
	VMOVDQU      0x80(AX), Y15
	LEAQ         fxNetXor<>(SB), BX
	LEAQ         fxNetLanes<>(SB), AX
	CMPQ         CX, $128
	JGT          net256
	LEAQ         -1(CX), DX
	VMOVD        DX, X10
	VPBROADCASTB X10, Y10
	NETLOAD(0, Y0, 0)
	CMPQ         CX, $32
	JGT          net64
	NETSORT32(Y0, Y8, Y9)
	VMOVDQU      Y0, (DI)
	VZEROUPPER
	RET

net64:
	NETLOAD(32, Y1, 32)
	CMPQ CX, $64
	JGT  net128
	NETSORT64(Y0, Y1)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VZEROUPPER
	RET

net128:
	NETLOAD(64, Y2, 64)
	CMPQ CX, $96
	JGT  net128Whole
	NETSORT96(Y0, Y1, Y2)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VZEROUPPER
	RET

net128Whole:
	NETLOAD(96, Y3, 96)
	NETSORT128(Y0, Y1, Y2, Y3)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VZEROUPPER
	RET

net256:
	LEAQ         -129(CX), DX
	VMOVD        DX, X10
	VPBROADCASTB X10, Y10
	VMOVDQU      (SI), Y0
	VMOVDQU      32(SI), Y1
	VMOVDQU      64(SI), Y2
	VMOVDQU      96(SI), Y3
	NETLOAD(128, Y4, 0)
	NETLOAD(160, Y5, 32)
	NETSORT128(Y0, Y1, Y2, Y3)
	CMPQ         CX, $192
	JGT          net256Whole

	// Y6 and Y7 would be all 255: the comparisons with them change nothing.
	NETSORT64(Y4, Y5)
	NETCROSSREV(Y2, Y5, Y8)
	NETCROSSREV(Y3, Y4, Y8)
	NETCROSS(Y0, Y2, Y8)
	NETCROSS(Y1, Y3, Y8)
	NETMERGE64(Y0, Y1, Y2, Y3)
	NETCROSS(Y4, Y5, Y8)
	NETMERGE32(Y4, Y8, Y9)
	NETMERGE32(Y5, Y8, Y9)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VZEROUPPER
	RET

net256Whole:
	NETLOAD(192, Y6, 64)
	NETLOAD(224, Y7, 96)
	NETSORT128(Y4, Y5, Y6, Y7)

	// The upper 128, mirrored, is Y7, Y6, Y5, Y4: its merge's pairs are (Y7, Y5) and (Y6,
	// Y4), then (Y5, Y4) and (Y7, Y6) (the lesser of each pair now the lower), which leaves
	// Y4 to Y7 in order.
	NETCROSSREV(Y0, Y7, Y8)
	NETCROSSREV(Y1, Y6, Y8)
	NETCROSSREV(Y2, Y5, Y8)
	NETCROSSREV(Y3, Y4, Y8)
	NETCROSS(Y0, Y2, Y8)
	NETCROSS(Y1, Y3, Y8)
	NETCROSS(Y5, Y7, Y8)
	NETCROSS(Y4, Y6, Y8)
	NETMERGE64(Y0, Y1, Y2, Y3)
	NETMERGE64(Y4, Y5, Y6, Y7)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	VZEROUPPER
	RET
