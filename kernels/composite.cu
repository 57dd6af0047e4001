// composite.cu: blend the layer onto the frame in place and clear the layer behind it; the
// twin of package composite's Over for RGBA, YUV420P, NV12, YUV420P10 and P010 frames: the
// layer is in the frame's own space (10-bit code values for the 10-bit formats), so each
// sample is the same multiply-add as the CPU's blend, and the device writes the CPU's samples
// from the same layer values.
//
// Grid: one block per tile. Block: 32 × 4 threads; thread (x, y) owns the 2 × 2 pixel
// blocks at columns 2x, 2x+1 and rows 2r, 2r+1 for r = y, y+4, ..., so it alone reads the
// four pixels behind each chroma sample, blends them, and zeroes them: no barrier, and the
// layer is zero again for the next frame wherever a tile had work (other tiles were never
// written). A tile that no list reaches is skipped whole. With a mode other than over, or
// a master opacity below 1 (transparency), the layer is composited twice: before the
// labels in that mode and faded (tk_composite_blended), then the labels over at their own
// opacity (tk_composite).
#include "tile.cuh"

#define TK_COMP_X 32
#define TK_COMP_Y 4

__device__ __forceinline__ bool tileHasWork(const TkParams* p, int tile) {
  for (int k = 0; k < TK_KINDS; k++) {
    int lo, hi;
    binRange(p, k, tile, &lo, &hi);
    if (lo != hi) return true;
  }
  return false;
}

// blend is composite's blend: the sample under layer value c with alpha a, c + (1 − a)·s,
// rounded to the nearest byte and saturated.
__device__ __forceinline__ uint8_t blend(uint8_t s, float c, float a) {
  float v = c + (1 - a) * (float)s;
  return (uint8_t)gmin(gmax(v + 0.5f, 0), 255);
}

// blend10 is composite's blendAt for a 16-bit word holding a 10-bit sample at bit shift:
// blend, saturated to 0..1023 instead of 255. (The words are little-endian, as the GPU and
// the emulating host are.)
__device__ __forceinline__ void blend10(uint16_t* d, int shift, float c, float a) {
  float v = c + (1 - a) * (float)(*d >> shift);
  *d = (uint16_t)((unsigned)gmin(gmax(v + 0.5f, 0), 1023) << shift);
}

// sampleSize is the bytes a sample of a Y'CbCr format takes: 2 for the 10-bit formats.
__device__ __forceinline__ int sampleSize(int format) {
  return format == TK_YUV420P10 || format == TK_P010 ? 2 : 1;
}

// blendSample blends layer value c with alpha a onto the sample at d, as the frame's format
// holds it.
__device__ __forceinline__ void blendSample(const TkParams* p, uint8_t* d, float c, float a) {
  if (p->format == TK_YUV420P10)
    blend10((uint16_t*)d, 0, c, a);
  else if (p->format == TK_P010)
    blend10((uint16_t*)d, 6, c, a);
  else
    *d = blend(*d, c, a);
}

#define TK_MIN_ALPHA (1.0f / (1 << 30))

// screenAlpha is composite's: screen's α′ for a pixel of premultiplied luma l and alpha a, l
// held to [2⁻³⁰, a].
__device__ __forceinline__ float screenAlpha(float l, float a) { return gmin(gmax(l, TK_MIN_ALPHA), a); }

// lumaScale is composite's blendConsts.ky: 1 / (M_Y·(1, 1, 1)), the luma of the
// offset-free Y'.
__device__ __forceinline__ float lumaScale(const TkParams* p) {
  const float* m = p->space[0];
  return 1 / ((m[0] + m[1]) + m[2]);
}

// screenLuma is composite's blendConsts.screenLuma: the offset-free luma t of a Y'CbCr layer
// value s, returned, and its α′, in *a2.
__device__ float screenLuma(const TkParams* p, const float s[4], float* a2) {
  float t = s[0] - p->space[0][3] * s[3];
  *a2 = screenAlpha(t * lumaScale(p), s[3]);
  return t;
}

// multiplyAlpha is composite's: multiply's α′ for a pixel of premultiplied luma l and alpha
// a, a − l held as screenAlpha holds l.
__device__ __forceinline__ float multiplyAlpha(float l, float a) { return screenAlpha(a - l, a); }

// lumaRGB is composite's: the BT.709 luma of R'G'B' code values.
__device__ __forceinline__ float lumaRGB(float r, float g, float b) { return 0.2126f * r + 0.7152f * g + 0.0722f * b; }

// TK_PICK_RAMP is composite's pickRamp: lighten and darken fade the layer in over this
// fraction of the luma's range.
#define TK_PICK_RAMP (1.0f / 16)

// frameLuma is composite's frameLuma.at: the luma of frame pixel (fx, fy) in code values,
// Y' of a Y'CbCr frame, lumaRGB of an RGBA one.
__device__ float frameLuma(const TkParams* p, int fx, int fy) {
  const uint8_t* d = (const uint8_t*)p->plane0 + (size_t)fy * p->stride0;
  if (p->format == TK_RGBA) {
    d += 4 * (size_t)fx;
    return lumaRGB(d[0], d[1], d[2]);
  }
  if (p->format == TK_YUV420P10) return (float)((const uint16_t*)d)[fx];
  if (p->format == TK_P010) return (float)(((const uint16_t*)d)[fx] >> 6);
  return d[fx];
}

// blendPixel is composite's Tile.Blend for one pixel (fx, fy) of the frame: layer value s
// changed so that over composites it as mode (package composite's "Add and screen" and
// "Multiply, lighten and darken"). Screen of a Y'CbCr layer leaves its offset-free luma t
// in s[0] and α′ in s[3], which overLuma blends as composite's sampleFormat.screenAt, and
// Cb and Cr as they are: overChroma makes their change on the block's sums, as composite's
// chromaRow does. An R'G'B' layer's offsets are 0, so screen changes its alpha only.
// Multiply is composite's blendConsts.row, lighten and darken its Tile.pick, which reads
// the frame's luma before overLuma writes it.
__device__ void blendPixel(const TkParams* p, int mode, int fx, int fy, float s[4]) {
  float a = s[3];
  if (mode == TK_BLEND_OVER || a == 0) return;
  bool rgba = p->format == TK_RGBA;
  if (mode == TK_BLEND_SCREEN) {
    if (rgba)
      s[3] = screenAlpha(lumaRGB(s[0], s[1], s[2]) / 255, a);
    else
      s[0] = screenLuma(p, s, &s[3]);
    return;
  }
  if (mode == TK_BLEND_MULTIPLY) {
    float a2;
    if (rgba) {
      a2 = multiplyAlpha(lumaRGB(s[0], s[1], s[2]) / 255, a);
    } else {
      a2 = multiplyAlpha((s[0] - p->space[0][3] * a) * lumaScale(p), a);
    }
    for (int i = 0; i < 3; i++) s[i] = p->space[i][3] * a2;
    s[3] = a2;
    return;
  }
  if (mode == TK_BLEND_LIGHTEN || mode == TK_BLEND_DARKEN) {
    float l = rgba ? lumaRGB(s[0], s[1], s[2]) : s[0];
    float d = l - a * frameLuma(p, fx, fy);
    if (mode == TK_BLEND_DARKEN) d = -d;
    if (!(d > 0)) {
      s[0] = s[1] = s[2] = s[3] = 0;
      return;
    }
    float w = TK_PICK_RAMP / lumaScale(p);
    float k = d / (a * w);
    if (k < 1)
      for (int i = 0; i < 4; i++) s[i] *= k;
    return;
  }
  for (int i = 0; i < 3; i++) s[i] -= p->space[i][3] * a;
  s[3] = TK_MIN_ALPHA;
}

__device__ void overRGBA(const TkParams* p, int fx, int fy, const float s[4]) {
  float a = s[3];
  if (a == 0) return;
  uint8_t* d = (uint8_t*)p->plane0 + (size_t)fy * p->stride0 + 4 * (size_t)fx;
  d[0] = blend(d[0], s[0], a);
  d[1] = blend(d[1], s[1], a);
  d[2] = blend(d[2], s[2], a);
  d[3] = blend(d[3], a * 255, a);
}

// screenSample is composite's sampleFormat.screenAt: the sample v at d under offset-free luma
// t with alpha a2 becomes (t + v) + a2·(o0 − v), rounded and saturated as blend's.
__device__ void screenSample(const TkParams* p, uint8_t* d, float t, float a2) {
  float o0 = p->space[0][3];
  if (sampleSize(p->format) == 1) {
    float v = *d;
    *d = (uint8_t)gmin(gmax((t + v) + a2 * (o0 - v) + 0.5f, 0), 255);
    return;
  }
  int shift = p->format == TK_P010 ? 6 : 0;
  uint16_t* w = (uint16_t*)d;
  float v = (float)(*w >> shift);
  *w = (uint16_t)((unsigned)gmin(gmax((t + v) + a2 * (o0 - v) + 0.5f, 0), 1023) << shift);
}

// overLuma blends the pixel's layer value s (after blendPixel in mode) onto its luma sample.
__device__ void overLuma(const TkParams* p, int mode, int fx, int fy, const float s[4]) {
  float a = s[3];
  if (a == 0) return;
  uint8_t* d = (uint8_t*)p->plane0 + (size_t)fy * p->stride0 + (size_t)sampleSize(p->format) * fx;
  if (mode == TK_BLEND_SCREEN)
    screenSample(p, d, s[0], a);
  else
    blendSample(p, d, s[0], a);
}

// overChroma blends the mean of the block's pixels onto the chroma sample (cx, cy): q holds
// the pixels (row 0 col 0, row 0 col 1, row 1 col 0, row 1 col 1), those outside the frame
// zero, after blendPixel in mode, and a0 their alphas before it; n is how many lie inside (4, or 2
// or 1 at an odd edge). The sums are in composite's order, (top left + bottom left) + (top
// right + bottom right), so the rounding is the same; for screen Cb and Cr take o·(Σα′ −
// Σα), as composite's chromaRow.
__device__ void overChroma(const TkParams* p, int mode, int cx, int cy, const float q[4][4], const float a0[4], int n) {
  float a = (q[0][3] + q[2][3]) + (q[1][3] + q[3][3]);
  if (a == 0) return;
  float mean = 1 / (float)n;
  float cb = (q[0][1] + q[2][1]) + (q[1][1] + q[3][1]);
  float cr = (q[0][2] + q[2][2]) + (q[1][2] + q[3][2]);
  if (mode == TK_BLEND_SCREEN) {
    float d = a - ((a0[0] + a0[2]) + (a0[1] + a0[3]));
    cb += p->space[1][3] * d;
    cr += p->space[2][3] * d;
  }
  cb *= mean;
  cr *= mean;
  a = a * mean;
  size_t size = sampleSize(p->format);
  uint8_t *u, *v;
  if (p->format == TK_NV12 || p->format == TK_P010) {
    u = (uint8_t*)p->plane1 + (size_t)cy * p->stride1 + 2 * size * cx;
    v = u + size;
  } else {
    u = (uint8_t*)p->plane1 + (size_t)cy * p->stride1 + size * cx;
    v = (uint8_t*)p->plane2 + (size_t)cy * p->stride2 + size * cx;
  }
  blendSample(p, u, cb, a);
  blendSample(p, v, cr, a);
}

// compositeTile composites this block's tile of the layer onto the frame in mode and clears
// it behind itself. Each pixel is scaled by fade first (the layer at that opacity: composite's
// Tile.Fade).
__device__ void compositeTile(const TkParams* p, int mode, float fade) {
  int ox = blockIdx.x * TK_TILE, oy = blockIdx.y * TK_TILE;
  int w = p->width - ox < TK_TILE ? p->width - ox : TK_TILE;
  int h = p->height - oy < TK_TILE ? p->height - oy : TK_TILE;
  int x0 = 2 * threadIdx.x;
  if (x0 >= w) return;
  Half4* layer = (Half4*)p->layer;
  size_t pitch = (size_t)p->tilesX * TK_TILE;
  for (int y0 = 2 * threadIdx.y; y0 < h; y0 += 2 * TK_COMP_Y) {
    // q: the 2 × 2 block; pixels beyond the frame's edge read as zero, as the CPU's tile.
    float q[4][4] = {}, a0[4] = {};
    for (int i = 0; i < 4; i++) {
      int x = x0 + (i & 1), y = y0 + (i >> 1);
      if (x >= w || y >= h) continue;
      size_t li = (size_t)(oy + y) * pitch + ox + x;
      loadPx(layer, li, q[i]);
      if (q[i][0] == 0 && q[i][1] == 0 && q[i][2] == 0 && q[i][3] == 0) continue;
      if (fade != 1)
        for (int c = 0; c < 4; c++) q[i][c] *= fade;
      a0[i] = q[i][3];
      blendPixel(p, mode, ox + x, oy + y, q[i]);
      if (p->format == TK_RGBA)
        overRGBA(p, ox + x, oy + y, q[i]);
      else
        overLuma(p, mode, ox + x, oy + y, q[i]);
      layer[li] = Half4{};
    }
    if (p->format != TK_RGBA) {
      int rows = h - y0 < 2 ? h - y0 : 2, cols = w - x0 < 2 ? w - x0 : 2;
      overChroma(p, mode, (ox + x0) / 2, (oy + y0) / 2, q, a0, rows * cols);
    }
  }
}

// tileDrawn reports whether the stages before the labels may have drawn this block's tile:
// a list reaches it, or echoes (which may reach any tile) are on.
__device__ bool tileDrawn(const TkParams* p) {
  return tileHasWork(p, blockIdx.y * p->tilesX + blockIdx.x) || p->echoFrames != 0;
}

// splitLabels reports whether the labels are composited apart from the rest of the layer:
// with a blend mode other than over, or a master opacity below 1 (render.drawTile's rule).
__device__ bool splitLabels(const TkParams* p) { return p->blend != TK_BLEND_OVER || p->transparency > 0; }

// tk_composite_blended composites the layer as the stages before the labels left it, in
// the blend mode (added, screened, multiplied, lightened or darkened) and faded by the
// master opacity; with over at opacity 1 it does nothing (tk_composite composites the whole
// layer, labels and all). Labels are text to be read, so they are composited over, after it
// (render.drawTile's twin).
TK_KERNEL void tk_composite_blended(const TkParams* p) {
  if (overflowed(p) || !splitLabels(p) || !tileDrawn(p)) return;
  compositeTile(p, p->blend, 1 - p->transparency);
}

// tk_composite composites the layer over the frame: all of it with over, only the tiles
// that labels reach (drawn after tk_composite_blended) with another mode.
TK_KERNEL void tk_composite(const TkParams* p) {
  if (overflowed(p)) return;
  if (!splitLabels(p)) {
    if (!tileDrawn(p)) return;
  } else {
    int lo, hi;
    binRange(p, TK_LABELS, blockIdx.y * p->tilesX + blockIdx.x, &lo, &hi);
    if (lo == hi) return;
  }
  compositeTile(p, TK_BLEND_OVER, 1);
}
