//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// The AVX2 twins of camera.go's camera8Go and camera8PairsGo: 8 samples a group, the Go
// code's integer operations in its order (VPMULLD keeps the low 32 bits as Go's int32 and
// uint32 products do, VPSRAD and VPSRLD shift as Go's >> does on int32 and uint32), the
// grain's hash (overlay.GrainHash) of each lane's input, and the clamp to 0..255 done by
// the packs' saturation (every value fits an int16 first). camera_test.go checks them
// against the Go loops.

VEC8(camHalf<>, $0x0000400000004000)

VEC8(cam128<>, $0x0000008000000080)

VEC8(camByte<>, $0x000000ff000000ff)

VEC8(camStep<>, $0x0000000800000008)

VEC8(camMul1<>, $0x7feb352d7feb352d)

VEC8(camMul2<>, $0x846ca68b846ca68b)

VEC4X2(camLanes<>, $0x0000000100000000, $0x0000000300000002, $0x0000000500000004, $0x0000000700000006)

// CAMERA8 is the loop of camera8AVX2 and camera8PairsAVX2 once their arguments are in
// registers: DI the row, DX the gains, R10 base, R11 ry, R12 c, R8 amp, CX the groups.
// load sets Y0 to the next 8 samples as int32, step moves its sources on.
#define CAMERA8(load, step, loop, store, done) \
	VMOVD        R10, X15; \
	VPBROADCASTD X15, Y15; \
	VPADDD       camLanes<>(SB), Y15, Y15 /* the lanes' hash inputs */; \
	VMOVD        R11, X10; \
	VPBROADCASTD X10, Y10; \
	VMOVD        R12, X12; \
	VPBROADCASTD X12, Y12; \
	VMOVD        R8, X14; \
	VPBROADCASTD X14, Y14; \
	VMOVDQU      camHalf<>(SB), Y11; \
	VMOVDQU      cam128<>(SB), Y13; \
	VMOVDQU      camByte<>(SB), Y6; \
	VMOVDQU      camStep<>(SB), Y9; \
	VMOVDQU      camMul1<>(SB), Y4; \
	VMOVDQU      camMul2<>(SB), Y5; \
	TESTQ        CX, CX; \
	JLE          done; \
loop: \
	load; \
	VMOVDQU   (DX), Y1; \
	VPMULLD   Y10, Y1, Y1; \
	VPADDD    Y11, Y1, Y1; \
	VPSRAD    $15, Y1, Y1   /* k = (cols·ry + 2¹⁴) >> 15 */; \
	VPSUBD    Y12, Y0, Y0; \
	VPMULLD   Y1, Y0, Y0; \
	VPSRAD    $15, Y0, Y0; \
	VPADDD    Y12, Y0, Y0   /* c + ((s − c)·k) >> 15 */; \
	TESTL     R8, R8; \
	JZ        store; \
	VPSRLD    $16, Y15, Y2  /* lowbias32 of the inputs */; \
	VPXOR     Y15, Y2, Y2; \
	VPMULLD   Y4, Y2, Y2; \
	VPSRLD    $15, Y2, Y3; \
	VPXOR     Y3, Y2, Y2; \
	VPMULLD   Y5, Y2, Y2; \
	VPSRLD    $16, Y2, Y3; \
	VPXOR     Y3, Y2, Y2; \
	VPAND     Y6, Y2, Y2; \
	VPSUBD    Y13, Y2, Y2; \
	VPMULLD   Y14, Y2, Y2; \
	VPSRAD    $8, Y2, Y2; \
	VPADDD    Y2, Y0, Y0    /* + ((n − 128)·amp) >> 8 */; \
store: \
	VPADDD       Y9, Y15, Y15; \
	ADDQ         $32, DX; \
	STORE8NEXT(step, loop, done)

// STORE8NEXT ends a loop of 8 lanes a group: Y0's int32s clamped to 0..255 (the packs'
// saturation) stored at DI, step, DI on 8, and on to loop while groups are left in CX.
#define STORE8NEXT(step, loop, done) \
	VEXTRACTI128 $1, Y0, X3; \
	VPACKSSDW    X3, X0, X0; \
	VPACKUSWB    X0, X0, X0; \
	VMOVQ        X0, (DI); \
	step; \
	ADDQ         $8, DI; \
	DECQ         CX; \
	JNZ          loop; \
done: \
	VZEROUPPER; \
	RET

#define LOADSRC VPMOVZXBD (SI), Y0
#define STEPSRC ADDQ $8, SI

// The pairs' samples: those at even bytes from SI, at odd bytes from R9 (a blend of the
// two loads' lanes).
#define LOADPAIRS \
	VPMOVZXBD (SI), Y0; \
	VPMOVZXBD (R9), Y7; \
	VPBLENDD  $0xaa, Y7, Y0, Y0
#define STEPPAIRS ADDQ $8, SI; ADDQ $8, R9

// func camera8AVX2(row, src *byte, cols *int32, base uint32, ry, c, amp int32, groups int)
TEXT ·camera8AVX2(SB), NOSPLIT, $0-48
	MOVQ   row+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   cols+16(FP), DX
	MOVL   base+24(FP), R10
	MOVL   ry+28(FP), R11
	MOVL   c+32(FP), R12
	MOVL   amp+36(FP), R8
	MOVQ   groups+40(FP), CX
	CAMERA8(LOADSRC, STEPSRC, loop, store, done)

// func camera8PairsAVX2(row, even, odd *byte, cols *int32, base uint32, ry, c, amp int32, groups int)
TEXT ·camera8PairsAVX2(SB), NOSPLIT, $0-56
	MOVQ   row+0(FP), DI
	MOVQ   even+8(FP), SI
	MOVQ   odd+16(FP), R9
	MOVQ   cols+24(FP), DX
	MOVL   base+32(FP), R10
	MOVL   ry+36(FP), R11
	MOVL   c+40(FP), R12
	MOVL   amp+44(FP), R8
	MOVQ   groups+48(FP), CX
	CAMERA8(LOADPAIRS, STEPPAIRS, pairsLoop, pairsStore, pairsDone)

// The AVX2 twins of camera.go's tint8Go (4:2:0) and tintPairs8Go: 8 chroma samples a
// group, (v·keep + l·move + k) >> 15 in 32-bit lanes as the Go code computes it, the clamp
// to 0..255 again the packs' saturation (every value fits an int16). camera_test.go checks
// them against the Go loops.

// TINT8 is the loop once DI holds the chroma row, SI the luma row, Y10 keep, Y11 the
// lanes' moves, Y12 their k and CX the groups; luma sets Y1 to the lanes' luma as int32,
// step moves SI on.
#define TINT8(luma, step, loop, done) \
	TESTQ     CX, CX; \
	JLE       done; \
loop: \
	VPMOVZXBD (DI), Y0; \
	luma; \
	VPMULLD   Y10, Y0, Y0; \
	VPMULLD   Y11, Y1, Y1; \
	VPADDD    Y1, Y0, Y0; \
	VPADDD    Y12, Y0, Y0; \
	VPSRAD    $15, Y0, Y0   /* (v·keep + l·move + k) >> 15 */; \
	STORE8NEXT(step, loop, done)

// 4:2:0: chroma sample x takes luma byte 2x, the low byte of each of 8 words.
#define LUMAEVEN VPMOVZXWD (SI), Y1; VPAND camByte<>(SB), Y1, Y1
#define STEPEVEN ADDQ $16, SI

// NV12: row byte x (Cb at even x, Cr at odd) takes luma byte x with its low bit cleared.
#define LUMAPAIRS VPMOVZXBD (SI), Y1; VPSHUFD $0xa0, Y1, Y1
#define STEPPAIRS8 ADDQ $8, SI

// BCASTAX sets every lane of y (x its low half) to AX's low 32 bits.
#define BCASTAX(x, y) VMOVD AX, x; VPBROADCASTD x, y

// func tint8AVX2(row, lrow *byte, keep, m0, m1, k0, k1 int32, pairs bool, groups int)
TEXT ·tint8AVX2(SB), NOSPLIT, $0-48
	MOVQ     row+0(FP), DI
	MOVQ     lrow+8(FP), SI
	MOVL     keep+16(FP), AX
	BCASTAX(X10, Y10)
	MOVL     m0+20(FP), AX
	BCASTAX(X11, Y11)
	MOVL     m1+24(FP), AX
	BCASTAX(X2, Y2)
	VPBLENDD $0xaa, Y2, Y11, Y11 // m0 in the even lanes, m1 in the odd
	MOVL     k0+28(FP), AX
	BCASTAX(X12, Y12)
	MOVL     k1+32(FP), AX
	BCASTAX(X2, Y2)
	VPBLENDD $0xaa, Y2, Y12, Y12
	MOVQ     groups+40(FP), CX
	CMPB     pairs+36(FP), $0
	JNE      pairs
	TINT8(LUMAEVEN, STEPEVEN, tintLoop, tintDone)

pairs:
	TINT8(LUMAPAIRS, STEPPAIRS8, pairsTintLoop, pairsTintDone)
