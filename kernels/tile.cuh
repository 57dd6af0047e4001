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
