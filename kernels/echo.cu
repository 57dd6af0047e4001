// echo.cu: the echo trails' kept layers (overlay.EchoPass), after the curves; the twin of
// render/echo.go. Each frame stores its layer (boxes, lines, curves) in ring slot echoCur of
// echoLayers (echoRing slots of 4 bytes a pixel, channel-interleaved, rows of tilesX·64
// pixels), and lays the kept layers of the echoFilled frames before under it, the newest
// first: echo k sampled bilinearly where T^k (scale echoScale^k about the frame's centre,
// then move k·echoOffset) takes the pixel's centre, at echoDecay^k of its opacity. With
// echoKeep the frame only stores its layer and clears it (a segment's frames before its
// first), so the composite after it draws nothing.
//
// Grid: one block per tile; block: TK_BLOCK_X × TK_BLOCK_Y, as tile.cuh's. Every tile is
// stored, drawn or not (an undrawn pixel stores zero), so a slot is the whole frame's layer;
// the CPU keeps only what was drawn, and reads zero elsewhere, which is the same.
#include "tile.cuh"

// echoCodeMax is render's: 1023 for 10-bit Y'CbCr (chroma offset 512), else 255.
__device__ __forceinline__ float echoCodeMax(const TkParams* p) { return p->space[1][3] > 256 ? 1023.0f : 255.0f; }

// echoByte is render's quantize for one value: v·scale to the nearest byte, saturated.
__device__ __forceinline__ uint8_t echoByte(float v, float scale) {
  float q = v * scale + 0.5f;
  return (uint8_t)gmin(gmax(q, 0), 255);
}

// echoTap reads pixel (x, y) of a kept layer into q; false (q zero) outside the frame or
// where the layer is zero.
__device__ __forceinline__ bool echoTap(const TkParams* p, const uint8_t* slot, int x, int y, float q[4]) {
  for (int c = 0; c < 4; c++) q[c] = 0;
  if (x < 0 || y < 0 || x >= p->width || y >= p->height) return false;
  const uint8_t* s = slot + 4 * ((size_t)y * p->tilesX * TK_TILE + x);
  for (int c = 0; c < 4; c++) q[c] = (float)s[c];
  return s[0] != 0 || s[1] != 0 || s[2] != 0 || s[3] != 0;
}

TK_KERNEL void tk_echo(const TkParams* p) {
  if (p->echoFrames == 0 || overflowed(p)) return;
  TilePixels t = tilePixels(p);
  if (t.x >= t.w) return;
  float codeMax = echoCodeMax(p);
  float toByte[4], fromByte[4];
  for (int c = 0; c < 3; c++) {
    toByte[c] = 255 / codeMax;
    fromByte[c] = codeMax / 255;
  }
  toByte[3] = 255;
  fromByte[3] = 1 / 255.0f;
  size_t slotSize = 4 * (size_t)p->tilesX * TK_TILE * p->tilesY * TK_TILE;
  uint8_t* layers = (uint8_t*)p->echoLayers;
  uint8_t* cur = layers + (size_t)p->echoCur * slotSize;
  Half4* layer = (Half4*)p->layer;
  float cx = (float)p->width / 2, cy = (float)p->height / 2;
  for (int j = 0; j < TK_ROWS; j++) {
    int y = rowOf(j);
    if (y >= t.h) break;
    size_t li = t.base + j * t.rowStep;
    float acc[4];
    loadPx(layer, li, acc);
    for (int c = 0; c < 4; c++) cur[4 * li + c] = echoByte(acc[c], toByte[c]);
    bool own = acc[0] != 0 || acc[1] != 0 || acc[2] != 0 || acc[3] != 0;
    if (p->echoKeep) {
      if (own) layer[li] = Half4{};
      continue;
    }
    bool dirty = false;
    float decay = 1, scale = 1;
    for (int k = 1; k <= p->echoFilled; k++) {
      decay = decay * p->echoDecay;
      scale = scale * p->echoScale;
      const uint8_t* slot = layers + (size_t)((p->echoCur - k + p->echoRing) % p->echoRing) * slotSize;
      float inv = 1 / scale;
      float dx = (float)k * p->echoOffset[0], dy = (float)k * p->echoOffset[1];
      float py = (float)(t.oy + y) + 0.5f, px = (float)(t.ox + t.x) + 0.5f;
      float sy = (cy + ((py - cy) - dy) * inv) - 0.5f;
      float sx = (cx + ((px - cx) - dx) * inv) - 0.5f;
      if (!(sy > -1 && sy < (float)p->height) || !(sx > -1 && sx < (float)p->width)) continue;
      float fly = floorf(sy), flx = floorf(sx);
      int iy = (int)fly, ix = (int)flx;
      float fy = sy - fly, fx = sx - flx;
      float q[4][4];
      bool any = false;
      for (int n = 0; n < 4; n++) any = echoTap(p, slot, ix + (n & 1), iy + (n >> 1), q[n]) || any;
      if (!any) continue;
      float gx = 1 - fx, gy = 1 - fy;
      float kk = 1 - acc[3];
      for (int c = 0; c < 4; c++) {
        float top = q[0][c] * gx + q[1][c] * fx;
        float bot = q[2][c] * gx + q[3][c] * fx;
        float v = top * gy + bot * fy;
        float e = v * (decay * fromByte[c]);
        acc[c] = acc[c] + e * kk;
      }
      dirty = true;
    }
    if (dirty) storePx(layer, li, acc);
  }
}
