// effects.cu: the box effects on the frame before the overlay is drawn; the twin of
// render/effects.go (whose comment says what each effect does); they run after binning,
// and not at all when a bin list overflowed. tk_effects_copy copies the frame as decoded;
// tk_effects_gauss_weights and tk_effects_gauss lay out the Gaussian boxes' weights and
// sum their columns from the copy (the first of its two separable passes); tk_effects_sort
// sorts the pixel-sort boxes' lines of the copy, a thread a line; tk_effects then gives each
// pixel, for every box in order, the box's effect computed from the copy, mixed in by the
// box fill's coverage. The CPU computes the same sums (exact integers) and the same float
// operations in the same order, so the samples are the same.
//
// Grid: one block per tile, as tk_composite: 32 × 4 threads, thread (x, y) owning the 2 × 2
// pixel blocks at columns 2x, 2x+1 and rows 2r, 2r+1 for r = y, y+4, ..., and the chroma
// sample behind each: no thread reads a sample another writes but from the copy.
#include "effects.h"
#include "tile.cuh"

#define TK_FXC_X 32
#define TK_FXC_Y 4

// fxCopy copies the byte ranges copies[0..2], a byte per thread and step (a tile grid of
// TK_FXC_X × TK_FXC_Y blocks).
__device__ void fxCopy(const TkFxCopy copies[3]) {
  size_t threads = (size_t)gridDim.x * gridDim.y * TK_FXC_X * TK_FXC_Y;
  size_t t = ((size_t)(blockIdx.y * gridDim.x + blockIdx.x) * TK_FXC_Y + threadIdx.y) * TK_FXC_X + threadIdx.x;
  for (int k = 0; k < 3; k++) {
    const TkFxCopy& c = copies[k];
    const uint8_t* from = (const uint8_t*)c.from;
    uint8_t* to = (uint8_t*)c.to;
    for (size_t i = t; i < (size_t)c.bytes; i += threads) to[i] = from[i];
  }
}

// tk_effects_copy copies the frame's planes.
TK_KERNEL void tk_effects_copy(const TkParams* p) {
  const TkEffects* e = (const TkEffects*)p->effects;
  // After an overflow the host runs the frame again: a frame in device memory must not be
  // changed twice.
  if (!e || e->n == 0 || overflowed(p)) return;
  fxCopy(e->copies);
}

// fxAt is sample (x, y) of plane pl in the copy, the plane's edge repeated beyond it.
__device__ __forceinline__ int fxAt(const TkFxPlane& pl, int x, int y) {
  x = x < 0 ? 0 : (x >= pl.w ? pl.w - 1 : x);
  y = y < 0 ? 0 : (y >= pl.h ? pl.h - 1 : y);
  const uint8_t* d = (const uint8_t*)pl.src + (size_t)y * pl.stride + (size_t)x * pl.step;
  if (pl.wide) return *(const uint16_t*)d >> pl.shift;
  return *d;
}

__device__ __forceinline__ int floorDiv(int a, int b) {
  int q = a / b;
  if (a % b != 0 && a < 0) q--;
  return q;
}

// fxRadius and fxCell are render's: the blur radius and the pixelate cell in the plane.
__device__ __forceinline__ int fxRadius(float s, int sub) {
  int r = (int)(s + 0.5f);
  if (sub == 2) r = (r + 1) / 2;
  return r > 1 ? r : 1;
}
__device__ __forceinline__ int fxCell(float s, int sub) {
  int c = (int)(s + 0.5f) / sub;
  return c > 1 ? c : 1;
}

// The Gaussian blur (render/gauss.go says how): three box radii from sigma, their
// convolution's integer weights, and at each sample the weighted sum over the window
// clipped to the frame, over the weights inside it. TK_FX_GAUSS_SIGMA is render's
// gaussMaxSigma; TK_FX_GAUSS_TAPS holds the widest filter it allows (radii 49, 49, 50).
#define TK_FX_GAUSS_SIGMA 50.0
#define TK_FX_GAUSS_TAPS (2 * 150 + 1)

// fxGaussRadii is render's gaussRadii: products exact in double, so -fmad changes nothing.
__device__ void fxGaussRadii(float s, int sub, int r[3]) {
  double sg = (double)(s < 0 ? 0 : (s > TK_FX_GAUSS_SIGMA ? (float)TK_FX_GAUSS_SIGMA : s)) / (double)sub;
  int wl = (int)floor(sqrt(4 * sg * sg + 1));
  if (wl % 2 == 0) wl--;
  int m = (int)floor((12 * sg * sg - (double)(3 * wl * wl + 12 * wl + 9)) / (double)(-4 * wl - 4) + 0.5);
  for (int i = 0; i < 3; i++) r[i] = (wl - 1) / 2 + (i >= m ? 1 : 0);
}

// fxGaussWeights sets w[0 .. 2R] to the filter's integer weights for strength s in a plane
// of subsampling sub (the first box, then each of the others summed over it by prefix
// sums, p: scratch) and returns R, the radii's sum.
__device__ int fxGaussWeights(float s, int sub, int w[TK_FX_GAUSS_TAPS], int p[TK_FX_GAUSS_TAPS + 1]) {
  int rad[3];
  fxGaussRadii(s, sub, rad);
  int R = rad[0] + rad[1] + rad[2], n = 2 * R + 1;
  for (int i = 0; i < n; i++) w[i] = i - R >= -rad[0] && i - R <= rad[0] ? 1 : 0;
  for (int k = 1; k < 3; k++) {
    p[0] = 0;
    for (int i = 0; i < n; i++) p[i + 1] = p[i] + w[i];
    for (int i = 0; i < n; i++) {
      int a = i - rad[k] < 0 ? 0 : i - rad[k], b = i + rad[k] + 1 > n ? n : i + rad[k] + 1;
      w[i] = p[b] - p[a];
    }
  }
  return R;
}

// fxThread is this thread's index in a tile grid of TK_FXC_X × TK_FXC_Y blocks; fxThreads
// the grid's threads.
__device__ __forceinline__ size_t fxThread() {
  return ((size_t)(blockIdx.y * gridDim.x + blockIdx.x) * TK_FXC_Y + threadIdx.y) * TK_FXC_X + threadIdx.x;
}
__device__ __forceinline__ size_t fxThreads() { return (size_t)gridDim.x * gridDim.y * TK_FXC_X * TK_FXC_Y; }

// tk_effects_gauss_weights writes each Gaussian box's weights for each plane into its record
// (thread 3i + k: box i, plane k), once a frame, for the two passes to read.
TK_KERNEL void tk_effects_gauss_weights(const TkParams* p) {
  const TkEffects* e = (const TkEffects*)p->effects;
  if (!e || e->n == 0 || !e->gauss || overflowed(p)) return;
  size_t t = fxThread();
  if (t >= 3 * (size_t)e->n) return;
  const TkEffectBox& b = ((const TkEffectBox*)e->boxes)[t / 3];
  TkFxGauss* g = (TkFxGauss*)e->gauss + t;
  if (b.kind != TK_FX_GAUSSIAN || g->cols == 0) return;
  int pr[TK_FX_GAUSS_TAPS + 1];
  g->r = fxGaussWeights(b.strength, e->planes[t % 3].sub, (int*)g->weights, pr);
}

// tk_effects_gauss is the Gaussian's first pass, for every Gaussian box and plane: the
// weighted sum down each column of the copy, w(j)·s(x, y + j) over the rows inside the
// frame, at each sample the host's record (TkFxGauss) spans (kernels/gpu/effects.go's
// gaussRecords: the box's samples and more than the filter's reach beyond them each way).
// Every sum fits int32 (at most 1023 times the three widths' product, about 1.01e9 at sigma
// 50; render/gauss.go). With these, tk_effects sums along the row only: 2r + 1 taps a
// sample in each pass, not (2r + 1)².
TK_KERNEL void tk_effects_gauss(const TkParams* p) {
  const TkEffects* e = (const TkEffects*)p->effects;
  if (!e || e->n == 0 || !e->gauss || overflowed(p)) return;
  size_t threads = fxThreads(), t = fxThread();
  const TkEffectBox* boxes = (const TkEffectBox*)e->boxes;
  const TkFxGauss* gs = (const TkFxGauss*)e->gauss;
  for (int i = 0; i < e->n; i++) {
    if (boxes[i].kind != TK_FX_GAUSSIAN) continue;
    for (int k = 0; k < 3; k++) {
      const TkFxGauss& g = gs[3 * i + k];
      size_t cells = (size_t)g.cols * g.rows;
      if (t >= cells) continue;
      const TkFxPlane& pl = e->planes[k];
      const int32_t* w = (const int32_t*)g.weights;
      int R = g.r;
      int32_t* sums = (int32_t*)g.sums;
      for (size_t c = t; c < cells; c += threads) {
        int x = g.x0 + (int)(c % g.cols), y = g.y0 + (int)(c / g.cols);
        int y0 = y - R < 0 ? 0 : y - R, y1 = y + R > pl.h - 1 ? pl.h - 1 : y + R;
        int32_t sum = 0;
        for (int yy = y0; yy <= y1; yy++) sum += w[yy - y + R] * fxAt(pl, x, yy);
        sums[c] = sum;
      }
    }
  }
}

// fxGaussian is the Gaussian blur at sample (x, y) of plane pl, from the column sums g
// (tk_effects_gauss): the weighted sum of them along the row, over the weights inside the
// frame, with render's division.
__device__ float fxGaussian(const TkFxPlane& pl, const TkFxGauss& g, int x, int y) {
  const int32_t* w = (const int32_t*)g.weights;
  int R = g.r;
  int x0 = x - R < 0 ? 0 : x - R, x1 = x + R > pl.w - 1 ? pl.w - 1 : x + R;
  int y0 = y - R < 0 ? 0 : y - R, y1 = y + R > pl.h - 1 ? pl.h - 1 : y + R;
  const int32_t* row = (const int32_t*)g.sums + (size_t)(y - g.y0) * g.cols - g.x0;
  long long num = 0, dx = 0, dy = 0;
  for (int xx = x0; xx <= x1; xx++) {
    num += (long long)w[xx - x + R] * row[xx];
    dx += w[xx - x + R];
  }
  for (int yy = y0; yy <= y1; yy++) dy += w[yy - y + R];
  return (float)((double)num / (double)(dx * dy));
}

// fxLuma is render's: BT.709 luma of R'G'B' code values.
__device__ __forceinline__ float fxLuma(float r, float g, float b) {
  return 0.2126f * r + 0.7152f * g + 0.0722f * b;
}

__device__ void fxRect(const TkEffectBox& b, int w, int h, int r[4]);

// fxRGBChroma is render's rgbChroma: BT.709 Cb and Cr offsets of R'G'B' code values.
__device__ __forceinline__ void fxRGBChroma(float r, float g, float b, float* u, float* v) {
  float l = fxLuma(r, g, b);
  *u = (b - l) * 0.53890924f;  // 1/1.8556
  *v = (r - l) * 0.63500127f;  // 1/1.5748
}

// TK_HUE_FLOOR is render's hueFloor: the least saturation key at which a pixel has a hue
// (below it the hue is noise); TK_NO_HUE is render's noHue, the hue key of one without, out
// of every hue range.
#define TK_HUE_FLOOR 8
#define TK_NO_HUE 255

// fxChromaKey is render's chromaKey: the saturation or hue key of chroma offsets u, v.
__device__ int fxChromaKey(int key, float u, float v) {
  float s = sqrtf(u * u + v * v) * 2;
  int sat = s >= 255 ? 255 : (int)s;
  if (key == TK_SORT_SATURATION) return sat;
  if (sat < TK_HUE_FLOOR) return TK_NO_HUE;
  float x = v, y = -u;
  int base;
  float q;
  if (y >= 0 && x > 0) {
    base = 0;
    q = y / (x + y);
  } else if (x <= 0 && y > 0) {
    base = 1;
    q = -x / (y - x);
  } else if (y <= 0 && x < 0) {
    base = 2;
    q = -y / (-x - y);
  } else {
    base = 3;
    q = x / (x - y);
  }
  int k = base * 64 + (int)(q * 64);
  return k > TK_NO_HUE - 1 ? TK_NO_HUE - 1 : k;
}

// fxTurnKey is render's turnKey: key k turned by t round the hue circle of keys 0..254
// (subtracted, mod 255), TK_NO_HUE kept.
__device__ __forceinline__ int fxTurnKey(int k, int t) {
  if (k == TK_NO_HUE) return k;
  return k >= t ? k - t : k - t + TK_NO_HUE;
}

// fxSortKey is render's pixel-sort key (render/sort.go says what each is) of sample (x, y)
// of plane k, from the copy: of the pixel (x, y), or for 4:2:0 chroma of its block's
// top-left pixel. Luma: in 8-bit codes (10-bit >> 2; R'G'B': BT.709 luma, truncated).
__device__ int fxSortKey(const TkEffects* e, int key, int k, int x, int y) {
  int sub = e->planes[k].sub;
  x *= sub;
  y *= sub;
  if (key != TK_SORT_LUMA) {
    float u, v;
    if (e->rgb) {
      fxRGBChroma((float)fxAt(e->planes[0], x, y), (float)fxAt(e->planes[1], x, y), (float)fxAt(e->planes[2], x, y), &u, &v);
    } else {
      int sh = e->planes[1].wide ? 2 : 0;
      u = (float)((fxAt(e->planes[1], x >> 1, y >> 1) >> sh) - 128);
      v = (float)((fxAt(e->planes[2], x >> 1, y >> 1) >> sh) - 128);
    }
    return fxChromaKey(key, u, v);
  }
  if (e->rgb)
    return (int)fxLuma((float)fxAt(e->planes[0], x, y), (float)fxAt(e->planes[1], x, y), (float)fxAt(e->planes[2], x, y));
  int v = fxAt(e->planes[0], x, y);
  return e->planes[0].wide ? v >> 2 : v;
}

// fxSortRange is box b's key range [lo, hi] and the turn of its keys (render/sort.go:
// sortRange, hueTurn).
__device__ void fxSortRange(const TkEffects* e, const TkEffectBox& b, int* lo, int* hi, int* turn) {
  const TkFxPlane& luma = e->planes[0];
  float black = luma.black, white = luma.white;
  if (luma.wide) {
    black = black / 4;
    white = white / 4;
  }
  *lo = (int)(black + b.sortLo * (white - black) + 0.5f);
  *hi = (int)(black + b.sortHi * (white - black) + 0.5f);
  if (b.sortKey != TK_SORT_LUMA) {
    *lo = (int)(b.sortLo * 255 + 0.5f);
    *hi = (int)(b.sortHi * 255 + 0.5f);
  }
  // A hue range below TK_NO_HUE (greys are in none); one that wraps through red (low above
  // high): the keys turned by lo (fxTurnKey), so that the range lies from 0.
  *turn = 0;
  if (b.sortKey == TK_SORT_HUE && b.sortLo > b.sortHi) {
    *turn = *lo;
    *hi = *hi - *lo + TK_NO_HUE;
    *lo = 0;
  }
  if (b.sortKey == TK_SORT_HUE && *hi > TK_NO_HUE - 1) *hi = TK_NO_HUE - 1;
}

// TK_SORT_SHORT is the longest run placed by comparing each key with every other (n² steps
// of a register compare) rather than counted (the counters between its least and greatest
// key cleared and summed, which a short run of noisy keys spans widely).
#define TK_SORT_SHORT 16

// fxSortRun places run [s0, s1) of a line whose sample i lies at q0 + i (its keys and
// places at [i · lines]) stably sorted by key: the place of the sample of rank j is s0 + j
// (descending: of the run mirrored, s1 − 1 − j, equal keys taken from the end;
// render/sort.go's sortRuns). c: scratch for the counts of its keys.
__device__ void fxSortRun(const uint8_t* keys, int32_t* places, size_t lines, int q0, int s0, int s1, bool desc,
                          int c[256]) {
  int n = s1 - s0;
  if (n <= TK_SORT_SHORT) {
    uint8_t k[TK_SORT_SHORT];
    for (int m = 0; m < n; m++) k[m] = keys[(size_t)(desc ? s1 - 1 - m : s0 + m) * lines];
    for (int m = 0; m < n; m++) {
      int rank = 0;
      for (int j = 0; j < n; j++) rank += k[j] < k[m] || (k[j] == k[m] && j < m);
      places[(size_t)(desc ? s1 - 1 - rank : s0 + rank) * lines] = q0 + (desc ? s1 - 1 - m : s0 + m);
    }
    return;
  }
  int least = 255, most = 0;
  for (int i = s0; i < s1; i++) {
    int k = keys[(size_t)i * lines];
    least = k < least ? k : least;
    most = k > most ? k : most;
  }
  for (int k = least; k <= most; k++) c[k] = 0;
  for (int i = s0; i < s1; i++) c[keys[(size_t)i * lines]]++;
  for (int k = least, sum = 0; k <= most; k++) {
    int v = c[k];
    c[k] = sum;
    sum += v;
  }
  for (int m = 0; m < n; m++) {
    int i = desc ? s1 - 1 - m : s0 + m;
    int rank = c[keys[(size_t)i * lines]]++;
    places[(size_t)(desc ? s1 - 1 - rank : s0 + rank) * lines] = q0 + i;
  }
}

// tk_effects_sort is pixel sort's first step (render/sort.go's rule), for every line (row,
// or column for sortColumns) of every sort box's rectangle in each sampling (TkFxSort), a
// thread a line: the line's keys from the copy, once, and in each run of keys in the box's
// range [lo, hi] (one shorter than the box's shortest left as it is) the samples placed by
// a stable counting sort over the 8-bit keys. fxSort then reads each sample's source: each
// key is worked out once and read back a few times (the run's ends, its counts, its
// places), where fxSort worked out about ten times the run's length of keys for each
// sample (the key at its rank by bisection). Consecutive lines go to a warp's threads, and
// the warps round the blocks, so that a few thousand lines spread over every
// multiprocessor.
TK_KERNEL void tk_effects_sort(const TkParams* p) {
  const TkEffects* e = (const TkEffects*)p->effects;
  if (!e || e->n == 0 || !e->sort || overflowed(p)) return;
  size_t blocks = (size_t)gridDim.x * gridDim.y, block = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  size_t t = ((size_t)threadIdx.y * blocks + block) * TK_FXC_X + threadIdx.x;
  const TkEffectBox* boxes = (const TkEffectBox*)e->boxes;
  const TkFxSort* ss = (const TkFxSort*)e->sort;
  int c[256];
  for (size_t l = t; l < (size_t)e->sortLines; l += fxThreads()) {
    // The record that holds line l (records of no lines share the next one's first).
    static_assert(sizeof(TkFxSort) % sizeof(int32_t) == 0, "TkFxSort: a whole number of int32s");
    int r = ownerOf(&ss[0].first, 2 * e->n, (int)l, (int)(sizeof(TkFxSort) / sizeof(int32_t)));
    const TkFxSort& s = ss[r];
    const TkEffectBox& b = boxes[r / 2];
    int k = r % 2;  // the sampling's first plane: luma (or R'), or Cb
    bool cols = b.sortColumns != 0;
    size_t lines = (size_t)(cols ? s.cols : s.rows);
    int line = (int)(l - (size_t)s.first), n = cols ? s.rows : s.cols;
    int q0 = cols ? s.y0 : s.x0;
    int x = s.x0 + line, y = s.y0 + line;
    uint8_t* keys = (uint8_t*)s.keys + line;
    int32_t* places = (int32_t*)s.places + line;
    int lo, hi, turn;
    fxSortRange(e, b, &lo, &hi, &turn);
    for (int i = 0; i < n; i++) {
      keys[(size_t)i * lines] =
          (uint8_t)fxTurnKey(cols ? fxSortKey(e, b.sortKey, k, x, q0 + i) : fxSortKey(e, b.sortKey, k, q0 + i, y), turn);
      places[(size_t)i * lines] = q0 + i;
    }
    // A run shorter than the box's shortest (halved, up, in 4:2:0 chroma) stays.
    int sub = e->planes[k].sub, minRun = (b.sortMinRun + sub - 1) / sub;
    for (int i = 0; i < n;) {
      int key = keys[(size_t)i * lines];
      if (key < lo || key > hi) {
        i++;
        continue;
      }
      int s0 = i;
      for (i++; i < n; i++) {
        key = keys[(size_t)i * lines];
        if (key < lo || key > hi) break;
      }
      if (i - s0 >= minRun && i - s0 > 1) fxSortRun(keys, places, lines, q0, s0, i, b.sortDescending != 0, c);
    }
  }
}

// fxSort is pixel sort at sample (x, y) of plane k: the sample tk_effects_sort placed
// there, from the copy (R'G'B' planes all take the frame's sampling, Cb and Cr chroma's).
// b is box i, whose two sort records (luma's, chroma's) are the i-th pair.
__device__ float fxSort(const TkEffects* e, const TkEffectBox& b, int i, int k, int x, int y) {
  const TkFxSort& s = ((const TkFxSort*)e->sort)[2 * i + (k > 0 && !e->rgb ? 1 : 0)];
  const TkFxPlane& pl = e->planes[k];
  bool cols = b.sortColumns != 0;
  size_t lines = (size_t)(cols ? s.cols : s.rows);
  int pos = cols ? y - s.y0 : x - s.x0, line = cols ? x - s.x0 : y - s.y0;
  int src = ((const int32_t*)s.places)[(size_t)pos * lines + line];
  return (float)(cols ? fxAt(pl, x, src) : fxAt(pl, src, y));
}

// fxEffect is box b's effect at sample (x, y) of plane k (Y'CbCr; R'G'B' but for threshold
// and tint, which fxEffectRGB computes); b is box i of e.
__device__ float fxEffect(const TkParams* p, const TkEffects* e, const TkEffectBox& b, int i, int k, int x, int y) {
  const TkFxPlane& pl = e->planes[k];
  if (b.kind == TK_FX_SORT) return fxSort(e, b, i, k, x, y);
  float s = (float)fxAt(pl, x, y);
  switch (b.kind) {
    case TK_FX_INVERT:
      return pl.black + pl.white - s;
    case TK_FX_THRESHOLD: {
      float thr = pl.black + b.strength * (pl.white - pl.black);
      return !pl.chroma && s >= thr ? pl.white : pl.black;
    }
    case TK_FX_TINT: {
      if (!pl.chroma) return s;
      float t[4];
      layerColor(p, b.tint, t);
      return s + b.strength * (t[k] - s);
    }
    case TK_FX_BLUR: {
      int r = fxRadius(b.strength, pl.sub);
      int x0 = x - r < 0 ? 0 : x - r, x1 = x + r > pl.w - 1 ? pl.w - 1 : x + r;
      int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > pl.h - 1 ? pl.h - 1 : y + r;
      int sum = 0;
      for (int yy = y0; yy <= y1; yy++)
        for (int xx = x0; xx <= x1; xx++) sum += fxAt(pl, xx, yy);
      return (float)sum * (1 / (float)((x1 - x0 + 1) * (y1 - y0 + 1)));
    }
    case TK_FX_GAUSSIAN:
      return fxGaussian(pl, ((const TkFxGauss*)e->gauss)[3 * (&b - (const TkEffectBox*)e->boxes) + k], x, y);
    case TK_FX_PIXELATE: {
      int c = fxCell(b.strength, pl.sub);
      int ox = floorDiv((int)floorf(b.x), pl.sub), oy = floorDiv((int)floorf(b.y), pl.sub);
      int cx0 = ox + floorDiv(x - ox, c) * c, cy0 = oy + floorDiv(y - oy, c) * c;
      int x0 = cx0 < 0 ? 0 : cx0, x1 = cx0 + c > pl.w ? pl.w : cx0 + c;
      int y0 = cy0 < 0 ? 0 : cy0, y1 = cy0 + c > pl.h ? pl.h : cy0 + c;
      int sum = 0;
      for (int yy = y0; yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++) sum += fxAt(pl, xx, yy);
      return (float)sum / (float)((x1 - x0) * (y1 - y0));
    }
    case TK_FX_ZOOM: {
      float sub = (float)pl.sub;
      float cx = (b.x + b.w / 2) / sub, cy = (b.y + b.h / 2) / sub;
      float inv = 1 / b.strength;
      float sx = cx + (((float)x + 0.5f) - cx) * inv - 0.5f;
      float sy = cy + (((float)y + 0.5f) - cy) * inv - 0.5f;
      float fx = floorf(sx), fy = floorf(sy);
      int ix = (int)fx, iy = (int)fy;
      float ax = sx - fx, ay = sy - fy;
      float a0 = (float)fxAt(pl, ix, iy), a1 = (float)fxAt(pl, ix + 1, iy);
      float b0 = (float)fxAt(pl, ix, iy + 1), b1 = (float)fxAt(pl, ix + 1, iy + 1);
      float top = a0 + ax * (a1 - a0);
      float bot = b0 + ax * (b1 - b0);
      return top + ay * (bot - top);
    }
  }
  return s;
}

// fxEffectRGB is threshold or tint at pixel (x, y) of an RGBA frame, all three components.
__device__ void fxEffectRGB(const TkEffects* e, const TkEffectBox& b, int x, int y, float out[3]) {
  float s[3];
  for (int k = 0; k < 3; k++) s[k] = (float)fxAt(e->planes[k], x, y);
  float l = fxLuma(s[0], s[1], s[2]);
  float t[3] = {b.tint[0] * 255, b.tint[1] * 255, b.tint[2] * 255};
  float yt = fxLuma(t[0], t[1], t[2]);
  float level = b.strength * 255;
  for (int k = 0; k < 3; k++) {
    if (b.kind == TK_FX_TINT)
      out[k] = s[k] + b.strength * ((t[k] - yt) - (s[k] - l));
    else
      out[k] = l >= level ? 255 : 0;
  }
}

// fxBlend mixes effect value v into the frame's sample (x, y) of plane pl by coverage c,
// with composite's rounding.
__device__ __forceinline__ void fxBlend(const TkFxPlane& pl, int x, int y, float v, float c) {
  uint8_t* d = (uint8_t*)pl.frame + (size_t)y * pl.stride + (size_t)x * pl.step;
  float s = pl.wide ? (float)(*(uint16_t*)d >> pl.shift) : (float)*d;
  float o = s + c * (v - s) + 0.5f;
  o = o < 0 ? 0 : (o > pl.max ? pl.max : o);
  if (pl.wide)
    *(uint16_t*)d = (uint16_t)((unsigned)o << pl.shift);
  else
    *d = (uint8_t)o;
}

// fxCover is render's fxCover: the effect's coverage at distance d from the box's edge,
// coverage()'s ramp widened to ramp px, scaled by the effect's opacity op.
__device__ __forceinline__ float fxCover(float d, float ramp, float op) {
  float c = (0.5f - d) / ramp;
  if (c <= 0) return 0;
  if (c >= 1) c = 1;
  return c * op;
}

// fxRect is render's effectRect: the pixels box b can reach, on even coordinates; the kernel
// visits nothing outside it.
// A box whose edges are not finite or beyond TK_FX_FAR px is skipped: its rectangle is
// empty.
#define TK_FX_FAR (float)(1 << 24)

__device__ void fxRect(const TkEffectBox& b, int w, int h, int r[4]) {
  float v[4] = {b.x - 1, b.y - 1, b.x + b.w + 2, b.y + b.h + 2};
  for (int i = 0; i < 4; i++) {
    if (!(v[i] >= -TK_FX_FAR && v[i] <= TK_FX_FAR)) {
      r[0] = r[1] = r[2] = r[3] = 0;
      return;
    }
  }
  int lim[4] = {w, h, w, h};
  for (int i = 0; i < 4; i++) {
    int f = (int)floorf(v[i]);
    r[i] = f < 0 ? 0 : (f > lim[i] ? lim[i] : f);
  }
  r[0] &= ~1;
  r[1] &= ~1;
  r[2] = (r[2] + 1) & ~1;
  r[3] = (r[3] + 1) & ~1;
  if (r[2] > w) r[2] = w;
  if (r[3] > h) r[3] = h;
}

TK_KERNEL void tk_effects(const TkParams* p) {
  const TkEffects* e = (const TkEffects*)p->effects;
  if (!e || e->n == 0 || overflowed(p)) return;
  int ox = blockIdx.x * TK_TILE, oy = blockIdx.y * TK_TILE;
  int w = p->width, h = p->height;
  int tw = w - ox < TK_TILE ? w - ox : TK_TILE, th = h - oy < TK_TILE ? h - oy : TK_TILE;
  int bx = 2 * threadIdx.x;
  if (bx >= tw) return;
  const TkEffectBox* boxes = (const TkEffectBox*)e->boxes;
  for (int by = 2 * threadIdx.y; by < th; by += 2 * TK_FXC_Y) {
    int x0 = ox + bx, y0 = oy + by;  // the block's top-left pixel
    int cols = w - x0 < 2 ? 1 : 2, rows = h - y0 < 2 ? 1 : 2;
    for (int i = 0; i < e->n; i++) {
      const TkEffectBox& b = boxes[i];
      int r[4];
      fxRect(b, w, h, r);
      if (x0 < r[0] || x0 >= r[2] || y0 < r[1] || y0 >= r[3]) continue;
      float hx = b.w / 2, hy = b.h / 2;
      float cx = b.x + hx, cy = b.y + hy;
      float ramp = gmax(b.feather, 1), op = 1 - b.transparency;
      float c[4] = {0, 0, 0, 0};  // row 0 col 0, row 0 col 1, row 1 col 0, row 1 col 1
      for (int q = 0; q < 4; q++) {
        int x = x0 + (q & 1), y = y0 + (q >> 1);
        if ((q & 1) >= cols || (q >> 1) >= rows) continue;
        c[q] = fxCover(roundBox((float)x + 0.5f, (float)y + 0.5f, cx, cy, hx, hy, b.radius), ramp, op);
        if (c[q] == 0) continue;
        if (e->rgb) {
          float v[3];
          if (b.kind == TK_FX_THRESHOLD || b.kind == TK_FX_TINT)
            fxEffectRGB(e, b, x, y, v);
          else
            for (int k = 0; k < 3; k++) v[k] = fxEffect(p, e, b, i, k, x, y);
          for (int k = 0; k < 3; k++) fxBlend(e->planes[k], x, y, v[k], c[q]);
        } else {
          fxBlend(e->planes[0], x, y, fxEffect(p, e, b, i, 0, x, y), c[q]);
        }
      }
      if (e->rgb) continue;
      float cc = ((c[0] + c[2]) + (c[1] + c[3])) * (1 / (float)(rows * cols));
      if (cc == 0) continue;
      for (int k = 1; k < 3; k++) fxBlend(e->planes[k], x0 / 2, y0 / 2, fxEffect(p, e, b, i, k, x0 / 2, y0 / 2), cc);
    }
  }
}
