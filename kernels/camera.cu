// camera.cu: the camera look over the whole frame after the composite; the twin of
// render/camera.go (whose comment gives the integer rule each sample follows, and
// overlay/camera.go what the look is). tk_camera_copy copies the frame as composited;
// tk_camera then writes each sample from the copy (the aberration reads samples to the
// side, which other threads write). The gains come from the host (the CPU's own tables),
// and every operation is on integers, so the samples are the CPU's.
//
// Grid: one block per tile, as tk_effects: thread (x, y) owns the 2 × 2 pixel blocks at
// columns 2x, 2x+1 and rows 2r, 2r+1 for r = y, y+4, ..., and the chroma sample behind each.

TK_KERNEL void tk_camera_copy(const TkParams* p) {
  const TkCamera* c = (const TkCamera*)p->camera;
  // After an overflow the host runs the frame again: the frame must not change twice.
  if (!c || overflowed(p)) return;
  fxCopy(c->copies);
}

// grainHash is overlay.GrainHash: Wellons' lowbias32.
__device__ __forceinline__ uint32_t grainHash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// camLuma is overlay.CameraLuma: BT.709 luma of R'G'B' codes in Q15.
__device__ __forceinline__ int32_t camLuma(int32_t r, int32_t g, int32_t b) {
  return (6967 * r + 23436 * g + 2365 * b + (1 << 14)) >> 15;
}

// grainNoise is overlay.GrainNoise: the noise of amplitude amp from hash input z.
__device__ __forceinline__ int32_t grainNoise(uint32_t z, int32_t amp) {
  return (((int32_t)(grainHash(z) & 0xff) - 128) * amp) >> 8;
}

// camChromaRGB is overlay.ColorGrainRGB: what component k of an R'G'B' pixel gains from the
// chroma noises nb and nr.
__device__ __forceinline__ int32_t camChromaRGB(int k, int32_t nb, int32_t nr) {
  if (k == 0) return (51603 * nr + (1 << 14)) >> 15;
  if (k == 1) return (-6138 * nb - 15339 * nr + (1 << 14)) >> 15;
  return (60804 * nb + (1 << 14)) >> 15;
}

// camTint is overlay.CameraTintSample, clamped to 0..hi.
__device__ __forceinline__ int32_t camTint(int32_t v, int32_t l, int32_t c, int32_t b, int32_t keep,
                                           int32_t move, int32_t hi) {
  v = c + (((v - c) * keep + (l - b) * move + (1 << 14)) >> 15);
  return v < 0 ? 0 : (v > hi ? hi : v);
}

// camSample writes the camera's sample (x, y) of plane k: gain (cols[x]·rows[y], at the
// pixel (gx, gy)), shift and, with grain, the noise of sample (x, y); with colour grain,
// chroma's noise of its own key (R'G'B': both chroma noises through camChromaRGB). The tint is on the
// sample read (chroma and R'G'B', from the copy's luma at the sample read) or in Y''s gain.
__device__ void camSample(const TkCamera* c, int k, int x, int y, int gx, int gy, bool grain) {
  const TkFxPlane& pl = c->planes[k];
  const int32_t* cols = (const int32_t*)c->cols;
  const int32_t* rows = (const int32_t*)c->rows;
  int32_t col = cols[gx];
  if (c->tint && k == 0 && !c->rgb) col = (col * c->luma + (1 << 14)) >> 15;
  int32_t kx = (col * rows[gy] + (1 << 14)) >> 15;
  int32_t base = (int32_t)pl.black;
  int32_t xs = x + c->shift[k];
  xs = xs < 0 ? 0 : (xs >= pl.w ? pl.w - 1 : xs);
  int32_t s = fxAt(pl, xs, y);
  if (c->tint && (k > 0 || c->rgb)) {
    if (c->rgb) {
      int32_t l = camLuma(fxAt(c->planes[0], xs, y), fxAt(c->planes[1], xs, y), fxAt(c->planes[2], xs, y));
      s = camTint(s, l, 0, 0, c->keep, c->move[k], (int32_t)pl.max);
    } else {
      const TkFxPlane& luma = c->planes[0];
      s = camTint(s, fxAt(luma, xs * pl.sub, y * pl.sub), base, (int32_t)luma.black, c->keep, c->move[k],
                  (int32_t)pl.max);
    }
  }
  int32_t v = base + (((s - base) * kx) >> 15);
  uint32_t z = (uint32_t)y * 0x9e3779b9u + (uint32_t)x;
  if (grain) v += grainNoise(c->key + z, c->amp);
  if (c->ampC) {
    if (c->rgb)
      v += camChromaRGB(k, grainNoise(c->keyC[0] + z, c->ampC), grainNoise(c->keyC[1] + z, c->ampC));
    else if (k > 0)
      v += grainNoise(c->keyC[k - 1] + z, c->ampC);
  }
  int32_t hi = (int32_t)pl.max;
  v = v < 0 ? 0 : (v > hi ? hi : v);
  uint8_t* d = (uint8_t*)pl.frame + (size_t)y * pl.stride + (size_t)x * pl.step;
  if (pl.wide)
    *(uint16_t*)d = (uint16_t)((unsigned)v << pl.shift);
  else
    *d = (uint8_t)v;
}

TK_KERNEL void tk_camera(const TkParams* p) {
  const TkCamera* c = (const TkCamera*)p->camera;
  if (!c || overflowed(p)) return;
  int ox = blockIdx.x * TK_TILE, oy = blockIdx.y * TK_TILE;
  int w = p->width, h = p->height;
  int tw = w - ox < TK_TILE ? w - ox : TK_TILE, th = h - oy < TK_TILE ? h - oy : TK_TILE;
  int bx = 2 * threadIdx.x;
  if (bx >= tw) return;
  bool grain = c->amp != 0;
  for (int by = 2 * threadIdx.y; by < th; by += 2 * TK_FXC_Y) {
    int x0 = ox + bx, y0 = oy + by;
    for (int q = 0; q < 4; q++) {
      int x = x0 + (q & 1), y = y0 + (q >> 1);
      if (x >= w || y >= h) continue;
      camSample(c, 0, x, y, x, y, grain);
      if (c->rgb) {
        camSample(c, 1, x, y, x, y, grain);
        camSample(c, 2, x, y, x, y, grain);
      }
    }
    if (c->rgb) continue;
    for (int k = 1; k < 3; k++) camSample(c, k, x0 / 2, y0 / 2, x0, y0, false);
  }
}
