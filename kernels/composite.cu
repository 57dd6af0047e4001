// composite.cu: blend the layer onto the frame in place and clear the layer behind it; the
// twin of package composite's Over for RGBA, YUV420P and NV12 frames, with the same 16.16
// fixed-point blend, so the device writes the CPU's bytes from the same layer values.
//
// Grid: one block per tile. Block: 32 × 4 threads; thread (x, y) owns the 2 × 2 pixel
// blocks at columns 2x, 2x+1 and rows 2r, 2r+1 for r = y, y+4, ..., so it alone reads the
// four pixels behind each chroma sample, blends them, and zeroes them: no barrier, and the
// layer is zero again for the next frame wherever a tile had work (other tiles were never
// written). A tile that no list reaches is skipped whole.
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

// blend16 is composite's blend16: dst·(1 − α) + add, rounded and saturated, in 16.16.
__device__ __forceinline__ uint8_t blend16(uint8_t dst, int32_t alpha, int32_t add) {
  int32_t v = ((int32_t)dst * (65536 - alpha) + add + 32768) >> 16;
  return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// toByte is composite's toByte: round to the nearest byte, saturating.
__device__ __forceinline__ uint8_t toByte(float v) { return (uint8_t)gmin(gmax(v + 0.5f, 0), 255); }

__device__ void overRGBA(const TkParams* p, int fx, int fy, const float s[4]) {
  float a = s[3];
  if (a == 0) return;
  uint8_t* d = (uint8_t*)p->plane0 + (size_t)fy * p->stride0 + 4 * (size_t)fx;
  float k = 1 - a;
  d[0] = toByte(s[0] * 255 + (float)d[0] * k);
  d[1] = toByte(s[1] * 255 + (float)d[1] * k);
  d[2] = toByte(s[2] * 255 + (float)d[2] * k);
  d[3] = toByte(a * 255 + (float)d[3] * k);
}

__device__ void overLuma(const TkParams* p, int fx, int fy, const float s[4]) {
  float a = s[3];
  if (a == 0) return;
  uint8_t* d = (uint8_t*)p->plane0 + (size_t)fy * p->stride0 + fx;
  *d = blend16(*d, (int32_t)(a * 65536), (int32_t)(a * p->yOff + p->yR * s[0] + p->yG * s[1] + p->yB * s[2]));
}

// overChroma blends the mean of the block's pixels onto the chroma sample (cx, cy): q holds
// the pixels (row 0 col 0, row 0 col 1, row 1 col 0, row 1 col 1), rows is 1 at an odd
// bottom edge (row 1 is then zero) and lone marks the single column at an odd right edge.
// The sums are in composite's order, so the rounding is the same.
__device__ void overChroma(const TkParams* p, int cx, int cy, const float q[4][4], float rows, bool lone) {
  float r, g, b, a;
  if (!lone) {
    a = q[0][3] + q[1][3] + q[2][3] + q[3][3];
    if (a == 0) return;
    r = q[0][0] + q[1][0] + q[2][0] + q[3][0];
    g = q[0][1] + q[1][1] + q[2][1] + q[3][1];
    b = q[0][2] + q[1][2] + q[2][2] + q[3][2];
    float mean = 1 / (2 * rows);
    r = r * mean;
    g = g * mean;
    b = b * mean;
    a = a * mean;
  } else {
    a = q[0][3] + q[2][3];
    if (a == 0) return;
    float mean = 1 / rows;
    r = q[0][0] * mean + q[2][0] * mean;
    g = q[0][1] * mean + q[2][1] * mean;
    b = q[0][2] * mean + q[2][2] * mean;
    a = a * mean;
  }
  uint8_t *u, *v;
  if (p->format == TK_NV12) {
    u = (uint8_t*)p->plane1 + (size_t)cy * p->stride1 + 2 * (size_t)cx;
    v = u + 1;
  } else {
    u = (uint8_t*)p->plane1 + (size_t)cy * p->stride1 + cx;
    v = (uint8_t*)p->plane2 + (size_t)cy * p->stride2 + cx;
  }
  int32_t ia = (int32_t)(a * 65536);
  *u = blend16(*u, ia, (int32_t)(a * (128 * 65536.0f) + p->cbR * r + p->cbG * g + p->cbB * b));
  *v = blend16(*v, ia, (int32_t)(a * (128 * 65536.0f) + p->crR * r + p->crG * g + p->crB * b));
}

TK_KERNEL void tk_composite(const TkParams* p) {
  if (overflowed(p)) return;
  int tile = blockIdx.y * p->tilesX + blockIdx.x;
  if (!tileHasWork(p, tile)) return;
  int ox = blockIdx.x * TK_TILE, oy = blockIdx.y * TK_TILE;
  int w = p->width - ox < TK_TILE ? p->width - ox : TK_TILE;
  int h = p->height - oy < TK_TILE ? p->height - oy : TK_TILE;
  int x0 = 2 * threadIdx.x;
  if (x0 >= w) return;
  Half4* layer = (Half4*)p->layer;
  size_t pitch = (size_t)p->tilesX * TK_TILE;
  for (int y0 = 2 * threadIdx.y; y0 < h; y0 += 2 * TK_COMP_Y) {
    // q: the 2 × 2 block; pixels beyond the frame's edge read as zero, as the CPU's tile.
    float q[4][4] = {};
    for (int i = 0; i < 4; i++) {
      int x = x0 + (i & 1), y = y0 + (i >> 1);
      if (x >= w || y >= h) continue;
      size_t li = (size_t)(oy + y) * pitch + ox + x;
      loadPx(layer, li, q[i]);
      if (q[i][0] == 0 && q[i][1] == 0 && q[i][2] == 0 && q[i][3] == 0) continue;
      if (p->format == TK_RGBA)
        overRGBA(p, ox + x, oy + y, q[i]);
      else
        overLuma(p, ox + x, oy + y, q[i]);
      layer[li] = Half4{};
    }
    if (p->format != TK_RGBA) {
      overChroma(p, (ox + x0) / 2, (oy + y0) / 2, q, (float)(h - y0 < 2 ? h - y0 : 2), x0 + 1 >= w);
    }
  }
}
