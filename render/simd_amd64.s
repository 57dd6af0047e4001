//go:build gc && !purego

#include "textflag.h"
#include "vec_amd64.h"

// AVX2 twins of simd.go's …Go functions: the Go code's float32 operations in the Go code's
// order, one pixel per lane, a multiply then an add (no FMA), so that the results are the
// same bits; simd_test.go checks that. Runs of pixels go 8 at a time; the last group of a
// run is taken whole, its lanes past the run storing back what they loaded (see LDM), or, for
// reads outside the tile's planes, masked (VMASKMOVPS) so that nothing past it is read.

// The byte distance between a tile's planes (composite.TileSize², times 4), and between the
// channels of a planarColors (a tile row).
#define PLANE 16384
#define ROWBUF 256

VEC4X2(lanes<>, $0x0000000100000000, $0x0000000300000002, $0x0000000500000004, $0x0000000700000006)

// lanesF are the lane numbers as float32: a pixel centre's offset from the group's first.
VEC4X2(lanesF<>, $0x3f80000000000000, $0x4040000040000000, $0x40a0000040800000, $0x40e0000040c00000)

VEC8(eights<>, $0x4100000041000000)

VEC8(ones<>, $0x3f8000003f800000)

VEC8(halves<>, $0x3f0000003f000000)

// MASK sets Y15 to all ones in the lanes below CX, the pixels left in the run.
#define MASK \
	VMOVD        CX, X15; \
	VPBROADCASTD X15, Y15; \
	VPCMPGTD     lanes<>(SB), Y15, Y15

// GROUP runs BODY on a group of a run with CX pixels left: with the whole-group loads and
// stores LDW and STW, or (the last, partial group) LDP and STP; tail and done are its labels.
#define GROUP(BODY, LDW, STW, LDP, STP, tail, done) \
	CMPQ CX, $8; \
	JLT  tail; \
	BODY(LDW, STW); \
	JMP  done; \
tail: \
	BODY(LDP, STP); \
done:

// LDM and STM load and store the lanes of Y15 (VMASKMOVPS: the others are neither read nor
// written, a loaded one is 0); LDU and STU all 8 lanes. The kernels that draw into a tile
// take a run's last, partial group whole too, leaving its other lanes as they were (at
// coverage 0, or blending the result in on Y15's lanes): on AMD's cores a masked store
// costs many times a plain one (about 10 cycles on Zen 4). Past a row's end those lanes are
// the next row's, past the last row's the padding of composite.Tile and tileField. Reads
// from outside the tile (a box's band of colours) stay masked where they could pass its end.
#define LDM(src, r) VMASKMOVPS src, Y15, r
#define STM(r, dst) VMASKMOVPS r, Y15, dst
#define LDU(src, r) VMOVUPS src, r
#define STU(r, dst) VMOVUPS r, dst

// BROADCAST4 loads the colour at AX into Y1-Y4, one channel in every lane of each.
#define BROADCAST4 \
	VBROADCASTSS 0(AX), Y1; \
	VBROADCASTSS 4(AX), Y2; \
	VBROADCASTSS 8(AX), Y3; \
	VBROADCASTSS 12(AX), Y4

// CORNERRUN (boxCornerRowsAVX2; defined before any function, for go vet, as it reads
// that function's frame) shades the CX pixels at DI of a corner row, from the pixel centre X0 on: their
// distances (sdf.RoundBox, from the row's qy, qy², qy − r and case mask kept at 256, 288,
// 320 and 352(SP)) go to the buffer at 0(SP), 8 a group, then SHADEGROUP blends them, each
// group stored whole (the last's lanes past the run as they were). The three labels are
// the macro's own.
#define CORNERRUN(dist, shade, done) \
	TESTQ        CX, CX; \
	JLE          done; \
	MOVQ         CX, R12; \
	MOVQ         DI, R14; \
	VBROADCASTSS X0, Y0; \
	VADDPS       lanesF<>(SB), Y0, Y0; \
	VBROADCASTSS 32(AX), Y1; \
	VBROADCASTSS 36(AX), Y2; \
	VBROADCASTSS 40(AX), Y3; \
	VMOVUPS      256(SP), Y4; \
	VMOVUPS      288(SP), Y5; \
	VMOVUPS      320(SP), Y6; \
	VMOVUPS      352(SP), Y11; \
	VXORPS       Y8, Y8, Y8; \
	LEAQ         0(SP), SI; \
dist: \
	ROUNDBOXDIST; \
	VMOVUPS      Y7, (SI); \
	VADDPS       eights<>(SB), Y0, Y0; \
	ADDQ         $32, SI; \
	SUBQ         $8, CX; \
	JGT          dist; \
	MOVQ         R12, CX; \
	MOVQ         R14, DI; \
	LEAQ         0(SP), SI; \
	SHADECONSTS; \
shade: \
	SHADEGROUP; \
	ADDQ         $32, DI; \
	ADDQ         $32, SI; \
	SUBQ         $8, CX; \
	JGT          shade; \
done:

// The straight strokes' whole groups (strokeSegmentRowsAVX2) read the segment's start x and
// 1/L², the profile and the colour as 8 copies each from the frame (strokeFrame's offsets
// below), so that they are memory operands, not a broadcast a group; the curves' blend
// (strokeRowsAVX2) its glow's inv and opacity likewise. Macros that read a function's frame
// come before any function, for go vet.

// SPREAD stores 8 copies of the float32 at src to dst (a 32-byte slot of the frame), through Y0.
#define SPREAD(src, dst) \
	VBROADCASTSS src, Y0; \
	VMOVUPS      Y0, dst

// DIST2S is DIST2 with ax and 1/L² read from the frame at 0 and 32(SP) (Y0, Y3 are free).
#define DIST2S(px, d) DIST2X(px, d, 0(SP), 32(SP))

// STROKECOVS turns the squared distances in Y7 into a straight stroke's coverage with its
// glow, in place, as render.strokeCover, the profile read from the frame (half 64, thin 96,
// the glow's inv 128 and opacity 160(SP)); Y0 = ½, Y6 = 0, Y14 = 1; Y9 and Y12 are
// clobbered.
#define STROKECOVS \
	VSQRTPS Y7, Y7; \
	COVER(Y7, Y9, 64(SP), 96(SP), Y6, Y0, Y14); \
	VMULPS  128(SP), Y9, Y9; \
	GLOWU(Y7, Y9, Y6, Y14, 160(SP), Y12)

// PLANES is PLANEM on a whole group, the plane's value and the colour's channel (at cv(SP))
// memory operands.
#define PLANES(off, cv) \
	VMULPS  off(DI), Y9, Y11; \
	VMULPS  cv(SP), Y7, Y12; \
	VADDPS  Y11, Y12, Y11; \
	VMOVUPS Y11, off(DI)

// BLENDS is BLENDM on a whole group at coverage Y7, the colour read from the frame
// (192-288(SP)).
#define BLENDS \
	VMULPS  288(SP), Y7, Y8; \
	VSUBPS  Y8, Y14, Y9; \
	PLANES(0, 192); \
	PLANES(PLANE, 224); \
	PLANES(2*PLANE, 256); \
	VMULPS  3*PLANE(DI), Y9, Y11; \
	VADDPS  Y11, Y8, Y11; \
	VMOVUPS Y11, 3*PLANE(DI)

// PLANEC is PLANECOV on a whole group, the plane's value a memory operand.
#define PLANEC(off, cr) \
	VMULPS  off(DI), Y6, Y7; \
	VMULPS  Y0, cr, Y8; \
	VADDPS  Y7, Y8, Y7; \
	VMOVUPS Y7, off(DI)

// CURVEWHOLE is CURVETAIL on all lanes with the glow's inv and opacity read from the frame (32
// and 64(SP)) and the loads folded into the operations that take them.
#define CURVEWHOLE \
	VSQRTPS (DX), Y0; \
	VMOVUPS Y10, (DX); \
	COVER(Y0, Y6, Y11, Y12, Y9, Y13, Y14); \
	VMULPS  32(SP), Y6, Y6; \
	GLOWU(Y0, Y6, Y9, Y14, 64(SP), Y7); \
	VMULPS  (BX), Y0, Y0; \
	VMULPS  Y0, Y4, Y5; \
	VSUBPS  Y5, Y14, Y6; \
	PLANEC(0, Y1); \
	PLANEC(PLANE, Y2); \
	PLANEC(2*PLANE, Y3); \
	VMULPS  3*PLANE(DI), Y6, Y7; \
	VADDPS  Y7, Y5, Y7; \
	VMOVUPS Y7, 3*PLANE(DI)

// ---- colour at coverage 1 -----------------------------------------------------------------

// FILL is p = c + p·k on 8 pixels of the plane at off(DI), c's channel in cr; a multiply then
// an add (no FMA), as overSpanGo rounds.
#define FILL(off, cr, k) \
	VMULPS  off(DI), k, Y0; \
	VADDPS  cr, Y0, Y0; \
	VMOVUPS Y0, off(DI)

// FILLX is FILL with the loads and stores LD and ST.
#define FILLX(off, cr, k, LD, ST) \
	LD(off(DI), Y0); \
	VMULPS     k, Y0, Y0; \
	VADDPS     cr, Y0, Y0; \
	ST(Y0, off(DI))

// FILLB is FILL on the lanes of Y15 of a whole group: the others store back what they
// loaded (past a row's end, the next row's or the tile's padding). Y0 and Y12 are clobbered.
#define FILLB(off, cr, k) \
	VMOVUPS   off(DI), Y12; \
	VMULPS    k, Y12, Y0; \
	VADDPS    cr, Y0, Y0; \
	VBLENDVPS Y15, Y0, Y12, Y0; \
	VMOVUPS   Y0, off(DI)

// FILLRUN blends a colour at coverage 1 onto the CX pixels at DI: FILL on every plane, the
// colour's channels in c0-c3 and k = 1 − A in k; whole groups, then the last on its lanes
// (FILLB). Y0, Y12 and Y15 are clobbered; loop, tail and done are the macro's labels.
#define FILLRUN(c0, c1, c2, c3, k, loop, tail, done) \
	CMPQ CX, $8; \
	JLT  tail; \
loop: \
	FILL(0, c0, k); \
	FILL(PLANE, c1, k); \
	FILL(2*PLANE, c2, k); \
	FILL(3*PLANE, c3, k); \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
	CMPQ CX, $8; \
	JGE  loop; \
tail: \
	TESTQ CX, CX; \
	JLE   done; \
	MASK; \
	FILLB(0, c0, k); \
	FILLB(PLANE, c1, k); \
	FILLB(2*PLANE, c2, k); \
	FILLB(3*PLANE, c3, k); \
done:

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
	FILLRUN(Y1, Y2, Y3, Y4, Y5, spanLoop, spanTail, spanDone)
	VZEROUPPER
	RET

// COLORSM blends the lanes of Y15 of the planarColors at SI (channels ROWBUF bytes apart,
// loaded masked: no column past them is read) onto the pixels at DI: p = col + p·(1 − col.A)
// (FILLB). Y0-Y5 and Y12 are clobbered.
#define COLORSM \
	LDM((SI), Y1); \
	LDM(ROWBUF(SI), Y2); \
	LDM(2*ROWBUF(SI), Y3); \
	LDM(3*ROWBUF(SI), Y4); \
	VSUBPS     Y4, Y14, Y5; \
	FILLB(0, Y1, Y5); \
	FILLB(PLANE, Y2, Y5); \
	FILLB(2*PLANE, Y3, Y5); \
	FILLB(3*PLANE, Y4, Y5)

// COLORSW is COLORSM on a whole group, the colours and the planes' values memory operands.
#define COLORSW \
	VMOVUPS 3*ROWBUF(SI), Y4; \
	VSUBPS  Y4, Y14, Y5; \
	VMULPS  0(DI), Y5, Y0; \
	VADDPS  (SI), Y0, Y0; \
	VMOVUPS Y0, 0(DI); \
	VMULPS  PLANE(DI), Y5, Y0; \
	VADDPS  ROWBUF(SI), Y0, Y0; \
	VMOVUPS Y0, PLANE(DI); \
	VMULPS  2*PLANE(DI), Y5, Y0; \
	VADDPS  2*ROWBUF(SI), Y0, Y0; \
	VMOVUPS Y0, 2*PLANE(DI); \
	FILL(3*PLANE, Y4, Y5)

// COLORSRUN is COLORS on the CX pixels at DI (colours at SI; CX > 0): whole groups on a loop
// of their own (COLORSW), then the last on its lanes (COLORSM); whole, tail and done are its
// labels.
#define COLORSRUN(whole, tail, done) \
	SUBQ $8, CX; \
	JLT  tail; \
whole: \
	COLORSW; \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	SUBQ $8, CX; \
	JGE  whole; \
tail: \
	ADDQ $8, CX; \
	JLE  done; \
	MASK; \
	COLORSM; \
done:

// func boxRowsAVX2(p *float32, rows, left, mid, right int, col *float32, fill *layerColor)
//
// Each of rows rows (256 bytes apart from p) is left pixels of the colours at col, mid of the
// fill (none if fill is nil) and right of the colours at col + left + mid: boxRowsGo.
//
// YMM registers: Y0-Y5 COLORS, Y6-Y9 the fill colour, Y10 its k = 1 − A, Y14 1, Y15 mask.
TEXT ·boxRowsAVX2(SB), NOSPLIT, $0-56
	MOVQ    p+0(FP), R10
	MOVQ    rows+8(FP), R13
	MOVQ    col+40(FP), R12
	MOVQ    fill+48(FP), AX
	VMOVUPS ones<>(SB), Y14
	TESTQ   AX, AX
	JZ      rowsLoop
	VBROADCASTSS 0(AX), Y6
	VBROADCASTSS 4(AX), Y7
	VBROADCASTSS 8(AX), Y8
	VBROADCASTSS 12(AX), Y9
	// k = 1 − A, the float32 subtraction overSpanGo does.
	VSUBPS  Y9, Y14, Y10

rowsLoop:
	MOVQ  R10, DI
	MOVQ  R12, SI
	MOVQ  left+16(FP), CX
	TESTQ CX, CX
	JLE   rowsMid
	COLORSRUN(rowsLeft, rowsLeftTail, rowsMid)
	MOVQ  left+16(FP), BX
	LEAQ  (R10)(BX*4), DI
	MOVQ  mid+24(FP), CX
	TESTQ AX, AX
	JZ    rowsRight
	FILLRUN(Y6, Y7, Y8, Y9, Y10, rowsMidLoop, rowsMidTail, rowsRight)
	MOVQ  left+16(FP), BX
	ADDQ  mid+24(FP), BX
	LEAQ  (R10)(BX*4), DI
	LEAQ  (R12)(BX*4), SI
	MOVQ  right+32(FP), CX
	TESTQ CX, CX
	JLE   rowsNext
	COLORSRUN(rowsRightLoop, rowsRightTail, rowsNext)
	ADDQ  $256, R10
	DECQ  R13
	JNZ   rowsLoop
	VZEROUPPER
	RET

// ---- colour at per-pixel coverage ---------------------------------------------------------

// PLANECOV is p = c·cov + p·k on a group of the plane at off(DI), c's channel in cr, k in
// Y6. The blends take whole groups: where cov is 0 the pixel stays as it was (c·0 + p·1).
#define PLANECOV(off, cr, cov) \
	VMOVUPS    off(DI), Y7; \
	VMULPS     Y6, Y7, Y7; \
	VMULPS     cov, cr, Y8; \
	VADDPS     Y7, Y8, Y7; \
	VMOVUPS    Y7, off(DI)

// BLENDX is over: colour Y1-Y4 at coverage cov onto the 8 pixels at DI. a = c.A·cov in Y5,
// k = 1 − a in Y6 (Y14 holds 1); Y7 and Y8 are clobbered.
#define BLENDX(cov) \
	VMULPS     cov, Y4, Y5; \
	VSUBPS     Y5, Y14, Y6; \
	PLANECOV(0, Y1, cov); \
	PLANECOV(PLANE, Y2, cov); \
	PLANECOV(2*PLANE, Y3, cov); \
	VMOVUPS    3*PLANE(DI), Y7; \
	VMULPS     Y6, Y7, Y7; \
	VADDPS     Y7, Y5, Y7; \
	VMOVUPS    Y7, 3*PLANE(DI)

DATA recip255<>+0x00(SB)/4, $0x3b808081 // float32(1.0/255)
GLOBL recip255<>(SB), (NOPTR+RODATA), $4

// func overMaskAVX2(p *float32, m *byte, stride, n, rows int, c *layerColor)
//
// Coverage m/255 from 8 mask bytes a group (whole groups are read: the mask has slack), n
// pixels a row, rows rows (the mask's rows stride bytes apart, the tile's 256). The last
// group of a row is blended whole at coverage 0 past the row's pixels (c·0 + p·1 is p).
TEXT ·overMaskAVX2(SB), NOSPLIT, $0-48
	MOVQ         p+0(FP), R10
	MOVQ         m+8(FP), R12
	MOVQ         rows+32(FP), R13
	MOVQ         c+40(FP), AX
	BROADCAST4
	VMOVUPS      ones<>(SB), Y14
	VBROADCASTSS recip255<>(SB), Y9

maskRow:
	MOVQ R10, DI
	MOVQ R12, SI
	MOVQ n+24(FP), CX

maskLoop:
	MASK
	VPMOVZXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y9, Y0, Y0
	VANDPS    Y15, Y0, Y0
	BLENDX(Y0)
	ADDQ      $32, DI
	ADDQ      $8, SI
	SUBQ      $8, CX
	JGT       maskLoop
	ADDQ      $256, R10
	ADDQ      stride+16(FP), R12
	DECQ      R13
	JNZ       maskRow
	VZEROUPPER
	RET

// ---- distance and coverage ----------------------------------------------------------------

// SEGMENT loads the segment (an sdf.Seg) at AX for DIST2: Y0 = ax, Y1 = dx, Y2 = dy,
// Y3 = 1/L², Y6 = 0, Y14 = 1.
#define SEGMENT \
	VBROADCASTSS 0(AX), Y0; \
	VBROADCASTSS 8(AX), Y1; \
	VBROADCASTSS 12(AX), Y2; \
	VBROADCASTSS 16(AX), Y3; \
	VXORPS       Y6, Y6, Y6; \
	VMOVUPS      ones<>(SB), Y14

// ROWBASE sets base to the pixel centres of a row's first group less the span's start,
// float32(ox) + ½ + lane (ox, int32, at 20(AX)), for ROWF. R11 becomes the first row's number
// in the frame, oy (int32 at 24(AX)), and R13 (the number of rows) one past the last's, for
// NEXTROW.
#define ROWBASE(xbase, base) \
	MOVL         20(AX), BX; \
	VCVTSI2SSL   BX, xbase, xbase; \
	VADDSS       halves<>(SB), xbase, xbase; \
	VBROADCASTSS xbase, base; \
	VADDPS       lanesF<>(SB), base, base; \
	MOVLQSX      24(AX), R11; \
	ADDQ         R11, R13

// ROWF loads the row for DIST2 and the pixel centres, after ROWBASE: with the row's span
// starting at R8 and its number in the frame R11, Y10 = the centres of the first group,
// float32(lo) + base (the Go twins' float32(ox + lo) + ½ + lane: every term an integer or a
// half below 2²³, so every sum is exact); Y4 = qy = py − ay and Y5 = qy·dy, with
// py = float32(R11) + ½.
#define ROWF(base) \
	VCVTSI2SSL   R8, X10, X10; \
	VBROADCASTSS X10, Y10; \
	VADDPS       base, Y10, Y10; \
	VCVTSI2SSQ   R11, X4, X4; \
	VADDSS       halves<>(SB), X4, X4; \
	VSUBSS       4(AX), X4, X4; \
	VMULSS       12(AX), X4, X5; \
	VBROADCASTSS X4, Y4; \
	VBROADCASTSS X5, Y5

// DIST2 sets d to the squared distance from the pixel centres (px, py) to the segment, as
// sdf.Seg.Dist2 computes it. Y7-Y9 are clobbered (d may be Y7).
#define DIST2(px, d) DIST2X(px, d, Y0, Y3)

// DIST2X is DIST2 with ax and 1/L² in the operands ax and invl2 (registers or 8 copies in
// memory).
#define DIST2X(px, d, ax, invl2) \
	VSUBPS ax, px, Y7; \
	VMULPS Y1, Y7, Y8; \
	VADDPS Y5, Y8, Y8; \
	VMULPS invl2, Y8, Y8; \
	VMAXPS Y6, Y8, Y8; \
	VMINPS Y14, Y8, Y8; \
	VMULPS Y8, Y1, Y9; \
	VSUBPS Y9, Y7, Y7; \
	VMULPS Y8, Y2, Y9; \
	VSUBPS Y9, Y4, Y9; \
	VMULPS Y7, Y7, Y7; \
	VMULPS Y9, Y9, Y9; \
	VADDPS Y9, Y7, d

// The row loops below walk n rows of spans (pairs of int32 at SI, [lo, hi), empty when
// lo ≥ hi), R11 counting rows in the frame from the first (ROWBASE) and the row bases
// moving on by a tile row (256 bytes) a row. NEXTROW ends a row: it moves SI and R11 on and
// loops to label while rows are left (R11 below R13).
#define NEXTROW(label) \
	ADDQ $8, SI; \
	INCQ R11; \
	CMPQ R11, R13; \
	JLT  label

// GLOW adds the glow to the coverage in cov, as sdf.Glow.Cover: with m = max(s, 0) (s the
// signed distance to the stroke's edge), u = m·inv, t = max(1 − u, 0), k = t²·opacity,
// cov + (1 − cov)·k. inv and opacity are memory operands; m and tmp are clobbered; zero and
// one hold 0 and 1.
#define GLOW(cov, m, zero, one, inv, opacity, tmp) \
	VBROADCASTSS inv, tmp; \
	VMULPS       tmp, m, m; \
	VBROADCASTSS opacity, tmp; \
	GLOWU(cov, m, zero, one, tmp, tmp)

// GLOWU is GLOW from u in m, with opacity a register or 8 copies in memory (it may be tmp).
#define GLOWU(cov, m, zero, one, opacity, tmp) \
	VSUBPS       m, one, m; \
	VMAXPS       zero, m, m; \
	VMULPS       m, m, m; \
	VMULPS       opacity, m, m; \
	VSUBPS       cov, one, tmp; \
	VMULPS       m, tmp, tmp; \
	VADDPS       tmp, cov, cov

// COVER turns √d² in s into a stroke's coverage, in place, as render.strokeCover before its
// glow: s − half, m = max(s − half, 0) for the glow, then Coverage(s − half)·thin. half and
// thin are registers or 8 copies in memory; zero, halfc and one hold 0, ½ and 1.
#define COVER(s, m, half, thin, zero, halfc, one) \
	VSUBPS half, s, s; \
	VMAXPS zero, s, m; \
	VSUBPS s, halfc, s; \
	VMAXPS zero, s, s; \
	VMINPS one, s, s; \
	VMULPS thin, s, s

// ---- strokes, row by row -----------------------------------------------------------------

VEC8(minusOne<>, $0xbf800000bf800000)

VEC8(onesInt<>, $0x0000000100000001)

VEC8(eightsInt<>, $0x0000000800000008)

VEC8(maxFloat<>, $0x7f7fffff7f7fffff)

// SPANS turns the clipped parameters t0 (Y9) and t1 (Y10) of 8 rows, and the rows to keep
// (Y11, all ones where sdf.BandX found the segment in the band), into those rows' spans:
// sdf.BandX's x extent, widened by r, and sdf.Centers' pixels, stored as pairs at DI, (0, 0)
// where empty; BX gets bit k set for the k-th row's span not empty. Registers as in
// segmentSpansAVX2; Y9-Y12 are clobbered.
#define SPANS \
	VMULPS       Y4, Y9, Y9; \
	VADDPS       Y5, Y9, Y9; \
	VMULPS       Y4, Y10, Y10; \
	VADDPS       Y5, Y10, Y10; \
	VMINPS       Y10, Y9, Y12; \
	VMAXPS       Y10, Y9, Y9; \
	VSUBPS       Y1, Y12, Y12; \
	VSUBPS       Y6, Y12, Y12; \
	VADDPS       Y1, Y9, Y9; \
	VSUBPS       Y6, Y9, Y9; \
	VMAXPS       Y15, Y12, Y12; \
	VMINPS       Y7, Y12, Y12; \
	VSUBPS       Y13, Y12, Y12; \
	VROUNDPS     $2, Y12, Y12; \
	VCVTTPS2DQ   Y12, Y12; \
	VMAXPS       Y15, Y9, Y9; \
	VMINPS       Y7, Y9, Y9; \
	VSUBPS       Y13, Y9, Y9; \
	VROUNDPS     $1, Y9, Y9; \
	VCVTTPS2DQ   Y9, Y9; \
	VPADDD       onesInt<>(SB), Y9, Y9; \
	VPBROADCASTD 28(AX), Y10; \
	VPMAXSD      Y8, Y12, Y12; \
	VPMINSD      Y10, Y12, Y12; \
	VPMAXSD      Y8, Y9, Y9; \
	VPMINSD      Y10, Y9, Y9; \
	VPCMPGTD     Y12, Y9, Y10; \
	VPAND        Y11, Y10, Y10; \
	VMOVMSKPS    Y10, BX; \
	VPAND        Y10, Y12, Y12; \
	VPAND        Y10, Y9, Y9; \
	VPUNPCKLDQ   Y9, Y12, Y10; \
	VPUNPCKHDQ   Y9, Y12, Y11; \
	VPERM2I128   $0x20, Y11, Y10, Y12; \
	VPERM2I128   $0x31, Y11, Y10, Y9; \
	VMOVDQU      Y12, (DI); \
	VMOVDQU      Y9, 32(DI)

// func segmentSpansAVX2(spans *int32, n int, prm *spanParams)
//
// segmentSpan for n rows, 8 rows a group (the spans of a group's rows past n are written
// too: the rows fit in a rowSpans). spanParams' offsets: x0 0, y0 4, x1 8, y1 12, r 16,
// ox 20, yc0 24, w 28, top 32.
//
// YMM registers:
//
//	Y0	the rows' centres		Y6	ox			Y13	½
//	Y1	r				Y7	top			Y14	1
//	Y2	y0				Y8	0			Y15	−1
//	Y3	y1 − y0				Y9-Y12	scratch
//	Y4	x1 − x0
//	Y5	x0
TEXT ·segmentSpansAVX2(SB), NOSPLIT, $0-24
	MOVQ         spans+0(FP), DI
	MOVQ         n+8(FP), CX
	MOVQ         prm+16(FP), AX
	VBROADCASTSS 24(AX), Y0
	VADDPS       lanesF<>(SB), Y0, Y0
	VBROADCASTSS 16(AX), Y1
	VBROADCASTSS 4(AX), Y2
	VMOVSS       12(AX), X3
	VSUBSS       4(AX), X3, X3
	VMOVSS       8(AX), X4
	VSUBSS       0(AX), X4, X4
	VBROADCASTSS X4, Y4
	VBROADCASTSS 0(AX), Y5
	VBROADCASTSS 20(AX), Y6
	VBROADCASTSS 32(AX), Y7
	VXORPS       Y8, Y8, Y8
	VMOVUPS      halves<>(SB), Y13
	VMOVUPS      ones<>(SB), Y14
	VMOVUPS      minusOne<>(SB), Y15
	VUCOMISS     X8, X3
	VBROADCASTSS X3, Y3
	JNE          spansSloped
	JP           spansSloped

spansFlat:
	// sdf.BandX with dy = 0: the segment is in the band when y0b ≤ y0 ≤ y1b, all of it.
	VSUBPS  Y1, Y0, Y9
	VADDPS  Y1, Y0, Y10
	VCMPPS  $2, Y2, Y9, Y11
	VCMPPS  $2, Y10, Y2, Y9
	VANDPS  Y9, Y11, Y11
	VXORPS  Y9, Y9, Y9
	VMOVUPS Y14, Y10
	SPANS
	VADDPS  eights<>(SB), Y0, Y0
	ADDQ    $64, DI
	SUBQ    $8, CX
	JGT     spansFlat
	VZEROUPPER
	RET

spansSloped:
	// ta, tb = (y0b − y0)/dy, (y1b − y0)/dy, in order; t0 = max(ta, 0), t1 = min(tb, 1);
	// the segment is in the band when t0 ≤ t1.
	VSUBPS Y1, Y0, Y9
	VADDPS Y1, Y0, Y10
	VSUBPS Y2, Y9, Y9
	VDIVPS Y3, Y9, Y9
	VSUBPS Y2, Y10, Y10
	VDIVPS Y3, Y10, Y10
	VMINPS Y10, Y9, Y11
	VMAXPS Y10, Y9, Y10
	VMAXPS Y8, Y11, Y9
	VMINPS Y14, Y10, Y10
	VCMPPS $2, Y10, Y9, Y11
	SPANS
	VADDPS eights<>(SB), Y0, Y0
	ADDQ   $64, DI
	SUBQ   $8, CX
	JGT    spansSloped
	VZEROUPPER
	RET

// func slabSpansAVX2(spans *int32, n int, prm *slabParams) (lo, hi int)
//
// slabSpansGo for n rows, 8 rows a group (as segmentSpansAVX2, the spans of a group's rows
// past n are written too), for a chord with both ranges bounded (aInv, bInv not 0): the two
// ranges of each row, intersected, moved by x0, then SPANS with r = 0 and x = 1·t + 0 (exact)
// does sdf.Centers. slabParams' offsets: qy0 0, aInv 4, aV 8, aC0 12, aC1 16, bInv 20, bV 24,
// w 28, bC0 32, bC1 36, x0 40, ox 44, top 48. It returns the first row with a span and one
// past the last (R8 and R9; n and 0 when none has), from SPANS' BX, rows past n cleared.
//
// YMM registers: Y0 the rows' numbers from the first (exact integers), Y2, Y3, Y9-Y12
// scratch, and SPANS' (Y1 0, Y4 1, Y5 0, Y6 ox, Y7 top, Y8 0, Y13 ½, Y15 −1).
TEXT ·slabSpansAVX2(SB), NOSPLIT, $0-40
	MOVQ         spans+0(FP), DI
	MOVQ         n+8(FP), CX
	MOVQ         prm+16(FP), AX
	MOVQ         CX, R8
	XORQ         R9, R9
	XORQ         DX, DX
	VMOVUPS      lanesF<>(SB), Y0
	VXORPS       Y1, Y1, Y1
	VMOVUPS      ones<>(SB), Y4
	VXORPS       Y5, Y5, Y5
	VBROADCASTSS 44(AX), Y6
	VBROADCASTSS 48(AX), Y7
	VXORPS       Y8, Y8, Y8
	VMOVUPS      halves<>(SB), Y13
	VMOVUPS      minusOne<>(SB), Y15

slabGroup:
	// qy = qy0 + j; along: (c0 − aV·qy)·aInv, (c1 − aV·qy)·aInv, in order in Y9, Y10.
	VBROADCASTSS 0(AX), Y2
	VADDPS       Y0, Y2, Y2
	VBROADCASTSS 8(AX), Y12
	VMULPS       Y2, Y12, Y3
	VBROADCASTSS 4(AX), Y12
	VBROADCASTSS 12(AX), Y9
	VSUBPS       Y3, Y9, Y9
	VMULPS       Y12, Y9, Y9
	VBROADCASTSS 16(AX), Y10
	VSUBPS       Y3, Y10, Y10
	VMULPS       Y12, Y10, Y10
	VMINPS       Y10, Y9, Y11
	VMAXPS       Y10, Y9, Y10
	VMOVUPS      Y11, Y9
	// Across, in order in Y3, Y2.
	VBROADCASTSS 24(AX), Y12
	VMULPS       Y2, Y12, Y3
	VBROADCASTSS 20(AX), Y12
	VBROADCASTSS 32(AX), Y11
	VSUBPS       Y3, Y11, Y11
	VMULPS       Y12, Y11, Y11
	VBROADCASTSS 36(AX), Y2
	VSUBPS       Y3, Y2, Y2
	VMULPS       Y12, Y2, Y2
	VMINPS       Y2, Y11, Y3
	VMAXPS       Y2, Y11, Y2
	// Both: [max of the lows, min of the highs], kept where not empty; plus x0.
	VMAXPS       Y3, Y9, Y9
	VMINPS       Y2, Y10, Y10
	VCMPPS       $2, Y10, Y9, Y11
	VBROADCASTSS 40(AX), Y12
	VADDPS       Y12, Y9, Y9
	VADDPS       Y12, Y10, Y10
	SPANS
	// The group's rows with a span (BX), those past n cleared: the first and the last.
	CMPQ         CX, $8
	JGE          slabRows
	MOVL         $1, R10
	SHLL         CX, R10
	DECL         R10
	ANDL         R10, BX

slabRows:
	TESTL BX, BX
	JZ    slabNext
	CMPQ  R9, $0
	JNE   slabLast
	BSFL  BX, R10
	LEAQ  (DX)(R10*1), R8

slabLast:
	BSRL BX, R10
	LEAQ 1(DX)(R10*1), R9

slabNext:
	VADDPS eights<>(SB), Y0, Y0
	ADDQ   $64, DI
	ADDQ   $8, DX
	SUBQ   $8, CX
	JGT    slabGroup
	VZEROUPPER
	MOVQ   R8, lo+24(FP)
	MOVQ   R9, hi+32(FP)
	RET

// PLANEM is PLANECOV with the colour's channel at coff(AX) and k in Y9 (Y11, Y12 clobbered).
#define PLANEM(off, coff, cov) \
	VMOVUPS      off(DI), Y11; \
	VMULPS       Y9, Y11, Y11; \
	VBROADCASTSS coff(AX), Y12; \
	VMULPS       cov, Y12, Y12; \
	VADDPS       Y11, Y12, Y11; \
	VMOVUPS      Y11, off(DI)

// BLENDM is BLENDX with the colour at coff(AX), for loops whose registers are taken:
// a in Y8, k in Y9.
#define BLENDM(cov, coff) \
	VBROADCASTSS coff+12(AX), Y8; \
	VMULPS       cov, Y8, Y8; \
	VSUBPS       Y8, Y14, Y9; \
	PLANEM(0, coff, cov); \
	PLANEM(PLANE, coff+4, cov); \
	PLANEM(2*PLANE, coff+8, cov); \
	VMOVUPS      3*PLANE(DI), Y11; \
	VMULPS       Y9, Y11, Y11; \
	VADDPS       Y11, Y8, Y11; \
	VMOVUPS      Y11, 3*PLANE(DI)

// PLANEG blends channel coff of a gradient line's colour at the pixels' parameters (Y8)
// and coverage (Y7) onto the plane at off(DI): c = c0 + dc·t (c0 at coff(AX), dc at
// coff+28(AX)), p = c·cov + p·k with k in Y13. Y11 and Y12 are clobbered.
#define PLANEG(off, coff) \
	VBROADCASTSS coff+28(AX), Y11; \
	VMULPS       Y8, Y11, Y11; \
	VBROADCASTSS coff(AX), Y12; \
	VADDPS       Y11, Y12, Y11; \
	VMULPS       Y7, Y11, Y11; \
	VMOVUPS      off(DI), Y12; \
	VMULPS       Y13, Y12, Y12; \
	VADDPS       Y12, Y11, Y12; \
	VMOVUPS      Y12, off(DI)

// GRADBLEND blends a gradient line's colours (PLANEG) at coverage Y7: a = (c0.A + dc.A·t)·cov
// in Y9, k = 1 − a in Y13.
#define GRADBLEND \
	VBROADCASTSS 76(AX), Y9; \
	VMULPS       Y8, Y9, Y9; \
	VBROADCASTSS 48(AX), Y11; \
	VADDPS       Y9, Y11, Y9; \
	VMULPS       Y7, Y9, Y9; \
	VSUBPS       Y9, Y14, Y13; \
	PLANEG(0, 36); \
	PLANEG(PLANE, 40); \
	PLANEG(2*PLANE, 44); \
	VMOVUPS      3*PLANE(DI), Y12; \
	VMULPS       Y13, Y12, Y12; \
	VADDPS       Y12, Y9, Y12; \
	VMOVUPS      Y12, 3*PLANE(DI)

// func strokeSegmentRowsAVX2(p *float32, spans *int32, n int, prm *strokeParams)
//
// strokeParams' offsets: seg 0 (ax, ay, dx, dy, 1/L²), ox 20, oy 24, half 28, thin 32,
// color 36, glow 52 (radius, inv 56, opacity 60), dc 64, gradient 80. A gradient line
// takes each pixel's colour c0 + dc·t, c0 the colour, t the parameter DIST2 leaves in Y8.
// The frame holds 8 copies each of ax 0, 1/L² 32, half 64, thin 96, inv 128, opacity 160
// and the colour 192-288(SP) (DIST2S, STROKECOVS, BLENDS); a solid line's whole groups run
// on its own loop. Its last group (and a gradient line's every group) runs whole, its
// coverage 0 on the lanes past the span, which the blend leaves as they were (c·0 + p·1;
// past the last row's end, the tile's padding).
TEXT ·strokeSegmentRowsAVX2(SB), NOSPLIT, $320-32
	MOVQ         p+0(FP), R10
	MOVQ         spans+8(FP), SI
	MOVQ         n+16(FP), R13
	MOVQ         prm+24(FP), AX
	SPREAD(0(AX), 0(SP))
	SPREAD(16(AX), 32(SP))
	SPREAD(28(AX), 64(SP))
	SPREAD(32(AX), 96(SP))
	SPREAD(56(AX), 128(SP))
	SPREAD(60(AX), 160(SP))
	SPREAD(36(AX), 192(SP))
	SPREAD(40(AX), 224(SP))
	SPREAD(44(AX), 256(SP))
	SPREAD(48(AX), 288(SP))
	VBROADCASTSS 8(AX), Y1
	VBROADCASTSS 12(AX), Y2
	VXORPS       Y6, Y6, Y6
	VMOVUPS      ones<>(SB), Y14
	VMOVUPS      halves<>(SB), Y0
	ROWBASE(X3, Y3)

strokeRow:
	MOVL (SI), R8
	MOVL 4(SI), R9
	CMPL R8, R9
	JGE  strokeNextRow
	MOVQ R9, CX
	SUBQ R8, CX
	LEAQ (R10)(R8*4), DI
	ROWF(Y3)
	CMPL 80(AX), $0
	JNE  gradientGroup
	SUBQ $8, CX
	JLT  strokeTail

strokeGroup:
	DIST2S(Y10, Y7)
	STROKECOVS
	BLENDS
	VADDPS eights<>(SB), Y10, Y10
	ADDQ   $32, DI
	SUBQ   $8, CX
	JGE    strokeGroup

strokeTail:
	ADDQ $8, CX
	JLE  strokeNextRow
	MASK
	DIST2S(Y10, Y7)
	STROKECOVS
	VANDPS Y15, Y7, Y7
	BLENDM(Y7, 36)
	JMP    strokeNextRow

gradientGroup:
	MASK
	DIST2S(Y10, Y7)
	STROKECOVS
	VANDPS Y15, Y7, Y7
	GRADBLEND
	VADDPS eights<>(SB), Y10, Y10
	ADDQ   $32, DI
	SUBQ   $8, CX
	JGT    gradientGroup

strokeNextRow:
	ADDQ $256, R10
	NEXTROW(strokeRow)
	VZEROUPPER
	RET

// NEARESTOP lowers the distances at DI to the group's d (Y7) where it is smaller, and sets
// the opacities at DX there to Y11's (Y8, Y9, Y12 clobbered).
#define NEARESTOP \
	VMOVUPS   (DI), Y8; \
	VCMPPS    $1, Y8, Y7, Y9 /* d < d2 */; \
	VBLENDVPS Y9, Y7, Y8, Y8; \
	VMOVUPS   Y8, (DI); \
	VMOVUPS   (DX), Y12; \
	VBLENDVPS Y9, Y11, Y12, Y12; \
	VMOVUPS   Y12, (DX)

// func nearestChordRowsAVX2(d2, op *float32, union *composite.Span, spans *int32, n int, prm *chordParams)
//
// chordParams' offsets: seg 0, ox 20, oy 24, opacity 28. n is at most a tile's rows. Where
// a lane's distance is below d2's (and the lane is in the span) it is stored with the
// opacity (none with op nil). Each non-empty span widens the row's union (pairs of int32 at
// R14, each a span or noSpan, as unite). Two passes over the rows come first, so that the
// row loop has little to do but the groups: the unions, 4 rows a group (the last few rows
// one by one), and each row's qy = py − ay and qy·dy (as ROWF computes them), 8 rows a group,
// into the frame (qy at 0, qy·dy at 256(SP), a float per row). A row's whole groups run on
// a loop of their own, without op one of VMINPS (min(d, d2) is d where d < d2, else d2: the
// same bits), its last group too, whole (d2 and op are tileFields).
TEXT ·nearestChordRowsAVX2(SB), NOSPLIT, $512-48
	MOVQ         d2+0(FP), R10
	MOVQ         op+8(FP), R12
	MOVQ         union+16(FP), R14
	MOVQ         spans+24(FP), SI
	MOVQ         n+32(FP), R13
	MOVQ         prm+40(FP), AX
	SEGMENT

	// The unions of whole groups of 4 rows: min and max where the row's span is not
	// empty (Y7: all ones in both its lanes), the union where it is.
	MOVQ SI, R8
	MOVQ R14, R9
	XORQ DX, DX

nearestUnite4:
	LEAQ      4(DX), BX
	CMPQ      BX, R13
	JGT       nearestUnite1
	VMOVDQU   (R8), Y4
	VMOVDQU   (R9), Y5
	VPSHUFD   $0xB1, Y4, Y7
	VPCMPGTD  Y4, Y7, Y7
	VPSHUFD   $0xA0, Y7, Y7
	VPMINSD   Y4, Y5, Y8
	VPMAXSD   Y4, Y5, Y9
	VPBLENDD  $0xAA, Y9, Y8, Y8
	VPBLENDVB Y7, Y8, Y5, Y5
	VMOVDQU   Y5, (R9)
	ADDQ      $32, R8
	ADDQ      $32, R9
	MOVQ      BX, DX
	JMP       nearestUnite4

nearestUnite1:
	// The last rows, one by one.
	CMPQ    DX, R13
	JGE     nearestQy
	MOVL    (R8), CX
	MOVL    4(R8), BX
	CMPL    CX, BX
	JGE     nearestUniteNext
	CMPL    CX, (R9)
	JGE     nearestUniteHi
	MOVL    CX, (R9)

nearestUniteHi:
	CMPL BX, 4(R9)
	JLE  nearestUniteNext
	MOVL BX, 4(R9)

nearestUniteNext:
	ADDQ $8, R8
	ADDQ $8, R9
	INCQ DX
	JMP  nearestUnite1

nearestQy:
	// qy and qy·dy of every row, 8 rows a group: py = float32(oy + j) + ½, as ROWF.
	MOVL         24(AX), BX
	VMOVD        BX, X4
	VPBROADCASTD X4, Y4
	VPADDD       lanes<>(SB), Y4, Y4
	VBROADCASTSS 4(AX), Y7
	XORQ         DX, DX

nearestQyGroup:
	VCVTDQ2PS Y4, Y5
	VADDPS    halves<>(SB), Y5, Y5
	VSUBPS    Y7, Y5, Y5
	VMOVUPS   Y5, 0(SP)(DX*4)
	VMULPS    Y2, Y5, Y5
	VMOVUPS   Y5, 256(SP)(DX*4)
	VPADDD    eightsInt<>(SB), Y4, Y4
	ADDQ      $8, DX
	CMPQ      DX, R13
	JLT       nearestQyGroup

	VBROADCASTSS 28(AX), Y11
	// Y13: float32(ox) + ½ + lane, the centres of a row's first group less its start.
	MOVL         20(AX), BX
	VCVTSI2SSL   BX, X13, X13
	VADDSS       halves<>(SB), X13, X13
	VBROADCASTSS X13, Y13
	VADDPS       lanesF<>(SB), Y13, Y13
	XORQ         BX, BX

nearestRow:
	MOVL         (SI), R8
	MOVL         4(SI), R9
	CMPL         R8, R9
	JGE          nearestNextRow
	MOVQ         R9, CX
	SUBQ         R8, CX
	LEAQ         (R10)(R8*4), DI
	LEAQ         (R12)(R8*4), DX
	VCVTSI2SSL   R8, X10, X10
	VBROADCASTSS X10, Y10
	VADDPS       Y13, Y10, Y10
	VBROADCASTSS 0(SP)(BX*4), Y4
	VBROADCASTSS 256(SP)(BX*4), Y5
	SUBQ         $8, CX
	JLT          nearestTail
	CMPQ         op+8(FP), $0
	JNE          nearestOpGroup

nearestGroup:
	DIST2(Y10, Y7)
	VMINPS  (DI), Y7, Y8
	VMOVUPS Y8, (DI)
	VADDPS  eights<>(SB), Y10, Y10
	ADDQ    $32, DI
	SUBQ    $8, CX
	JGE     nearestGroup
	JMP     nearestTail

nearestOpGroup:
	DIST2(Y10, Y7)
	NEARESTOP
	VADDPS    eights<>(SB), Y10, Y10
	ADDQ      $32, DI
	ADDQ      $32, DX
	SUBQ      $8, CX
	JGE       nearestOpGroup

nearestTail:
	// The last group whole, its lanes past the span at MaxFloat32: min(MaxFloat32, d2) is
	// d2, so they store what they loaded (past the row's end, the next row's or the
	// scratch's padding).
	ADDQ    $8, CX
	JLE     nearestNextRow
	MASK
	DIST2(Y10, Y7)
	VANDNPS maxFloat<>(SB), Y15, Y8
	VANDPS  Y15, Y7, Y7
	VORPS   Y8, Y7, Y7
	CMPQ    op+8(FP), $0
	JNE     nearestOpTail
	VMINPS  (DI), Y7, Y8
	VMOVUPS Y8, (DI)
	JMP     nearestNextRow

nearestOpTail:
	NEARESTOP

nearestNextRow:
	ADDQ $256, R10
	ADDQ $256, R12
	ADDQ $8, SI
	INCQ BX
	CMPQ BX, R13
	JLT  nearestRow
	VZEROUPPER
	RET

// CURVETAIL blends the last group of a row of a curve stroke (strokeRowsAVX2), whole, on
// the lanes of Y15: d2 read and set back to MaxFloat32 there (the others store what they
// loaded); strokeCover: the signed distance s = √d² − half, m = max(s, 0), the coverage, the
// glow (AX points at the colour: the glow's inv and opacity are at 20 and 24); times the
// opacity; 0 on the other lanes, which BLENDX then leaves as they were (c·0 + p·1).
#define CURVETAIL \
	VMOVUPS    (DX), Y0; \
	VBLENDVPS  Y15, Y10, Y0, Y7; \
	VMOVUPS    Y7, (DX); \
	VSQRTPS    Y0, Y0; \
	COVER(Y0, Y6, Y11, Y12, Y9, Y13, Y14); \
	GLOW(Y0, Y6, Y9, Y14, 20(AX), 24(AX), Y7); \
	VMULPS     (BX), Y0, Y0; \
	VANDPS     Y15, Y0, Y0; \
	BLENDX(Y0)

// (A stroke without per-pixel opacities, op nil, reads its opacity from 8 copies at 0(SP):
// BX stays there, R9 = 0 instead of 32.)

// func strokeRowsAVX2(p, d2, op *float32, spans *composite.Span, n int, prm *profileParams, opacity float32)
//
// profileParams' offsets: half 0, thin 4, color 8, glow 24 (radius, inv 28, opacity 32).
// Each pixel's d2 is read and set back to MaxFloat32; the opacity is op's, or with op nil
// the argument's. A row's whole groups run on a loop of their own (CURVEWHOLE: the glow's
// inv and opacity as 8 copies at 32 and 64(SP)), its last group on CURVETAIL (d2 and op are
// tileFields, the tile's planes padded likewise: composite.Tile).
TEXT ·strokeRowsAVX2(SB), NOSPLIT, $96-52
	VBROADCASTSS opacity+48(FP), Y0
	VMOVUPS      Y0, 0(SP)
	MOVQ         p+0(FP), R10
	MOVQ         d2+8(FP), R12
	MOVQ         op+16(FP), R14
	MOVQ         spans+24(FP), SI
	MOVQ         n+32(FP), R13
	MOVQ         prm+40(FP), AX
	SPREAD(28(AX), 32(SP))
	SPREAD(32(AX), 64(SP))
	VBROADCASTSS 0(AX), Y11
	VBROADCASTSS 4(AX), Y12
	VMOVUPS      halves<>(SB), Y13
	VMOVUPS      ones<>(SB), Y14
	VMOVUPS      maxFloat<>(SB), Y10
	VXORPS       Y9, Y9, Y9
	ADDQ         $8, AX
	BROADCAST4
	XORQ         R11, R11

blendRow:
	MOVL (SI), R8
	MOVL 4(SI), R9
	CMPL R8, R9
	JGE  blendNextRow
	MOVQ R9, CX
	SUBQ R8, CX
	LEAQ (R10)(R8*4), DI
	LEAQ (R12)(R8*4), DX
	LEAQ (R14)(R8*4), BX
	MOVQ $32, R9
	CMPQ op+16(FP), $0
	JNE  blendWhole
	LEAQ 0(SP), BX
	XORQ R9, R9

blendWhole:
	SUBQ $8, CX
	JLT  blendTail

blendGroup:
	CURVEWHOLE
	ADDQ $32, DI
	ADDQ $32, DX
	ADDQ R9, BX
	SUBQ $8, CX
	JGE  blendGroup

blendTail:
	ADDQ $8, CX
	JLE  blendNextRow
	MASK
	CURVETAIL

blendNextRow:
	ADDQ $256, R10
	ADDQ $256, R12
	ADDQ $256, R14
	NEXTROW(blendRow)
	VZEROUPPER
	RET

// ---- rounded boxes ------------------------------------------------------------------------

VEC8(absMask<>, $0x7fffffff7fffffff)

// ROUNDBOXDIST sets Y7 to sdf.RoundBox at the pixel centres Y0 of a row with qy, qy², qy − r
// and the case mask (qy > 0) in Y4, Y5, Y6 and Y11 (Y1-Y3 as QX's, Y8 = 0; Y9, Y10
// clobbered).
#define ROUNDBOXDIST \
	QX; \
	VMAXPS       Y4, Y7, Y10 /* qy ≤ 0: max(qx, qy) − r */; \
	VSUBPS       Y3, Y10, Y10; \
	VCMPPS       $2, Y8, Y7, Y9 /* qy > 0: qy − r where qx ≤ 0, else √(qx² + qy²) − r */; \
	VMULPS       Y7, Y7, Y7; \
	VADDPS       Y5, Y7, Y7; \
	VSQRTPS      Y7, Y7; \
	VSUBPS       Y3, Y7, Y7; \
	VBLENDVPS    Y9, Y6, Y7, Y7; \
	VBLENDVPS    Y11, Y7, Y10, Y7

// ROWQY turns the row's py in X4 into qy = |py − cy| − hy + r in X4, qy² in X5, qy − r in X6
// and the case mask (qy > 0) in X7, for the box at AX (cornerParams' cy 68, hy 72, r 40);
// X8 is cleared.
#define ROWQY \
	VSUBSS       68(AX), X4, X4; \
	VANDPS       absMask<>(SB), X4, X4; \
	VSUBSS       72(AX), X4, X4; \
	VADDSS       40(AX), X4, X4; \
	VMULSS       X4, X4, X5; \
	VSUBSS       40(AX), X4, X6; \
	VXORPS       X8, X8, X8; \
	VCMPSS       $1, X4, X8, X7 /* 0 < qy */

// QX sets Y7 to sdf.RoundBox's qx = |px − cx| − hx + r at the pixel centres Y0 (Y1 = cx,
// Y2 = hx, Y3 = r).
#define QX \
	VSUBPS Y1, Y0, Y7; \
	VANDPS absMask<>(SB), Y7, Y7; \
	VSUBPS Y2, Y7, Y7; \
	VADDPS Y3, Y7, Y7

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

// SHADE blends channel off's colour, computed into Y12, onto the lanes of Y15 of the plane
// at poff(DI): p = c + p·(1 − c.A), 1 − c.A in Y14; PUTB blends them into the old values
// (in old) and stores all 8 (see LDM).
#define SHADE(off, poff) \
	CHANNEL(off, Y12); \
	VMOVUPS    poff(DI), Y13; \
	VMULPS     Y14, Y13, Y1; \
	VADDPS     Y1, Y12, Y1; \
	PUTB(Y1, Y13, poff(DI))
#define PUTB(v, old, dst) VBLENDVPS Y15, v, old, old; VMOVUPS old, dst

// Shading a box's pixels from their distances (CORNERRUN). boxProfile's offsets: fillColor
// 0, strokeColor 16, e 44, half 48, thin 52, glow 56 (radius, inv 60, opacity 64).
//
// YMM registers:
//
//	Y0	d		Y6	e		Y12-Y14	scratch
//	Y1	scratch, then max(|d| − half, 0)	Y7	half	Y15	the lanes to blend: in the run and covered
//	Y2	cf		Y8	thin
//	Y3	cs		Y9	½
//	Y4	1 − cs		Y10	1
//	Y5	the colour's alpha	Y11	0
// SHADECONSTS loads the registers SHADEGROUP keeps from the boxProfile at AX.
#define SHADECONSTS \
	VBROADCASTSS 44(AX), Y6; \
	VBROADCASTSS 48(AX), Y7; \
	VBROADCASTSS 52(AX), Y8; \
	VMOVUPS      halves<>(SB), Y9; \
	VMOVUPS      ones<>(SB), Y10; \
	VXORPS       Y11, Y11, Y11

// BOXCOVER sets, from the distances d in Y0, cf = Coverage(d) in Y2, cs = Coverage(|d| −
// half)·thin with the outline's glow (boxProfile.glow's inv and opacity) in Y3, and 1 − cs
// in Y4 (SHADECONSTS' registers; Y1 and Y12 clobbered).
#define BOXCOVER \
	VSUBPS     Y0, Y9, Y2; \
	VMAXPS     Y11, Y2, Y2; \
	VMINPS     Y10, Y2, Y2; \
	VANDPS     absMask<>(SB), Y0, Y3; \
	VSUBPS     Y7, Y3, Y3; \
	VMAXPS     Y11, Y3, Y1; \
	VSUBPS     Y3, Y9, Y3; \
	VMAXPS     Y11, Y3, Y3; \
	VMINPS     Y10, Y3, Y3; \
	VMULPS     Y8, Y3, Y3; \
	GLOW(Y3, Y1, Y11, Y10, 60(AX), 64(AX), Y12); \
	VSUBPS     Y3, Y10, Y4

// SHADEGROUP blends the colours of the box at AX at the 8 distances at SI (lanes below CX)
// onto the pixels at DI (SHADE).
#define SHADEGROUP \
	MASK; \
	VMOVUPS    (SI), Y0; \
	VCMPPS     $1, Y6, Y0, Y1 /* d < e */; \
	VANDPS     Y1, Y15, Y15; \
	BOXCOVER; \
	/* The colour's alpha first: 1 − alpha scales every plane. */ \
	CHANNEL(12, Y5); \
	VSUBPS     Y5, Y10, Y14; \
	SHADE(0, 0); \
	SHADE(4, PLANE); \
	SHADE(8, 2*PLANE); \
	VMOVUPS    3*PLANE(DI), Y13; \
	VMULPS     Y14, Y13, Y1; \
	VADDPS     Y1, Y5, Y1; \
	PUTB(Y1, Y13, 3*PLANE(DI))

// func boxCornerRowsAVX2(p *float32, rows int, prm *cornerParams)
//
// cornerParams' offsets: the boxProfile 0 (cx 32, hx 36, r 40), cy 68, hy 72, px0 76,
// py0 80, left 84, mid 88, right 92, fill 96. Row by row: the row's qy (as sdf.RoundBox
// computes it), the left corner run, the fill run (with the fill colour, if any), the right
// corner run. The frame holds the distances of a run (0(SP)) and the row's values (256(SP)).
TEXT ·boxCornerRowsAVX2(SB), NOSPLIT, $384-24
	MOVQ p+0(FP), R10
	MOVQ rows+8(FP), R13
	MOVQ prm+16(FP), AX
	XORQ R11, R11

cornerRow:
	// qy = |py − cy| − hy + r, py = py0 + row; qy², qy − r; the case mask (qy > 0).
	VCVTSI2SSQ   R11, X4, X4
	VADDSS       80(AX), X4, X4
	ROWQY
	VBROADCASTSS X4, Y4
	VBROADCASTSS X5, Y5
	VBROADCASTSS X6, Y6
	VBROADCASTSS X7, Y7
	VMOVUPS      Y4, 256(SP)
	VMOVUPS      Y5, 288(SP)
	VMOVUPS      Y6, 320(SP)
	VMOVUPS      Y7, 352(SP)

	MOVQ   R10, DI
	MOVLQSX 84(AX), CX
	VMOVSS 76(AX), X0
	CORNERRUN(leftDist, leftShade, leftDone)

	// The fill: overSpan's p = c + p·(1 − c.A) on the mid pixels.
	MOVQ    96(AX), BX
	TESTQ   BX, BX
	JZ      cornerRight
	MOVLQSX 84(AX), DX
	LEAQ    (R10)(DX*4), DI
	MOVLQSX 88(AX), CX
	TESTQ   CX, CX
	JLE     cornerRight
	VMOVUPS ones<>(SB), Y14
	VBROADCASTSS 0(BX), Y1
	VBROADCASTSS 4(BX), Y2
	VBROADCASTSS 8(BX), Y3
	VBROADCASTSS 12(BX), Y4
	VSUBPS  Y4, Y14, Y5
	FILLRUN(Y1, Y2, Y3, Y4, Y5, cornerFill, cornerFillTail, cornerRight)

	MOVLQSX    84(AX), DX
	MOVLQSX    88(AX), BX
	ADDQ       BX, DX
	LEAQ       (R10)(DX*4), DI
	MOVLQSX    92(AX), CX
	VCVTSI2SSQ DX, X0, X0
	VADDSS     76(AX), X0, X0
	CORNERRUN(rightDist, rightShade, rightDone)

	ADDQ $256, R10
	INCQ R11
	CMPQ R11, R13
	JLT  cornerRow
	VZEROUPPER
	RET

// COLUMNSGROUP stores the colours of the box at AX at the 8 distances at SI (lanes below CX)
// to the planarColors at DI, one channel every ROWBUF bytes, with the stores ST: SHADEGROUP's
// colour, zero where the box covers nothing (not d ≥ e, in Y14, as boxProfile.color).
#define COLUMNSGROUP(LD, ST) \
	VMOVUPS    (SI), Y0; \
	VCMPPS     $9, Y6, Y0, Y14 /* not d ≥ e */; \
	BOXCOVER; \
	CHANNEL(0, Y5); \
	VANDPS     Y14, Y5, Y5; \
	ST(Y5, 0(DI)); \
	CHANNEL(4, Y5); \
	VANDPS     Y14, Y5, Y5; \
	ST(Y5, ROWBUF(DI)); \
	CHANNEL(8, Y5); \
	VANDPS     Y14, Y5, Y5; \
	ST(Y5, 2*ROWBUF(DI)); \
	CHANNEL(12, Y5); \
	VANDPS     Y14, Y5, Y5; \
	ST(Y5, 3*ROWBUF(DI))

// func boxColumnsAVX2(col *float32, n int, prm *cornerParams)
//
// boxShader.columns for the n columns whose centres start at px0, in the row py0 (cornerParams'
// offsets as boxCornerRowsAVX2's): their distances (sdf.RoundBox, as CORNERRUN) go to the
// buffer at 0(SP), 8 a group, then their colours to col (COLUMNSGROUP, the last group masked).
TEXT ·boxColumnsAVX2(SB), NOSPLIT, $256-24
	MOVQ         col+0(FP), DI
	MOVQ         n+8(FP), CX
	MOVQ         prm+16(FP), AX
	TESTQ        CX, CX
	JLE          columnsDone
	// The row's qy = |py − cy| − hy + r, qy², qy − r and case mask (qy > 0).
	VMOVSS       80(AX), X4
	ROWQY
	VBROADCASTSS X4, Y4
	VBROADCASTSS X5, Y5
	VBROADCASTSS X6, Y6
	VBROADCASTSS X7, Y11
	VBROADCASTSS 76(AX), Y0
	VADDPS       lanesF<>(SB), Y0, Y0
	VBROADCASTSS 32(AX), Y1
	VBROADCASTSS 36(AX), Y2
	VBROADCASTSS 40(AX), Y3
	VXORPS       Y8, Y8, Y8
	LEAQ         0(SP), SI
	MOVQ         CX, R12

columnsDist:
	ROUNDBOXDIST
	VMOVUPS   Y7, (SI)
	VADDPS    eights<>(SB), Y0, Y0
	ADDQ      $32, SI
	SUBQ      $8, R12
	JGT       columnsDist

	LEAQ 0(SP), SI
	SHADECONSTS

columnsShade:
	MASK
	GROUP(COLUMNSGROUP, LDU, STU, LDM, STM, columnsTail, columnsNext)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JGT  columnsShade

columnsDone:
	VZEROUPPER
	RET
