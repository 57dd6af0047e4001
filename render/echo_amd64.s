//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// The AVX2 twins of echo.go's keepGroupsGo and underRunGo, 8 pixels a group, whole groups
// only (the Go code takes a run's last, partial group): the Go code's float32 operations in
// its order, a multiply then an add (no FMA), so the results are the same bits; echo_test.go
// checks that.

// The byte distance between a tile's planes (composite.TileSize², times 4). An echoTile's
// group is 32 bytes: 8 of each channel.
#define PLANE 16384

VEC8(echoHalf<>, $0x3f0000003f000000)

VEC8(echoZero<>, $0x0000000000000000)

VEC8(echo255<>, $0x437f0000437f0000)

VEC8(echoOne<>, $0x3f8000003f800000)

// QUANT quantizes the 8 floats at src by the scale in ys into the low 8 bytes of xd (Y0,
// Y5 scratch): v·scale + 0.5, held to 0..255, truncated, packed.
#define QUANT(src, ys, xd) \
	VMULPS       src, ys, Y0; \
	VADDPS       Y2, Y0, Y0; \
	VMAXPS       Y3, Y0, Y0; \
	VMINPS       Y4, Y0, Y0; \
	VCVTTPS2DQ   Y0, Y0; \
	VEXTRACTI128 $1, Y0, X5; \
	VPACKUSDW    X5, X0, xd; \
	VPACKUSWB    xd, xd, xd

// func keepGroupsAVX2(dst *uint8, src *float32, groups int, scale *[4]float32) uint64
//
// Group g's four channels: quantized, stored only when one of its 32 bytes is not zero,
// which sets bit g of the result; the groups stored are packed from dst on.
TEXT ·keepGroupsAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         groups+16(FP), CX
	MOVQ         scale+24(FP), AX
	VBROADCASTSS 0(AX), Y8
	VBROADCASTSS 4(AX), Y9
	VBROADCASTSS 8(AX), Y10
	VBROADCASTSS 12(AX), Y11
	VMOVUPS      echoHalf<>(SB), Y2
	VMOVUPS      echoZero<>(SB), Y3
	VMOVUPS      echo255<>(SB), Y4
	XORQ         R8, R8 // the groups stored
	MOVQ         $1, R9 // this group's bit

kloop:
	TESTQ CX, CX
	JZ    kdone
	QUANT((SI), Y8, X12)
	QUANT(PLANE(SI), Y9, X13)
	QUANT((2*PLANE)(SI), Y10, X14)
	QUANT((3*PLANE)(SI), Y11, X15)
	VPOR  X13, X12, X0
	VPOR  X15, X14, X1
	VPOR  X1, X0, X0
	VMOVQ X0, AX
	TESTQ AX, AX
	JZ    knext
	VMOVQ X12, (DI)
	VMOVQ X13, 8(DI)
	VMOVQ X14, 16(DI)
	VMOVQ X15, 24(DI)
	ORQ   R9, R8
	ADDQ  $32, DI

knext:
	SHLQ $1, R9
	ADDQ $32, SI
	DECQ CX
	JMP  kloop

kdone:
	MOVQ R8, ret+32(FP)
	VZEROUPPER
	RET

// func underRunAVX2(p *float32, groups int, rows *echoRow, n int)
//
// For each group of the run: its layer pixels loaded once, each of the n echoes that holds
// the group blended under them in turn (k = 1 − the alpha so far; layer + byte × weight × k),
// stored once. An echo's group g is its px[the bits of held below g that are set].
TEXT ·underRunAVX2(SB), NOSPLIT, $0-32
	MOVQ    p+0(FP), DI
	MOVQ    groups+8(FP), CX
	MOVQ    rows+16(FP), R10
	MOVQ    n+24(FP), R11
	VMOVUPS echoOne<>(SB), Y12
	XORQ    BX, BX // the group
	XORQ    R12, R12 // the bits below the group's: 2^BX − 1

gloop:
	CMPQ    BX, CX
	JGE     gdone
	VMOVUPS (DI), Y0
	VMOVUPS PLANE(DI), Y1
	VMOVUPS (2*PLANE)(DI), Y2
	VMOVUPS (3*PLANE)(DI), Y3
	MOVQ    R10, AX    // the echo
	MOVQ    R11, DX    // echoes left

kloop:
	TESTQ        DX, DX
	JZ           kdone
	MOVQ         8(AX), R9
	BTQ          BX, R9
	JCC          knext
	MOVQ         0(AX), SI
	MOVQ         R12, R13
	ANDQ         R9, R13
	POPCNTQ      R13, R13
	SHLQ         $5, R13 // the byte offset of the echo's group among its packed ones
	ADDQ         R13, SI
	VSUBPS       Y3, Y12, Y5
	VPMOVZXBD    (SI), Y4
	VCVTDQ2PS    Y4, Y4
	VBROADCASTSS 16(AX), Y8
	VMULPS       Y8, Y4, Y4
	VMULPS       Y5, Y4, Y4
	VADDPS       Y4, Y0, Y0
	VPMOVZXBD    8(SI), Y4
	VCVTDQ2PS    Y4, Y4
	VBROADCASTSS 20(AX), Y8
	VMULPS       Y8, Y4, Y4
	VMULPS       Y5, Y4, Y4
	VADDPS       Y4, Y1, Y1
	VPMOVZXBD    16(SI), Y4
	VCVTDQ2PS    Y4, Y4
	VBROADCASTSS 24(AX), Y8
	VMULPS       Y8, Y4, Y4
	VMULPS       Y5, Y4, Y4
	VADDPS       Y4, Y2, Y2
	VPMOVZXBD    24(SI), Y4
	VCVTDQ2PS    Y4, Y4
	VBROADCASTSS 28(AX), Y8
	VMULPS       Y8, Y4, Y4
	VMULPS       Y5, Y4, Y4
	VADDPS       Y4, Y3, Y3

knext:
	ADDQ $32, AX
	DECQ DX
	JMP  kloop

kdone:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, PLANE(DI)
	VMOVUPS Y2, (2*PLANE)(DI)
	VMOVUPS Y3, (3*PLANE)(DI)
	ADDQ    $32, DI
	INCQ    BX
	LEAQ    1(R12)(R12*1), R12
	JMP     gloop

gdone:
	VZEROUPPER
	RET
