//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// The AVX2 twins of echo.go's quantizeGo and underKeptGo, 8 pixels a group, whole groups
// only (the Go code takes a run's last, partial group): the Go code's float32 operations in
// its order, a multiply then an add (no FMA), so the results are the same bits; echo_test.go
// checks that.

// The byte distance between a tile's planes (composite.TileSize², times 4), and between an
// echoTile's.
#define PLANE 16384
#define BPLANE 4096

VEC8(echoHalf<>, $0x3f0000003f000000)

VEC8(echoZero<>, $0x0000000000000000)

VEC8(echo255<>, $0x437f0000437f0000)

VEC8(echoOne<>, $0x3f8000003f800000)

// func quantizeAVX2(dst *uint8, src *float32, groups int, scale float32)
TEXT ·quantizeAVX2(SB), NOSPLIT, $0-28
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         groups+16(FP), CX
	VBROADCASTSS scale+24(FP), Y1
	VMOVUPS      echoHalf<>(SB), Y2
	VMOVUPS      echoZero<>(SB), Y3
	VMOVUPS      echo255<>(SB), Y4

qloop:
	TESTQ       CX, CX
	JZ          qdone
	VMULPS      (SI), Y1, Y0
	VADDPS      Y2, Y0, Y0
	VMAXPS      Y3, Y0, Y0
	VMINPS      Y4, Y0, Y0
	VCVTTPS2DQ  Y0, Y0
	VEXTRACTI128 $1, Y0, X5
	VPACKUSDW   X5, X0, X0
	VPACKUSWB   X0, X0, X0
	VMOVQ       X0, (DI)
	ADDQ        $32, SI
	ADDQ        $8, DI
	DECQ        CX
	JMP         qloop

qdone:
	VZEROUPPER
	RET

// func underKeptAVX2(p *float32, q *uint8, groups int, weight *[4]float32)
TEXT ·underKeptAVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), DI
	MOVQ         q+8(FP), SI
	MOVQ         groups+16(FP), CX
	MOVQ         weight+24(FP), AX
	VBROADCASTSS 0(AX), Y8
	VBROADCASTSS 4(AX), Y9
	VBROADCASTSS 8(AX), Y10
	VBROADCASTSS 12(AX), Y11
	VMOVUPS      echoOne<>(SB), Y12

uloop:
	TESTQ     CX, CX
	JZ        udone
	// k = 1 − the layer's alpha
	VMOVUPS   (3*PLANE)(DI), Y4
	VSUBPS    Y4, Y12, Y5
	// e = byte × weight; layer + e × k, each channel
	VPMOVZXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y8, Y0, Y0
	VMULPS    Y5, Y0, Y0
	VADDPS    (DI), Y0, Y0
	VMOVUPS   Y0, (DI)
	VPMOVZXBD BPLANE(SI), Y1
	VCVTDQ2PS Y1, Y1
	VMULPS    Y9, Y1, Y1
	VMULPS    Y5, Y1, Y1
	VADDPS    PLANE(DI), Y1, Y1
	VMOVUPS   Y1, PLANE(DI)
	VPMOVZXBD (2*BPLANE)(SI), Y2
	VCVTDQ2PS Y2, Y2
	VMULPS    Y10, Y2, Y2
	VMULPS    Y5, Y2, Y2
	VADDPS    (2*PLANE)(DI), Y2, Y2
	VMOVUPS   Y2, (2*PLANE)(DI)
	VPMOVZXBD (3*BPLANE)(SI), Y3
	VCVTDQ2PS Y3, Y3
	VMULPS    Y11, Y3, Y3
	VMULPS    Y5, Y3, Y3
	VADDPS    Y4, Y3, Y3
	VMOVUPS   Y3, (3*PLANE)(DI)
	ADDQ      $32, DI
	ADDQ      $8, SI
	DECQ      CX
	JMP       uloop

udone:
	VZEROUPPER
	RET
