//go:build gc && !purego

#include "textflag.h"

// AVX2 twins of simd.go's …Go functions: the Go code's float32 operations in the Go code's
// order, one pixel per lane, a multiply then an add (no FMA), so that the results are the
// same bits; simd_test.go checks that. Runs of pixels go 8 at a time; the last group of a
// run is masked (VMASKMOVPS) so that no pixel past it is read or written.

// The byte distance between a tile's planes (composite.TileSize², times 4), and between the
// channels of a planarColors (a tile row).
#define PLANE 16384
#define ROWBUF 256

DATA lanes<>+0x00(SB)/8, $0x0000000100000000
DATA lanes<>+0x08(SB)/8, $0x0000000300000002
DATA lanes<>+0x10(SB)/8, $0x0000000500000004
DATA lanes<>+0x18(SB)/8, $0x0000000700000006
GLOBL lanes<>(SB), (NOPTR+RODATA), $32

// lanesF are the lane numbers as float32: a pixel centre's offset from the group's first.
DATA lanesF<>+0x00(SB)/8, $0x3f80000000000000
DATA lanesF<>+0x08(SB)/8, $0x4040000040000000
DATA lanesF<>+0x10(SB)/8, $0x40a0000040800000
DATA lanesF<>+0x18(SB)/8, $0x40e0000040c00000
GLOBL lanesF<>(SB), (NOPTR+RODATA), $32

DATA eights<>+0x00(SB)/8, $0x4100000041000000
DATA eights<>+0x08(SB)/8, $0x4100000041000000
DATA eights<>+0x10(SB)/8, $0x4100000041000000
DATA eights<>+0x18(SB)/8, $0x4100000041000000
GLOBL eights<>(SB), (NOPTR+RODATA), $32

DATA ones<>+0x00(SB)/8, $0x3f8000003f800000
DATA ones<>+0x08(SB)/8, $0x3f8000003f800000
DATA ones<>+0x10(SB)/8, $0x3f8000003f800000
DATA ones<>+0x18(SB)/8, $0x3f8000003f800000
GLOBL ones<>(SB), (NOPTR+RODATA), $32

DATA halves<>+0x00(SB)/8, $0x3f0000003f000000
DATA halves<>+0x08(SB)/8, $0x3f0000003f000000
DATA halves<>+0x10(SB)/8, $0x3f0000003f000000
DATA halves<>+0x18(SB)/8, $0x3f0000003f000000
GLOBL halves<>(SB), (NOPTR+RODATA), $32

// MASK sets Y15 to all ones in the lanes below CX, the pixels left in the run.
#define MASK \
	VMOVD        CX, X15; \
	VPBROADCASTD X15, Y15; \
	VPCMPGTD     lanes<>(SB), Y15, Y15

// BROADCAST4 loads the colour at AX into Y1-Y4, one channel in every lane of each.
#define BROADCAST4 \
	VBROADCASTSS 0(AX), Y1; \
	VBROADCASTSS 4(AX), Y2; \
	VBROADCASTSS 8(AX), Y3; \
	VBROADCASTSS 12(AX), Y4

// ---- colour at coverage 1 -----------------------------------------------------------------

// SPAN is p = c + p·k on 8 pixels of the plane at off(DI), c's channel in cr, k in Y5.
#define SPAN(off, cr) \
	VMULPS  off(DI), Y5, Y0; \
	VADDPS  cr, Y0, Y0; \
	VMOVUPS Y0, off(DI)

// SPANM is SPAN on the lanes of Y15.
#define SPANM(off, cr) \
	VMASKMOVPS off(DI), Y15, Y0; \
	VMULPS     Y5, Y0, Y0; \
	VADDPS     cr, Y0, Y0; \
	VMASKMOVPS Y0, Y15, off(DI)

// func overSpanAVX2(p *float32, n int, c *layerColor)
TEXT ·overSpanAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ c+16(FP), AX
	BROADCAST4
	// Y5 = 1 − c.A in every lane (the Go twin's k, the same float32 subtraction).
	MOVL         $0x3f800000, BX
	VMOVD        BX, X5
	VSUBSS       12(AX), X5, X5
	VBROADCASTSS X5, Y5
	CMPQ         CX, $8
	JLT          spanTail

spanLoop:
	SPAN(0, Y1)
	SPAN(PLANE, Y2)
	SPAN(2*PLANE, Y3)
	SPAN(3*PLANE, Y4)
	ADDQ $32, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JGE  spanLoop

spanTail:
	TESTQ CX, CX
	JLE   spanDone
	MASK
	SPANM(0, Y1)
	SPANM(PLANE, Y2)
	SPANM(2*PLANE, Y3)
	SPANM(3*PLANE, Y4)

spanDone:
	VZEROUPPER
	RET

// func overColorsAVX2(p *float32, n int, col *float32)
//
// Each pixel takes the colour at its lane of the planarColors at col (channels ROWBUF bytes
// apart): p = col + p·(1 − col.A).
TEXT ·overColorsAVX2(SB), NOSPLIT, $0-24
	MOVQ    p+0(FP), DI
	MOVQ    n+8(FP), CX
	MOVQ    col+16(FP), SI
	VMOVUPS ones<>(SB), Y14

colorsLoop:
	MASK
	VMASKMOVPS (SI), Y15, Y1
	VMASKMOVPS ROWBUF(SI), Y15, Y2
	VMASKMOVPS 2*ROWBUF(SI), Y15, Y3
	VMASKMOVPS 3*ROWBUF(SI), Y15, Y4
	VSUBPS     Y4, Y14, Y5
	SPANM(0, Y1)
	SPANM(PLANE, Y2)
	SPANM(2*PLANE, Y3)
	SPANM(3*PLANE, Y4)
	ADDQ       $32, DI
	ADDQ       $32, SI
	SUBQ       $8, CX
	JGT        colorsLoop
	VZEROUPPER
	RET

// ---- colour at per-pixel coverage ---------------------------------------------------------

// PLANECOV is p = c·cov + p·k on the lanes of Y15 of the plane at off(DI), c's channel in cr,
// k in Y6.
#define PLANECOV(off, cr, cov) \
	VMASKMOVPS off(DI), Y15, Y7; \
	VMULPS     Y6, Y7, Y7; \
	VMULPS     cov, cr, Y8; \
	VADDPS     Y7, Y8, Y7; \
	VMASKMOVPS Y7, Y15, off(DI)

// BLEND is over on the lanes of Y15: colour Y1-Y4 at coverage cov onto the pixels at DI.
// a = c.A·cov in Y5, k = 1 − a in Y6 (Y14 holds 1); Y7 and Y8 are clobbered.
#define BLEND(cov) \
	VMULPS     cov, Y4, Y5; \
	VSUBPS     Y5, Y14, Y6; \
	PLANECOV(0, Y1, cov); \
	PLANECOV(PLANE, Y2, cov); \
	PLANECOV(2*PLANE, Y3, cov); \
	VMASKMOVPS 3*PLANE(DI), Y15, Y7; \
	VMULPS     Y6, Y7, Y7; \
	VADDPS     Y7, Y5, Y7; \
	VMASKMOVPS Y7, Y15, 3*PLANE(DI)

// func overCoverageAVX2(p, cov *float32, n int, c *layerColor)
TEXT ·overCoverageAVX2(SB), NOSPLIT, $0-32
	MOVQ    p+0(FP), DI
	MOVQ    cov+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVQ    c+24(FP), AX
	BROADCAST4
	VMOVUPS ones<>(SB), Y14

coverageLoop:
	MASK
	VMASKMOVPS (SI), Y15, Y0
	BLEND(Y0)
	ADDQ       $32, DI
	ADDQ       $32, SI
	SUBQ       $8, CX
	JGT        coverageLoop
	VZEROUPPER
	RET

DATA recip255<>+0x00(SB)/4, $0x3b808081 // float32(1.0/255)
GLOBL recip255<>(SB), (NOPTR+RODATA), $4

// func overMaskAVX2(p *float32, m *byte, n int, c *layerColor)
//
// Coverage m/255 from 8 mask bytes a group (whole groups are read: the mask has slack).
TEXT ·overMaskAVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), DI
	MOVQ         m+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         c+24(FP), AX
	BROADCAST4
	VMOVUPS      ones<>(SB), Y14
	VBROADCASTSS recip255<>(SB), Y9

maskLoop:
	MASK
	VPMOVZXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y9, Y0, Y0
	BLEND(Y0)
	ADDQ      $32, DI
	ADDQ      $8, SI
	SUBQ      $8, CX
	JGT       maskLoop
	VZEROUPPER
	RET

// ---- distance and coverage ----------------------------------------------------------------

// SEGMENT loads the segment at AX and the row py (at py(FP)) for DIST2: Y0 = ax, Y1 = dx,
// Y2 = dy, Y3 = 1/L², Y4 = qy = py − ay, Y5 = qy·dy, Y6 = 0, Y14 = 1.
#define SEGMENT(py) \
	VBROADCASTSS 0(AX), Y0; \
	VBROADCASTSS 8(AX), Y1; \
	VBROADCASTSS 12(AX), Y2; \
	VBROADCASTSS 16(AX), Y3; \
	VMOVSS       py, X4; \
	VSUBSS       4(AX), X4, X4; \
	VMULSS       12(AX), X4, X5; \
	VBROADCASTSS X4, Y4; \
	VBROADCASTSS X5, Y5; \
	VXORPS       Y6, Y6, Y6; \
	VMOVUPS      ones<>(SB), Y14

// DIST2 sets d to the squared distance from the pixel centres (px, py) to the segment, as
// sdf.Seg.Dist2 computes it. Y7-Y9 are clobbered (d may be Y7).
#define DIST2(px, d) \
	VSUBPS Y0, px, Y7; \
	VMULPS Y1, Y7, Y8; \
	VADDPS Y5, Y8, Y8; \
	VMULPS Y3, Y8, Y8; \
	VMAXPS Y6, Y8, Y8; \
	VMINPS Y14, Y8, Y8; \
	VMULPS Y8, Y1, Y9; \
	VSUBPS Y9, Y7, Y7; \
	VMULPS Y8, Y2, Y9; \
	VSUBPS Y9, Y4, Y9; \
	VMULPS Y7, Y7, Y7; \
	VMULPS Y9, Y9, Y9; \
	VADDPS Y9, Y7, d

// COVER turns the squared distances in v into stroke coverage, in place, as
// sdf.Coverage(sdf.Stroke(sdf.Sqrt(v), w)) · thin: Y11 = max(w, 1)/2, Y12 = thin, Y13 = ½,
// Y6 = 0, Y14 = 1.
#define COVER(v) \
	VSQRTPS v, v; \
	VSUBPS  Y11, v, v; \
	VSUBPS  v, Y13, v; \
	VMAXPS  Y6, v, v; \
	VMINPS  Y14, v, v; \
	VMULPS  Y12, v, v

// PROFILE loads COVER's registers from half and thin (FP operands).
#define PROFILE(half, thin) \
	VBROADCASTSS half, Y11; \
	VBROADCASTSS thin, Y12; \
	VMOVUPS      halves<>(SB), Y13

// func segmentCoverageAVX2(cov *float32, groups int, s *sdf.Seg, px0, py, half, thin float32)
TEXT ·segmentCoverageAVX2(SB), NOSPLIT, $0-40
	MOVQ         cov+0(FP), DI
	MOVQ         groups+8(FP), CX
	MOVQ         s+16(FP), AX
	SEGMENT(py+28(FP))
	PROFILE(half+32(FP), thin+36(FP))
	VBROADCASTSS px0+24(FP), Y10
	VADDPS       lanesF<>(SB), Y10, Y10

segmentLoop:
	DIST2(Y10, Y7)
	COVER(Y7)
	VMOVUPS Y7, (DI)
	VADDPS  eights<>(SB), Y10, Y10
	ADDQ    $32, DI
	DECQ    CX
	JNZ     segmentLoop
	VZEROUPPER
	RET

// func nearestChordAVX2(d2, op *float32, n int, s *sdf.Seg, px0, py, opacity float32)
//
// Where a lane's distance is below d2's (and the lane is in the run), it is stored with
// the opacity: a masked store of each, no blend.
TEXT ·nearestChordAVX2(SB), NOSPLIT, $0-44
	MOVQ         d2+0(FP), DI
	MOVQ         op+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         s+24(FP), AX
	SEGMENT(py+36(FP))
	VBROADCASTSS opacity+40(FP), Y11
	VBROADCASTSS px0+32(FP), Y10
	VADDPS       lanesF<>(SB), Y10, Y10

nearestLoop:
	MASK
	DIST2(Y10, Y7)
	VMASKMOVPS (DI), Y15, Y8
	VCMPPS     $1, Y8, Y7, Y9 // d < d2
	VANDPS     Y15, Y9, Y9
	VMASKMOVPS Y7, Y9, (DI)
	VMASKMOVPS Y11, Y9, (SI)
	VADDPS     eights<>(SB), Y10, Y10
	ADDQ       $32, DI
	ADDQ       $32, SI
	SUBQ       $8, CX
	JGT        nearestLoop
	VZEROUPPER
	RET

// func strokeCoverageAVX2(cov, d2, op *float32, n int, half, thin float32)
TEXT ·strokeCoverageAVX2(SB), NOSPLIT, $0-40
	MOVQ    cov+0(FP), DI
	MOVQ    d2+8(FP), SI
	MOVQ    op+16(FP), DX
	MOVQ    n+24(FP), CX
	PROFILE(half+32(FP), thin+36(FP))
	VXORPS  Y6, Y6, Y6
	VMOVUPS ones<>(SB), Y14

strokeLoop:
	MASK
	VMASKMOVPS (SI), Y15, Y7
	COVER(Y7)
	VMASKMOVPS (DX), Y15, Y8
	VMULPS     Y8, Y7, Y7
	VMOVUPS    Y7, (DI)
	ADDQ       $32, DI
	ADDQ       $32, SI
	ADDQ       $32, DX
	SUBQ       $8, CX
	JGT        strokeLoop
	VZEROUPPER
	RET

// ---- rounded boxes ------------------------------------------------------------------------

DATA absMask<>+0x00(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+0x08(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+0x10(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+0x18(SB)/8, $0x7fffffff7fffffff
GLOBL absMask<>(SB), (NOPTR+RODATA), $32

// QX sets Y7 to sdf.RoundBox's qx = |px − cx| − hx + r at the pixel centres Y0 (Y1 = cx,
// Y2 = hx, Y3 = r).
#define QX \
	VSUBPS Y1, Y0, Y7; \
	VANDPS absMask<>(SB), Y7, Y7; \
	VSUBPS Y2, Y7, Y7; \
	VADDPS Y3, Y7, Y7

// func roundBoxAVX2(d *float32, groups int, px0, qy, cx, hx, r float32)
//
// sdf.RoundBox on a row: qy is the row's, so which of its cases a lane takes depends on qx
// alone. For qy ≤ 0 it is max(qx, qy) − r (qx − r where qx > 0 ≥ qy); for qy > 0 it is
// qy − r where qx ≤ 0 and √(qx² + qy²) − r elsewhere.
TEXT ·roundBoxAVX2(SB), NOSPLIT, $0-36
	MOVQ         d+0(FP), DI
	MOVQ         groups+8(FP), CX
	VBROADCASTSS px0+16(FP), Y0
	VADDPS       lanesF<>(SB), Y0, Y0
	VBROADCASTSS cx+24(FP), Y1
	VBROADCASTSS hx+28(FP), Y2
	VBROADCASTSS r+32(FP), Y3
	VMOVSS       qy+20(FP), X4
	VMULSS       X4, X4, X5
	VSUBSS       r+32(FP), X4, X6
	VXORPS       X8, X8, X8
	VUCOMISS     X8, X4
	VBROADCASTSS X4, Y4 // qy
	VBROADCASTSS X5, Y5 // qy²
	VBROADCASTSS X6, Y6 // qy − r
	VXORPS       Y8, Y8, Y8
	JA           roundArcs

roundFlat:
	QX
	VMAXPS  Y4, Y7, Y7
	VSUBPS  Y3, Y7, Y7
	VMOVUPS Y7, (DI)
	VADDPS  eights<>(SB), Y0, Y0
	ADDQ    $32, DI
	DECQ    CX
	JNZ     roundFlat
	VZEROUPPER
	RET

roundArcs:
	QX
	VCMPPS    $2, Y8, Y7, Y9 // qx ≤ 0
	VMULPS    Y7, Y7, Y7
	VADDPS    Y5, Y7, Y7
	VSQRTPS   Y7, Y7
	VSUBPS    Y3, Y7, Y7
	VBLENDVPS Y9, Y6, Y7, Y7
	VMOVUPS   Y7, (DI)
	VADDPS    eights<>(SB), Y0, Y0
	ADDQ      $32, DI
	DECQ      CX
	JNZ       roundArcs
	VZEROUPPER
	RET

// CHANNEL sets dst to channel off of the box's colour at fill coverage Y2, stroke coverage
// Y3 and k = 1 − Y3 (Y4): stroke·cs + (fill·cf)·k, as boxProfile.color. Y12, Y13 are
// clobbered.
#define CHANNEL(off, dst) \
	VBROADCASTSS 16+off(AX), Y12; \
	VMULPS       Y3, Y12, Y12; \
	VBROADCASTSS off(AX), Y13; \
	VMULPS       Y2, Y13, Y13; \
	VMULPS       Y4, Y13, Y13; \
	VADDPS       Y13, Y12, dst

// SHADE blends channel off's colour, computed into Y12, onto the plane at poff(DI): p = c +
// p·(1 − c.A), 1 − c.A in Y14.
#define SHADE(off, poff) \
	CHANNEL(off, Y12); \
	VMASKMOVPS poff(DI), Y15, Y13; \
	VMULPS     Y14, Y13, Y13; \
	VADDPS     Y13, Y12, Y13; \
	VMASKMOVPS Y13, Y15, poff(DI)

// func boxShadeAVX2(p, d *float32, n int, b *boxProfile)
//
// boxProfile's offsets: fillColor 0, strokeColor 16, e 44, half 48, thin 52.
//
// YMM registers:
//
//	Y0	d		Y6	e		Y12-Y14	scratch
//	Y1	scratch		Y7	half		Y15	the lanes to blend: in the run and covered
//	Y2	cf		Y8	thin
//	Y3	cs		Y9	½
//	Y4	1 − cs		Y10	1
//	Y5	the colour's alpha	Y11	0
TEXT ·boxShadeAVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), DI
	MOVQ         d+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         b+24(FP), AX
	VBROADCASTSS 44(AX), Y6
	VBROADCASTSS 48(AX), Y7
	VBROADCASTSS 52(AX), Y8
	VMOVUPS      halves<>(SB), Y9
	VMOVUPS      ones<>(SB), Y10
	VXORPS       Y11, Y11, Y11

shadeLoop:
	MASK
	VMASKMOVPS (SI), Y15, Y0
	VCMPPS     $1, Y6, Y0, Y1 // d < e
	VANDPS     Y1, Y15, Y15

	// cf = Coverage(d); cs = Coverage(|d| − half)·thin; 1 − cs.
	VSUBPS Y0, Y9, Y2
	VMAXPS Y11, Y2, Y2
	VMINPS Y10, Y2, Y2
	VANDPS absMask<>(SB), Y0, Y3
	VSUBPS Y7, Y3, Y3
	VSUBPS Y3, Y9, Y3
	VMAXPS Y11, Y3, Y3
	VMINPS Y10, Y3, Y3
	VMULPS Y8, Y3, Y3
	VSUBPS Y3, Y10, Y4

	// The colour's alpha first: 1 − alpha scales every plane.
	CHANNEL(12, Y5)
	VSUBPS Y5, Y10, Y14
	SHADE(0, 0)
	SHADE(4, PLANE)
	SHADE(8, 2*PLANE)
	VMASKMOVPS 3*PLANE(DI), Y15, Y13
	VMULPS     Y14, Y13, Y13
	VADDPS     Y13, Y5, Y13
	VMASKMOVPS Y13, Y15, 3*PLANE(DI)

	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JGT  shadeLoop
	VZEROUPPER
	RET
