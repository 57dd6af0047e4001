// bin.cu: tile binning on the device, the twin of render/bin.go.
//
// Like the CPU's two-pass binList it runs a count pass, a prefix sum and a fill pass, and
// finally sorts each tile's list, because the fill pass takes its slots with atomics in
// whatever order threads arrive, while drawing must follow paint order (list order =
// primitive order, as on the CPU) for the picture to be deterministic. Curves are
// flattened here too, without storing chords: a first pass counts each curve's chords
// (curves.Chords), a scan turns the counts into the curves' first chord numbers, and every
// later stage computes chord k of a curve from its control points when it needs it.
//
// Launch order (backend.go): begin, curve_chords, the chord-start scan (scan_*_chords),
// bin_count, the bin scans (scan_*_bins), bin_cursor, bin_fill, bin_sort.
#include "tile.cuh"

// ---- curves: flattening ----------------------------------------------------------------

// chordCount is render.bins.flatten's culling (with r the reach of the curve's stroke and
// its glow) followed by
// curves.Chords with curves.Tolerance. Go's math.Hypot on amd64 is max·sqrt(1 + (min/max)²);
// it is repeated here in the same order (no multiply-add contraction: build.sh's
// -fmad=false) so that the device counts the same chords as the CPU.
__device__ int chordCount(const TkCurve& c, float r, float w, float h) {
  if (gmin(gmin(c.x0, c.x1), c.x2) - r > w || gmax(gmax(c.x0, c.x1), c.x2) + r < 0 ||
      gmin(gmin(c.y0, c.y1), c.y2) - r > h || gmax(gmax(c.y0, c.y1), c.y2) + r < 0) {
    return 0;
  }
  double bx = (double)(c.x0 - 2 * c.x1 + c.x2), by = (double)(c.y0 - 2 * c.y1 + c.y2);
  double p = fabs(bx), q = fabs(by), hyp;
  if (isinf(p) || isinf(q)) {
    return 0;  // the CPU's int(+Inf) is negative: it draws no chords
  } else if (isnan(p) || isnan(q)) {
    return 1;
  } else if (p == 0 && q == 0) {
    hyp = 0;
  } else {
    double mx = p > q ? p : q, mn = p > q ? q : p;
    double s = mn / mx;
    hyp = mx * sqrt(1.0 + s * s);
  }
  double n = ceil(sqrt(hyp / (4.0 * (double)(1.0f / 20))));
  if (!(n >= 1)) return 1;
  // The CPU has no limit; past this many chords (|b| > 8.6e8 px) it would allocate
  // gigabytes, so the device stops here rather than overflow.
  if (n > TK_MAX_CHORDS) return TK_MAX_CHORDS;
  return (int)n;
}

// chordOpacity is render's chordOpacity (bin.go): 1 − the curve's fade at the middle of
// chord k (0-based) of n.
__device__ __forceinline__ float chordOpacity(const TkCurve& c, int k, int n) {
  float t = (float)(k + 1) / (float)n;
  float mid = t - 0.5f / (float)n;
  return 1 - (c.fade0 + (c.fade1 - c.fade0) * mid);
}

// curveOfChord finds the curve that owns global chord g: the last curve whose first chord
// is at or before g (curves with no chords share their successor's start).
__device__ __forceinline__ int curveOfChord(const TkParams* p, int g) {
  const int32_t* start = (const int32_t*)p->chordStart;
  int lo = 0, hi = p->nCurves;  // answer in [lo, hi)
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (start[mid] <= g)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// begin clears the status and the count arrays: grid (ceil((tiles+1)/TK_BIN_THREADS), KINDS).
TK_KERNEL void tk_begin(const TkParams* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int kind = blockIdx.y;
  int tiles = p->tilesX * p->tilesY;
  if (i <= tiles) ((int32_t*)p->binStart[kind])[i] = 0;
  if (i == 0 && kind == 0) {
    int32_t* st = (int32_t*)p->status;
    for (int k = 0; k <= TK_KINDS; k++) st[k] = 0;
    ((int32_t*)p->chordStart)[0] = 0;
  }
}

// curve_chords writes each curve's stroke (the first curve of its run of joined curves,
// whose width and colour the run is drawn with) and, after its slot, its chord count: one
// thread per curve. Runs are short trails, so walking back to the run's start is cheap.
TK_KERNEL void tk_curve_chords(const TkParams* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p->nCurves) return;
  const TkCurve* cs = (const TkCurve*)p->curves;
  int s = i;
  while (s > 0 && cs[s].joined) s--;
  ((int32_t*)p->curveStroke)[i] = s;
  ((int32_t*)p->chordStart)[i + 1] = chordCount(cs[i], reach(cs[s].width) + p->glowRadius, (float)p->width, (float)p->height);
}

// ---- scan: counts to offsets, in three barrier-free launches ---------------------------
// Each array of n elements is cut into chunks of TK_SCAN_CHUNK. scan_sums: one thread per
// chunk sums it. scan_mid: one thread per array turns the chunk sums into exclusive offsets.
// scan_apply: one thread per chunk rewrites its chunk as running sums from its offset. No
// thread reads what another thread of the same launch writes, so no barrier is needed (and
// the emulation needs none). A warp-shuffle scan would be faster; at 4K an array has
// ~2,000 elements, so this costs three short launches.

__device__ __forceinline__ int scanChunks(int n) { return (n + TK_SCAN_CHUNK - 1) / TK_SCAN_CHUNK; }

__device__ void scanSums(const TkScan& s, int chunk) {
  if (chunk >= scanChunks(s.n)) return;
  const int32_t* a = (const int32_t*)s.a;
  int lo = chunk * TK_SCAN_CHUNK, hi = lo + TK_SCAN_CHUNK < s.n ? lo + TK_SCAN_CHUNK : s.n;
  int sum = 0;
  for (int i = lo; i < hi; i++) sum += a[i];
  ((int32_t*)s.partial)[chunk] = sum;
}

__device__ void scanMid(const TkScan& s) {
  int32_t* part = (int32_t*)s.partial;
  int run = 0;
  for (int c = 0; c < scanChunks(s.n); c++) {
    int v = part[c];
    part[c] = run;
    run += v;
  }
}

__device__ void scanApply(const TkScan& s, int chunk) {
  if (chunk >= scanChunks(s.n)) return;
  int32_t* a = (int32_t*)s.a;
  int lo = chunk * TK_SCAN_CHUNK, hi = lo + TK_SCAN_CHUNK < s.n ? lo + TK_SCAN_CHUNK : s.n;
  int run = ((const int32_t*)s.partial)[chunk];
  for (int i = lo; i < hi; i++) {
    run += a[i];
    a[i] = run;
  }
}

// The chord-start scan is job 0; the four bin scans are jobs 1..4 (grid y picks the job).
TK_KERNEL void tk_scan_sums_chords(const TkParams* p) { scanSums(p->scans[0], blockIdx.x * blockDim.x + threadIdx.x); }
TK_KERNEL void tk_scan_mid_chords(const TkParams* p) { scanMid(p->scans[0]); }
TK_KERNEL void tk_scan_apply_chords(const TkParams* p) { scanApply(p->scans[0], blockIdx.x * blockDim.x + threadIdx.x); }
TK_KERNEL void tk_scan_sums_bins(const TkParams* p) { scanSums(p->scans[1 + blockIdx.y], blockIdx.x * blockDim.x + threadIdx.x); }
TK_KERNEL void tk_scan_mid_bins(const TkParams* p) { scanMid(p->scans[1 + blockIdx.y]); }
TK_KERNEL void tk_scan_apply_bins(const TkParams* p) { scanApply(p->scans[1 + blockIdx.y], blockIdx.x * blockDim.x + threadIdx.x); }

// ---- binning: which tiles each primitive reaches ---------------------------------------

// tileRange is bins.tileRange: the tiles [tx0, tx1) × [ty0, ty1) that the rectangle
// [x0, x1] × [y0, y1] overlaps, clipped to the frame. NaN bounds give nothing (the CPU
// would index out of range; its primitives never hold NaN).
struct TileRange {
  int tx0, ty0, tx1, ty1;
};

__device__ __forceinline__ int clampT(float v, int n) {
  double t = floor((double)v / TK_TILE);
  return (int)fmax(0.0, fmin((double)n, t));
}

__device__ TileRange tileRange(const TkParams* p, float x0, float y0, float x1, float y1) {
  TileRange r = {0, 0, 0, 0};
  if (!(x1 >= 0 && y1 >= 0) || x0 != x0 || y0 != y0) return r;
  r.tx0 = clampT(x0, p->tilesX);
  r.ty0 = clampT(y0, p->tilesY);
  r.tx1 = clampT(x1, p->tilesX - 1) + 1;
  r.ty1 = clampT(y1, p->tilesY - 1) + 1;
  return r;
}

// Emitter either counts (fill == false) or places entry idx in tile t's list.
struct Emitter {
  const TkParams* p;
  int kind;
  bool fill;
  __device__ void emit(int t, int idx) const {
    if (!fill) {
      atomicAdd((int*)p->binStart[kind] + t + 1, 1);
      return;
    }
    int slot = atomicAdd((int*)p->binCursor[kind] + t, 1);
    ((int32_t*)p->binItems[kind])[slot] = idx;
  }
};

__device__ void binRect(const Emitter& e, int idx, float x0, float y0, float x1, float y1) {
  TileRange r = tileRange(e.p, x0, y0, x1, y1);
  for (int ty = r.ty0; ty < r.ty1; ty++)
    for (int tx = r.tx0; tx < r.tx1; tx++) e.emit(ty * e.p->tilesX + tx, idx);
}

// binSegment is bins.binSegment: per row of tiles, the part of the segment inside the row's
// band (widened by r) bounds the tiles the stroke can touch.
__device__ void binSegment(const Emitter& e, int idx, float x0, float y0, float x1, float y1, float r) {
  TileRange rows = tileRange(e.p, gmin(x0, x1) - r, gmin(y0, y1) - r, gmax(x0, x1) + r, gmax(y0, y1) + r);
  for (int ty = rows.ty0; ty < rows.ty1; ty++) {
    float lo, hi;
    if (!bandX(x0, y0, x1, y1, (float)(ty * TK_TILE) - r, (float)((ty + 1) * TK_TILE) + r, &lo, &hi)) continue;
    TileRange cols = tileRange(e.p, lo - r, 0, hi + r, 0);
    for (int tx = cols.tx0; tx < cols.tx1; tx++) e.emit(ty * e.p->tilesX + tx, idx);
  }
}

// boxMargin is render.boxMargin's bound: an outline's glow reaches gr farther (render stops
// half a pixel short of this, where neither the stroke nor its glow adds anything).
__device__ __forceinline__ float boxMargin(const TkBox& b, float gr) {
  return b.stroke > 0 ? gmax(b.stroke, 1) / 2 + 1 + gr : 1;
}

// binPrimitive lists primitive i of the launch's kind (grid y) in the tiles it reaches.
// Curves bin their chords, one thread per curve.
__device__ void binPrimitive(const TkParams* p, bool fill) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Emitter e = {p, (int)blockIdx.y, fill};
  switch (e.kind) {
    case TK_BOXES: {
      if (i >= p->nBoxes) return;
      const TkBox& b = ((const TkBox*)p->boxes)[i];
      float m = boxMargin(b, p->glowRadius);
      binRect(e, i, b.x - m, b.y - m, b.x + b.w + m, b.y + b.h + m);
      return;
    }
    case TK_LINES: {
      if (i >= p->nLines) return;
      const TkLine& l = ((const TkLine*)p->lines)[i];
      binSegment(e, i, l.x0, l.y0, l.x1, l.y1, reach(l.width) + p->glowRadius);
      return;
    }
    case TK_CHORDS: {
      if (i >= p->nCurves) return;
      const TkCurve* cs = (const TkCurve*)p->curves;
      const TkCurve& c = cs[i];
      const int32_t* start = (const int32_t*)p->chordStart;
      int first = start[i], n = start[i + 1] - first;
      float r = reach(cs[((const int32_t*)p->curveStroke)[i]].width) + p->glowRadius;
      for (int k = 0; k < n; k++) {
        float x0, y0, x1, y1;
        chordOf(c, k, n, &x0, &y0, &x1, &y1);
        binSegment(e, first + k, x0, y0, x1, y1, r);
      }
      return;
    }
    case TK_LABELS: {
      if (i >= p->nLabels) return;
      const TkLabel& l = ((const TkLabel*)p->labels)[i];
      // Grown by the outline's reach, which may run past the background (render's binLabels).
      float m = (float)l.outline;
      binRect(e, i, (float)l.x - m, (float)l.y - m, (float)(l.x + l.w) + m, (float)(l.y + l.h) + m);
      return;
    }
  }
}

// bin_count and bin_fill: grid (ceil(max primitives / TK_BIN_THREADS), KINDS).
TK_KERNEL void tk_bin_count(const TkParams* p) { binPrimitive(p, false); }

TK_KERNEL void tk_bin_fill(const TkParams* p) {
  if (overflowed(p)) return;
  binPrimitive(p, true);
}

// bin_cursor starts each tile's fill cursor at its list's offset, records each kind's total
// for the host, and flags an overflow when a total exceeds its capacity (the host then grows
// the capacity, captures again and redraws the frame). Grid as tk_begin.
TK_KERNEL void tk_bin_cursor(const TkParams* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int kind = blockIdx.y;
  int tiles = p->tilesX * p->tilesY;
  const int32_t* start = (const int32_t*)p->binStart[kind];
  if (i < tiles) ((int32_t*)p->binCursor[kind])[i] = start[i];
  if (i == 0) {
    int total = start[tiles];
    int32_t* st = (int32_t*)p->status;
    st[1 + kind] = total;
    if (total > p->capEntries[kind]) atomicOr(&st[0], TK_OVERFLOW);
  }
}

// bin_sort puts each tile's list back into paint order: one thread per (tile, kind), a
// Shell sort (the lists are short, and nearly sorted when few threads raced for a tile).
TK_KERNEL void tk_bin_sort(const TkParams* p) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int kind = blockIdx.y;
  if (t >= p->tilesX * p->tilesY || overflowed(p)) return;
  int lo, hi;
  binRange(p, kind, t, &lo, &hi);
  int32_t* a = (int32_t*)p->binItems[kind] + lo;
  int n = hi - lo;
  const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (int g : gaps) {
    for (int i = g; i < n; i++) {
      int v = a[i], j = i;
      for (; j >= g && a[j - g] > v; j -= g) a[j] = a[j - g];
      a[j] = v;
    }
  }
}
