// bin.cu: tile binning on the device, the twin of render/bin.go.
//
// Like the CPU's two-pass binList it runs a count pass, a prefix sum and a fill pass, and
// finally ranks each entry into its place, because the fill pass takes its slots with
// atomics in whatever order threads arrive, while drawing must follow paint order (list
// order = primitive order, as on the CPU) for the picture to be deterministic. Every stage
// spreads its work thinly (a few lanes per primitive or chord, a thread per list entry):
// the work is small, and a kernel that leaves one thread a long serial loop of atomics or
// dependent loads is as slow as that loop's latency. Curves are flattened here too,
// without storing chords: a first pass counts each curve's chords (curves.Chords), a scan
// turns the counts into the curves' first chord numbers, and every later stage computes
// chord k of a curve from its control points when it needs it.
//
// Launch order (gpu.go's record): begin, curve_chords, the chord-start scan (scan_*_chords),
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

// curveOfChord finds the curve that owns global chord g.
__device__ __forceinline__ int curveOfChord(const TkParams* p, int g) {
  return ownerOf((const int32_t*)p->chordStart, p->nCurves, g);
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

// Emitter either counts (fill == false) or places entry idx in tile t's fill list, in
// arrival order (bin_sort puts it in paint order).
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
    ((int32_t*)p->binFill[kind])[slot] = idx;
  }
};

// LaneSplit spreads one primitive's tiles over `lanes` threads, so that no thread walks a
// long run of tiles alone (each emit is an atomic, and a thread waits out each one's
// latency): rs row slots × cs column slots (rs·cs = lanes, powers of two), the split that
// gives the fewest tiles to the busiest thread of the rows × cols bounding rectangle. Lane
// (rl, cl) takes the rows rl, rl + rs, ... and of each the columns cl, cl + cs, ...: every
// tile goes to exactly one lane. All lanes of a primitive compute the same split.
struct LaneSplit {
  int rs, cs, rl, cl;
};

__device__ __forceinline__ LaneSplit laneSplit(int rows, int cols, int lane, int lanes) {
  int best = 1, bestCost = -1;
  for (int rs = 1; rs <= lanes; rs *= 2) {
    int cs = lanes / rs;
    int cost = ((rows + rs - 1) / rs) * ((cols + cs - 1) / cs);
    if (bestCost < 0 || cost < bestCost) {
      best = rs;
      bestCost = cost;
    }
  }
  LaneSplit s;
  s.rs = best;
  s.cs = lanes / best;
  s.rl = lane / s.cs;
  s.cl = lane % s.cs;
  return s;
}

// binRect lists idx in lane's share of the tiles the rectangle [x0, x1] × [y0, y1] overlaps.
__device__ void binRect(const Emitter& e, int idx, int lane, int lanes, float x0, float y0, float x1, float y1) {
  TileRange r = tileRange(e.p, x0, y0, x1, y1);
  LaneSplit s = laneSplit(r.ty1 - r.ty0, r.tx1 - r.tx0, lane, lanes);
  for (int ty = r.ty0 + s.rl; ty < r.ty1; ty += s.rs)
    for (int tx = r.tx0 + s.cl; tx < r.tx1; tx += s.cs) e.emit(ty * e.p->tilesX + tx, idx);
}

// binSegment is bins.binSegment, lane's share of it: per row of tiles, the part of the
// segment inside the row's band (widened by r) bounds the tiles the stroke can touch. The
// split is the bounding rectangle's; a row's columns lie within it.
__device__ void binSegment(const Emitter& e, int idx, int lane, int lanes, float x0, float y0, float x1, float y1,
                           float r) {
  TileRange rows = tileRange(e.p, gmin(x0, x1) - r, gmin(y0, y1) - r, gmax(x0, x1) + r, gmax(y0, y1) + r);
  LaneSplit s = laneSplit(rows.ty1 - rows.ty0, rows.tx1 - rows.tx0, lane, lanes);
  for (int ty = rows.ty0 + s.rl; ty < rows.ty1; ty += s.rs) {
    float lo, hi;
    if (!bandX(x0, y0, x1, y1, (float)(ty * TK_TILE) - r, (float)((ty + 1) * TK_TILE) + r, &lo, &hi)) continue;
    TileRange cols = tileRange(e.p, lo - r, 0, hi + r, 0);
    for (int tx = cols.tx0 + s.cl; tx < cols.tx1; tx += s.cs) e.emit(ty * e.p->tilesX + tx, idx);
  }
}

// boxMargin is render.boxMargin's bound: an outline's glow reaches gr farther (render stops
// half a pixel short of this, where neither the stroke nor its glow adds anything).
__device__ __forceinline__ float boxMargin(const TkBox& b, float gr) {
  return b.stroke > 0 ? gmax(b.stroke, 1) / 2 + 1 + gr : 1;
}

// binItem lists lane's share of item i of the launch's kind (a chord's global number for
// curves) in the tiles it reaches.
__device__ void binItem(const Emitter& e, int i, int lane, int lanes) {
  const TkParams* p = e.p;
  switch (e.kind) {
    case TK_BOXES: {
      const TkBox& b = ((const TkBox*)p->boxes)[i];
      float m = boxMargin(b, p->glowRadius);
      binRect(e, i, lane, lanes, b.x - m, b.y - m, b.x + b.w + m, b.y + b.h + m);
      return;
    }
    case TK_LINES: {
      const TkLine& l = ((const TkLine*)p->lines)[i];
      binSegment(e, i, lane, lanes, l.x0, l.y0, l.x1, l.y1, reach(l.width) + p->glowRadius);
      return;
    }
    case TK_CHORDS: {
      int ci = curveOfChord(p, i);
      const TkCurve* cs = (const TkCurve*)p->curves;
      const int32_t* start = (const int32_t*)p->chordStart;
      int first = start[ci], n = start[ci + 1] - first;
      float r = reach(cs[((const int32_t*)p->curveStroke)[ci]].width) + p->glowRadius;
      float x0, y0, x1, y1;
      chordOf(cs[ci], i - first, n, &x0, &y0, &x1, &y1);
      binSegment(e, i, lane, lanes, x0, y0, x1, y1, r);
      return;
    }
    case TK_LABELS: {
      const TkLabel& l = ((const TkLabel*)p->labels)[i];
      // Grown by the outline's reach, which may run past the background (render's binLabels).
      float m = (float)l.outline;
      binRect(e, i, lane, lanes, (float)l.x - m, (float)l.y - m, (float)(l.x + l.w) + m, (float)(l.y + l.h) + m);
      return;
    }
  }
}

// binPrimitives bins every item of the launch's kind (grid y): work item w is lane
// w % lanes of item w / lanes, TK_BIN_LANES lanes per box, line and label and
// TK_CHORD_LANES per chord, each curve's chords numbered globally (chordStart). The chord
// total is known only here, so the threads stride over the work: any grid covers it.
__device__ void binPrimitives(const TkParams* p, bool fill) {
  Emitter e = {p, (int)blockIdx.y, fill};
  int n = 0, lanes = TK_BIN_LANES;
  switch (e.kind) {
    case TK_BOXES: n = p->nBoxes; break;
    case TK_LINES: n = p->nLines; break;
    case TK_CHORDS:
      n = ((const int32_t*)p->chordStart)[p->nCurves];
      lanes = TK_CHORD_LANES;
      break;
    case TK_LABELS: n = p->nLabels; break;
  }
  int64_t work = (int64_t)n * lanes, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < work; w += stride)
    binItem(e, (int)(w / lanes), (int)(w % lanes), lanes);
}

// bin_count and bin_fill: grid (any width, KINDS); gpu.go's record() sizes it.
TK_KERNEL void tk_bin_count(const TkParams* p) { binPrimitives(p, false); }

TK_KERNEL void tk_bin_fill(const TkParams* p) {
  if (overflowed(p)) return;
  binPrimitives(p, true);
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

// bin_sort writes each tile's list in paint order: entry e of the fill lists (arrival
// order) goes to its tile's slot first + rank, rank being how many entries of its tile's list
// hold a smaller index (a list holds an index at most once: a primitive or chord lists
// itself once per tile). One thread per entry, striding over the kind's total (known only
// here); no thread reads what another writes, so any thread order gives the same lists.
// Grid (any width, KINDS). Its cost is the list's length per entry, in loads that all
// threads of a list share, instead of one thread's chain of dependent loads per list.
TK_KERNEL void tk_bin_sort(const TkParams* p) {
  if (overflowed(p)) return;
  int kind = blockIdx.y, tiles = p->tilesX * p->tilesY;
  const int32_t* start = (const int32_t*)p->binStart[kind];
  const int32_t* in = (const int32_t*)p->binFill[kind];
  int32_t* out = (int32_t*)p->binItems[kind];
  int total = start[tiles], stride = gridDim.x * blockDim.x;
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
    int t = ownerOf(start, tiles, e);
    int first = start[t], last = start[t + 1], v = in[e], rank = 0;
    for (int j = first; j < last; j++) rank += in[j] < v;
    out[first + rank] = v;
  }
}
