// tile.cuh: the frame of every per-tile drawing kernel (boxes, lines, curves, labels).
//
// Grid: one block per tile (tilesX × tilesY). Block: TK_BLOCK_X × TK_BLOCK_Y threads;
// thread (x, y) owns the TK_ROWS pixels of column x at rows y, y + TK_BLOCK_Y, ..., so
// neighbouring threads touch neighbouring pixels (coalesced 8-byte FP16 accesses) and no
// thread ever reads a pixel another thread writes: the kernels need no barriers. A thread
// loads its pixels into FP32 registers once, blends every primitive of the tile's list in
// paint order, and stores them back as FP16 only if it changed one, so each stage costs one
// FP16 read and at most one write per pixel of a tile that has work for it.
#ifndef TRACKINK_TILE_CUH
#define TRACKINK_TILE_CUH

#include "geometry.cuh"

// ---- the tile's pixels: the twins of render/tile.go -------------------------------------

// inRange reports whether integer pixel x of a tile has its centre in [lo, hi] (tile-local
// coordinates): sdf.Centers' test, ceil(lo − 0.5) ≤ x ≤ floor(hi − 0.5), which for
// integer x is exactly lo ≤ x + 0.5 ≤ hi (x + 0.5 is exact in float32).
__device__ __forceinline__ bool inRange(int x, float lo, float hi) {
  float c = (float)x + 0.5f;
  return c >= lo && c <= hi;
}

// segmentInReach is render's segmentRows and segmentSpan test (tile.go) for one pixel: is pixel
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

// layerColor is composite.Space.Color (render's toLayer): the premultiplied R'G'B'A colour c
// carried into the layer's space, each channel ((m0·r + m1·g) + m2·b) + m3·a, alpha as it is.
// The kernels convert a primitive's colours once per primitive and thread, never per pixel.
__device__ __forceinline__ void layerColor(const TkParams* p, const float c[4], float out[4]) {
  float v[4];
  for (int i = 0; i < 3; i++) {
    const float* m = p->space[i];
    v[i] = m[0] * c[0] + m[1] * c[1] + m[2] * c[2] + m[3] * c[3];
  }
  v[3] = c[3];
  for (int i = 0; i < 4; i++) out[i] = v[i];
}

// Layer access: FP16 premultiplied colours in the layer's space (the frame's three
// components in code values, then alpha), four halves per pixel, rows of tilesX·64 pixels.
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

// render.over (tile.go): blend premultiplied colour c with coverage cov onto pixel px.
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

// ownerOf finds which of n ranges [start[i], start[i+1]) holds element e of a scanned
// array: the last i in [0, n) whose start is at or before e (empty ranges share their
// successor's start, so the last one is the one that holds e). The starts lie stride
// int32s apart: 1 for an array of them, more for a field of an array of records (the pixel
// sort's first lines).
__device__ __forceinline__ int ownerOf(const int32_t* start, int n, int e, int stride = 1) {
  int lo = 0, hi = n;  // answer in [lo, hi)
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (start[(size_t)mid * stride] <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
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

// ---- the frame of every per-tile kernel ------------------------------------------------


struct TileState {
  TilePixels t;
  int lo, hi;  // the tile's list for this kind: items[lo:hi]
  float px[TK_ROWS][4];
  bool dirty;
};

// beginTile loads the thread's pixels; it returns false when the thread has nothing to do.
__device__ __forceinline__ bool beginTile(const TkParams* p, int kind, TileState& s) {
  if (overflowed(p)) return false;
  s.t = tilePixels(p);
  binRange(p, kind, s.t.tile, &s.lo, &s.hi);
  if (s.lo == s.hi || s.t.x >= s.t.w) return false;
  const Half4* layer = (const Half4*)p->layer;
  for (int j = 0; j < TK_ROWS; j++) {
    if (rowOf(j) < s.t.h) loadPx(layer, s.t.base + j * s.t.rowStep, s.px[j]);
  }
  s.dirty = false;
  return true;
}

__device__ __forceinline__ void endTile(const TkParams* p, TileState& s) {
  if (!s.dirty) return;
  Half4* layer = (Half4*)p->layer;
  for (int j = 0; j < TK_ROWS; j++) {
    if (rowOf(j) < s.t.h) storePx(layer, s.t.base + j * s.t.rowStep, s.px[j]);
  }
}

__device__ __forceinline__ const int32_t* items(const TkParams* p, int kind) { return (const int32_t*)p->binItems[kind]; }

#endif  // TRACKINK_TILE_CUH
