// geometry.cuh: the distance and coverage functions of packages sdf and render, written for
// the kernels. Each function repeats its Go twin's float32 operations in the same order, so
// that the emulated device (which compiles with -ffp-contract=off) and the GPU (nvcc
// -fmad=false, build.sh) compute the same coverage bit for bit.
#ifndef TRACKINK_GEOMETRY_CUH
#define TRACKINK_GEOMETRY_CUH

#include "cuda_compat.h"
#include "layout.h"

// Go's min and max for floats return NaN when either argument is NaN.
__device__ __forceinline__ float gmin(float a, float b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }
__device__ __forceinline__ float gmax(float a, float b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }

// sdf.Coverage.
__device__ __forceinline__ float coverage(float d) {
  float c = 0.5f - d;
  if (c <= 0) return 0;
  if (c >= 1) return 1;
  return c;
}

// sdf.Stroke and sdf.ThinScale.
__device__ __forceinline__ float stroke(float dist, float w) { return dist - gmax(w, 1) * 0.5f; }
__device__ __forceinline__ float thinScale(float w) { return gmin(w, 1); }

// render.reach: how far from its centre line a stroke of width w covers pixels.
__device__ __forceinline__ float reach(float w) { return gmax(w, 1) / 2 + 0.5f; }

// sdf.Seg: a segment prepared for many distance queries.
struct Seg {
  float ax, ay, dx, dy, invL2;
};

__device__ __forceinline__ Seg newSeg(float ax, float ay, float bx, float by) {
  Seg s;
  s.ax = ax;
  s.ay = ay;
  s.dx = bx - ax;
  s.dy = by - ay;
  float l2 = s.dx * s.dx + s.dy * s.dy;
  s.invL2 = l2 > 0 ? 1 / l2 : 0;
  return s;
}

__device__ __forceinline__ float segDist2(const Seg& s, float px, float py) {
  float qx = px - s.ax, qy = py - s.ay;
  float t = gmin(gmax((qx * s.dx + qy * s.dy) * s.invL2, 0), 1);
  float ex = qx - t * s.dx, ey = qy - t * s.dy;
  return ex * ex + ey * ey;
}

// sdf.RoundBox.
__device__ __forceinline__ float roundBox(float px, float py, float cx, float cy, float hx, float hy, float r) {
  float qx = fabsf(px - cx) - hx + r;
  float qy = fabsf(py - cy) - hy + r;
  float ox = gmax(qx, 0), oy = gmax(qy, 0);
  return sqrtf(ox * ox + oy * oy) + gmin(gmax(qx, qy), 0) - r;
}

// inRange reports whether integer pixel x of a tile has its centre in [lo, hi] (tile-local
// coordinates): render.pixelRange's test, ceil(lo − 0.5) ≤ x ≤ floor(hi − 0.5), which for
// integer x is exactly lo ≤ x + 0.5 ≤ hi (x + 0.5 is exact in float32).
__device__ __forceinline__ bool inRange(int x, float lo, float hi) {
  float c = (float)x + 0.5f;
  return c >= lo && c <= hi;
}

// render.bandX: the x extent of the segment clipped to the band y0b ≤ y ≤ y1b.
__device__ __forceinline__ bool bandX(float x0, float y0, float x1, float y1, float y0b, float y1b, float* lo,
                                      float* hi) {
  float dy = y1 - y0;
  float t0 = 0, t1 = 1;
  if (dy == 0) {
    if (y0 < y0b || y0 > y1b) return false;
  } else {
    float ta = (y0b - y0) / dy, tb = (y1b - y0) / dy;
    if (ta > tb) {
      float s = ta;
      ta = tb;
      tb = s;
    }
    t0 = gmax(t0, ta);
    t1 = gmin(t1, tb);
    if (t0 > t1) return false;
  }
  float xa = x0 + (x1 - x0) * t0, xb = x0 + (x1 - x0) * t1;
  *lo = gmin(xa, xb);
  *hi = gmax(xa, xb);
  return true;
}

// segmentInReach is render's segmentRows and segmentSpan test for one pixel: is pixel
// (x, y) of the tile at (ox, oy) within the rows and the row span that the CPU visits for a
// segment of reach r? Pixels outside have zero coverage up to float rounding; testing them
// the same way makes the emulated device match the CPU exactly.
__device__ __forceinline__ bool segmentInReach(float x0, float y0, float x1, float y1, float r, int ox, int oy, int x,
                                               int y) {
  float oyf = (float)oy, oxf = (float)ox;
  if (!inRange(y, gmin(y0, y1) - r - oyf, gmax(y0, y1) + r - oyf)) return false;
  float yc = (float)(oy + y) + 0.5f;
  float a, b;
  if (!bandX(x0, y0, x1, y1, yc - r, yc + r, &a, &b)) return false;
  return inRange(x, a - r - oxf, b + r - oxf);
}

// Layer access: FP16 premultiplied RGBA, four halves per pixel, rows of tilesX·64 pixels.
struct alignas(8) Half4 {
  __half v[4];
};

__device__ __forceinline__ void loadPx(const Half4* layer, size_t i, float px[4]) {
  Half4 h = layer[i];
  for (int c = 0; c < 4; c++) px[c] = __half2float(h.v[c]);
}

__device__ __forceinline__ void storePx(Half4* layer, size_t i, const float px[4]) {
  Half4 h;
  for (int c = 0; c < 4; c++) h.v[c] = __float2half_rn(px[c]);
  layer[i] = h;
}

// render.over: blend premultiplied colour c with coverage cov onto pixel px.
__device__ __forceinline__ void over(float px[4], const float c[4], float cov) {
  float a = c[3] * cov;
  float k = 1 - a;
  px[0] = c[0] * cov + px[0] * k;
  px[1] = c[1] * cov + px[1] * k;
  px[2] = c[2] * cov + px[2] * k;
  px[3] = a + px[3] * k;
}

// Tile t's list of kind k is items[start[t] : start[t+1]].
__device__ __forceinline__ void binRange(const TkParams* p, int kind, int tile, int* lo, int* hi) {
  const int32_t* start = (const int32_t*)p->binStart[kind];
  *lo = start[tile];
  *hi = start[tile + 1];
}

__device__ __forceinline__ bool overflowed(const TkParams* p) { return (((const int32_t*)p->status)[0] & TK_OVERFLOW) != 0; }

// The pixels of a tile kernel's thread: column threadIdx.x, rows threadIdx.y + TK_BLOCK_Y·j.
struct TilePixels {
  int tile, ox, oy, w, h;  // tile index, origin in the frame, size (smaller at the frame's edges)
  int x;                   // this thread's column
  size_t base;             // layer index of (x, row 0)
  size_t rowStep;          // layer index step between this thread's rows
};

__device__ __forceinline__ TilePixels tilePixels(const TkParams* p) {
  TilePixels t;
  t.tile = blockIdx.y * p->tilesX + blockIdx.x;
  t.ox = blockIdx.x * TK_TILE;
  t.oy = blockIdx.y * TK_TILE;
  t.w = p->width - t.ox < TK_TILE ? p->width - t.ox : TK_TILE;
  t.h = p->height - t.oy < TK_TILE ? p->height - t.oy : TK_TILE;
  t.x = threadIdx.x;
  size_t pitch = (size_t)p->tilesX * TK_TILE;
  t.base = (size_t)(t.oy + threadIdx.y) * pitch + t.ox + t.x;
  t.rowStep = pitch * TK_BLOCK_Y;
  return t;
}

// rowOf returns the tile row of this thread's j-th pixel.
__device__ __forceinline__ int rowOf(int j) { return threadIdx.y + TK_BLOCK_Y * j; }

#endif  // TRACKINK_GEOMETRY_CUH
