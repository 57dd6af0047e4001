// layout.h is the one definition of what the host and the kernels share: the primitive
// records, the per-frame parameter block and the bin layout. kernels/gpu/layout.go mirrors it
// field for field, and kernels/gpu/layout_test.go checks sizes and offsets against the C
// compiler's (kernels/internal/clayout), so the two cannot drift.
#ifndef TRACKINK_LAYOUT_H
#define TRACKINK_LAYOUT_H

#include <stdint.h>

#define TK_TILE 64            // composite.TileSize
#define TK_BLEND_OVER 0       // composite.BlendOver, BlendAdd, BlendScreen, BlendMultiply,
#define TK_BLEND_ADD 1        // BlendLighten, BlendDarken
#define TK_BLEND_SCREEN 2
#define TK_BLEND_MULTIPLY 3
#define TK_BLEND_LIGHTEN 4
#define TK_BLEND_DARKEN 5
#define TK_BLOCK_X 64         // threads per tile row: one per column
#define TK_BLOCK_Y 4          // thread rows; thread (x, y) owns pixel rows y, y+4, ..., y+60
#define TK_ROWS (TK_TILE / TK_BLOCK_Y)
#define TK_SCAN_CHUNK 64      // elements each scan thread sums sequentially
#define TK_MAX_CHORDS 65536   // per curve; see curve_chords in bin.cu
#define TK_BIN_THREADS 128    // threads per block of the per-primitive kernels
#define TK_BIN_LANES 32       // threads binning one box, line or label (bin.cu's LaneSplit)
#define TK_CHORD_LANES 4      // threads binning one chord of a curve
// LaneSplit gives every tile exactly one lane only when the lanes are a power of two.
static_assert((TK_BIN_LANES & (TK_BIN_LANES - 1)) == 0, "TK_BIN_LANES must be a power of two");
static_assert((TK_CHORD_LANES & (TK_CHORD_LANES - 1)) == 0, "TK_CHORD_LANES must be a power of two");

// Bin kinds, in paint order.
#define TK_BOXES 0
#define TK_LINES 1
#define TK_CHORDS 2
#define TK_LABELS 3
#define TK_KINDS 4

// Frame formats of the composite kernels. The 10-bit ones hold each sample in a 16-bit
// little-endian word: yuv420p10le in its low 10 bits, P010 in its high 10 bits.
#define TK_RGBA 0
#define TK_YUV420P 1
#define TK_NV12 2
#define TK_YUV420P10 3
#define TK_P010 4

// Status bits, written by the kernels for the host to read after a frame.
#define TK_OVERFLOW 1  // a bin list needed more entries than its capacity: nothing was drawn

// Primitive records: the same fields, in the same order, as overlay.Line, overlay.Curve and
// overlay.Box, so the host uploads those slices as they are.
struct TkDash {
  float on, period;  // overlay.Dash: dashes [k·period, k·period + on]; period 0: solid
  float phase;       // the arc length at the stroke's start (lines and curves)
};
struct TkLine {
  float x0, y0, x1, y1, width;
  float color[4];
  TkDash dash;
  float color1[4];   // the colour at (x1, y1) of a gradient line
  uint8_t gradient;  // overlay.Line.Gradient (a Go bool)
  uint8_t pad_[3];
};
struct TkCurve {
  float x0, y0, x1, y1, x2, y2, width;
  float color[4];
  float fade0, fade1;  // opacity × (1 − fade), fade interpolated along the curve
  uint8_t joined;      // continues the curve before it as one stroke (a Go bool)
  uint8_t pad_[3];
  TkDash dash;         // along the arc length, from (x0, y0)
};
struct TkBox {
  float x, y, w, h, radius, stroke;
  float fill[4];
  float strokeColor[4];
  TkDash dash;    // a dashed outline
  float bracket;  // corner brackets, a fraction of the side; 0: none
};
// TkLabel is a label laid out by the host: its background rectangle (overlay.Font.LabelSize)
// and the range [glyph0, glyph1) of its placed glyphs; with an outline (outline > 0, its
// reach past the background in whole px) the first half of them are the outline's, drawn
// in outlineColor before the text.
struct TkLabel {
  int32_t x, y, w, h;
  int32_t glyph0, glyph1;
  float color[4];
  float background[4];
  int32_t outline, pad_;
  float outlineColor[4];
};
// TkGlyph is one placed glyph: its mask's top-left in the frame, its size, and where its
// w × h coverage bytes start in the atlas.
struct TkGlyph {
  int32_t x, y, w, h;
  int32_t mask;
  int32_t pad_;
};

// TkScan describes one array that a scan turns, in place, from counts into exclusive
// offsets: a[0] must be 0 and a[i+1] holds the count of item i; after the scan a[i] is the
// sum of the counts before item i, and a[n-1] the total.
struct TkScan {
  uint64_t a;        // int32_t[n]
  uint64_t partial;  // int32_t[chunks(n)], scratch
  int32_t n, pad_;
};

// TkParams is the parameter block every kernel receives (one pointer, so every launch has
// the same single 8-byte argument). Pointers and capacities are fixed for a captured graph;
// the counts change per frame.
struct TkParams {
  int32_t width, height, tilesX, tilesY;
  int32_t nBoxes, nLines, nCurves, nLabels, nGlyphs;
  int32_t format;
  int32_t capEntries[TK_KINDS];  // capacity of each kind's item array

  uint64_t boxes, lines, curves, labels, glyphs, atlas;  // inputs
  uint64_t chordStart;   // int32_t[capCurves+1]: curve i owns chords [chordStart[i], chordStart[i+1])
  uint64_t curveStroke;  // int32_t[capCurves]: the first curve of curve i's stroke (its run of joined curves)
  uint64_t binStart[TK_KINDS];   // int32_t[tiles+1] each: counts, then offsets
  uint64_t binCursor[TK_KINDS];  // int32_t[tiles] each: fill cursors
  uint64_t binItems[TK_KINDS];   // int32_t[capEntries[k]] each: the lists, in paint order
  uint64_t binFill[TK_KINDS];    // int32_t[capEntries[k]] each: the same entries in arrival order
  uint64_t layer;                // __half[4 * tilesX*64 * tilesY*64]: premultiplied, in the space below
  uint64_t status;               // int32_t[1 + TK_KINDS]: status bits, then each kind's list total
  TkScan scans[1 + TK_KINDS];    // 0: chordStart; 1..4: binStart[k]

  // The frame, in device memory with the host's strides. For NV12, plane1 is UV and
  // plane2 unused; for RGBA only plane0 is used.
  uint64_t plane0, plane1, plane2;
  int32_t stride0, stride1, stride2;
  int32_t blend;  // composite.Blend: TK_BLEND_OVER, _ADD, _SCREEN, _MULTIPLY, _LIGHTEN, _DARKEN
  // The layer's colour space (composite.Space.M): channel i of a premultiplied colour
  // (r, g, b, a) is space[i][0]·r + space[i][1]·g + space[i][2]·b + space[i][3]·a.
  float space[3][4];

  // The link update (links.h's TkLinks) when the device builds the links itself; 0 when the
  // host built them into the lines and curves.
  uint64_t links;

  // The box effects (effects.h's TkEffects); 0 when the frame has none.
  uint64_t effects;

  // The glow of every line, curve and box outline (overlay.Primitives.Glow, sdf.Glow):
  // radius, 1/radius and opacity at the stroke's edge, all 0 for none.
  float glowRadius, glowInv, glowOpacity;
  // 1 − the layer's master opacity (overlay.Primitives.Transparency): the layer but its
  // labels is scaled by 1 − transparency as it is composited; 0: opaque.
  float transparency;

  // The camera look over the whole frame after the composite (effects.h's TkCamera); 0
  // when the frame has none.
  uint64_t camera;

  // The echo trails (overlay.EchoPass, echo.cu): echoRing kept layers of 4 bytes a pixel,
  // this frame's in slot echoCur, the echoFilled frames before it in the slots before;
  // echoFrames 0 is off, echoKeep only stores the frame's layer.
  uint64_t echoLayers;
  int32_t echoFrames, echoFilled, echoCur, echoRing, echoKeep;
  float echoDecay, echoScale;
  float echoOffset[2];
  int32_t pad2_;
};

#endif  // TRACKINK_LAYOUT_H
