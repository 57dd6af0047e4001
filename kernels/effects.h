// effects.h is what the host and the effects kernels (effects.cu, camera.cu) share: the box
// effects' parameter block (TkEffects, reached through TkParams.effects) and its records, and
// the camera look's (TkCamera, through TkParams.camera).
// kernels/gpu/effects.go mirrors it field for field, and kernels/gpu's layout test checks
// sizes and offsets against the C compiler's (kernels/internal/clayout).
#ifndef TRACKINK_EFFECTS_H
#define TRACKINK_EFFECTS_H

#include <stdint.h>

#include "layout.h"

// Effects: overlay.Effect's values.
#define TK_FX_NONE 0
#define TK_FX_INVERT 1
#define TK_FX_BLUR 2
#define TK_FX_PIXELATE 3
#define TK_FX_THRESHOLD 4
#define TK_FX_ZOOM 5
#define TK_FX_TINT 6
#define TK_FX_SORT 7
#define TK_FX_GAUSSIAN 8

// TkEffectBox is overlay.EffectBox, field for field: the host uploads the slice as it is.
struct TkEffectBox {
  float x, y, w, h, radius, strength;
  int32_t kind;
  float tint[4];  // premultiplied R'G'B'A, opaque
  float sortLo, sortHi;  // pixel sort's luma range, fractions from black to white
  int32_t sortColumns;   // pixel sort along columns (1) or rows (0)
  int32_t sortDescending;  // pixel sort brightest first (1) or darkest (0)
  float feather;         // px the effect takes to fade in inside the edge (fxCover)
  float transparency;    // 1 - the effect's opacity, which scales its coverage
  int32_t sortKey;       // pixel sort's key: TK_SORT_LUMA, _SATURATION or _HUE
  int32_t sortMinRun;    // pixel sort's shortest run sorted, px (4:2:0 chroma: half, up)
};

// TkEffectBox.sortKey's values (overlay.SortLuma, ...).
#define TK_SORT_LUMA 0
#define TK_SORT_SATURATION 1
#define TK_SORT_HUE 2

// TkFxPlane is one component plane of the frame (render's fxPlane): where its sample (0, 0)
// lies in the frame and in the copy of the frame as decoded, and how its samples are held.
struct TkFxPlane {
  uint64_t frame, src;
  int32_t stride, step;   // bytes between rows, between samples
  int32_t wide, shift;    // two-byte little-endian samples; the value's bit shift
  int32_t sub, w, h;      // 1, or 2 for 4:2:0 chroma; the size in samples
  int32_t chroma;
  float black, white;     // code values of black and white (chroma: both neutral)
  float max;              // the largest code value
  int32_t pad_;
};

// TkFxCopy is one byte range of the frame that tk_effects_copy copies as decoded.
struct TkFxCopy {
  uint64_t from, to;
  int64_t bytes;
};

// TkFxGauss is one plane of a Gaussian box's column sums, which tk_effects_gauss writes and
// fxGaussian reads: the int32 sums (row-major) of samples [x0, x0 + cols) × [y0, y0 + rows)
// of the plane, the box's samples and every column its filter reaches; cols 0: none. The
// filter's weights w[0 .. 2r] (int32, r its reach, the radii's sum) tk_effects_gauss_weights
// writes; the host leaves room for them.
struct TkFxGauss {
  uint64_t sums, weights;
  int32_t x0, y0, cols, rows;
  int32_t r, pad_;
};

// TkFxSort is one sampling (the frame's, or 4:2:0 chroma's) of a pixel-sort box's lines,
// which tk_effects_sort lays out and fxSort reads: for each sample of [x0, x0 + cols) ×
// [y0, y0 + rows) of the sampling, its key (uint8) and the coordinate along its line (row
// or column) of the sample sorted into its place (int32), both at [pos · lines + line]
// (pos: the sample's place along its line from the rectangle's edge; line: its line's from
// the other edge), so that neighbouring lines' samples lie side by side. cols 0: none.
// first is the index of its first line among every record's (TkEffects.sortLines).
struct TkFxSort {
  uint64_t keys, places;
  int32_t x0, y0, cols, rows;
  int32_t first, pad_;
};

// TkEffects is the effects' parameter block.
struct TkEffects {
  int32_t n;    // boxes
  int32_t rgb;  // the planes are R', G', B' (an RGBA frame), not Y'CbCr
  uint64_t boxes;
  TkFxPlane planes[3];
  TkFxCopy copies[3];
  uint64_t gauss;  // TkFxGauss[n][3]: each box's planes; 0 when no box is a Gaussian
  uint64_t sort;   // TkFxSort[n][2]: each box's samplings (the frame's, chroma's); 0: no sort
  int32_t sortLines, pad_;  // the records' lines, all told
};

// TkCamera is the camera look's parameter block (camera.cu; render/camera.go): the Q15 gains
// of the columns and rows (overlay.CameraPass.CameraGains), the frame's grain key and
// amplitude (and the colour grain's), each plane's shift, the tint's constants (overlay.CameraTint), and the frame's
// planes with a copy of them as composited (the shifted reads take the copy).
struct TkCamera {
  uint64_t cols, rows;  // int32_t[width], int32_t[height]
  uint32_t key;         // overlay.CameraPass.GrainKey
  int32_t amp;          // overlay.CameraPass.GrainAmplitude; 0: no grain
  int32_t rgb;          // the planes are R', G', B' (an RGBA frame), not Y'CbCr
  int32_t shift[3];     // per plane: sample x reads sample x + shift
  int32_t tint;         // the tint is on
  int32_t keep, luma;   // overlay.CameraTint.Keep, Luma
  int32_t move[3];      // overlay.CameraTint.Move
  TkFxPlane planes[3];
  TkFxCopy copies[3];
  int32_t ampC;         // overlay.CameraPass.ColorGrainAmplitude; 0: no colour grain
  uint32_t keyC[2];     // overlay.CameraPass.ColorGrainKeys: Cb's, Cr's
};

#endif  // TRACKINK_EFFECTS_H
