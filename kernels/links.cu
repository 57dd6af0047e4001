// links.cu: the link graph on the device, the twin of knn.Graph.Update (knn/knn.go and the
// grid search of knn/search.go), followed by the link primitives overlay.Build makes.
//
// One frame, in launch order (kernels/gpu/links.go), every kernel a TK_BIN_THREADS-wide 1-D
// grid unless said otherwise, every "thread per point" indexed by rank (track id order):
//
//   clear           zero the counters and set the extent keys          thread per cell
//   extent          min/max of 64 points' x and y, atomically merged   thread per 64 points
//   grid            the grid's geometry from the extent                one thread
//   cells           each point's cell, counted                         thread per point
//   scan cells      counts to each cell's first point                  3 launches
//   fill            the points in cell order                           thread per point
//   search          the k nearest, ring by ring, exact                 thread per point, cell order
//   match           ranks now ↔ ranks in the previous frame (h > 0)    thread per point
//   choose          hysteresis: the k chosen neighbours                thread per point
//   count, scan, bucket   links under their lower end                  thread per point
//   caps            sort a bucket; drawn before?; MaxDist, MaxDY       thread per point
//   [scan, incident, degree]   MaxDegree (M > 0; caps counts)         thread per point
//   keep, scan      links kept per lower end to output slots           thread per point
//   emit            edges, lines and curves of the kept links          thread per point
//   blank           the link count; unused slots out of the frame      thread per slot
//
// Exactness: distances are double(dx·dx) + double(dy·dy) from the float32 coordinates, as
// knn's dist2 computes them (no contraction: build.sh's -fmad=false, emu.cc's pragma), and
// every comparison breaks ties by rank, so the neighbour lists are knn's whatever order the
// threads fill the cells in (a sorted insertion keeps the k first of a total order). Each
// rule below names its Go twin; the emulated device's test compares frame by frame.
//
// No barriers, shared memory or warp intrinsics (cuda_compat.h): threads of one launch meet
// only through atomicAdd/atomicOr/atomicMin/atomicMax on counters whose final values do not
// depend on their order, and the order-dependent results (cell and bucket fill) are either
// order-free by construction (the search) or sorted afterwards (buckets, incident lists).
//
// This file comes after bin.cu in all.cu and uses its scan helpers (scanSums, scanApply).
#include <string.h>

#include "links.h"
#include "tile.cuh"

__device__ __forceinline__ const TkLinks* linksOf(const TkParams* p) { return (const TkLinks*)p->links; }

__device__ __forceinline__ int threadIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// pointDist2 is knn's dist2.
__device__ __forceinline__ double pointDist2(double x1, double y1, double x2, double y2) {
  double dx = x1 - x2, dy = y1 - y2;
  return dx * dx + dy * dy;
}

// nbrBefore is knn's before: nearer, or as near with a lower rank.
__device__ __forceinline__ bool nbrBefore(double d, int r, double d2, int r2) { return d < d2 || (d == d2 && r < r2); }

// nbrInsert is knn's insert: it adds (d, r) to the sorted list nd[:m], nb[:m] of capacity k
// and returns its new length; a full list drops its last entry.
__device__ int nbrInsert(double* nd, int32_t* nb, int k, int m, double d, int r) {
  if (m == k) {
    if (!nbrBefore(d, r, nd[k - 1], nb[k - 1])) return m;
    m--;
  }
  int j = m;
  for (; j > 0 && nbrBefore(d, r, nd[j - 1], nb[j - 1]); j--) {
    nd[j] = nd[j - 1];
    nb[j] = nb[j - 1];
  }
  nd[j] = d;
  nb[j] = r;
  return m + 1;
}

// orderedKey maps a float32 to an int32 that orders as the float does (for non-NaN values),
// so that the extent can be merged with integer atomics; floatOfKey is its inverse.
__device__ __forceinline__ int32_t orderedKey(float f) {
  int32_t k;
  memcpy(&k, &f, sizeof k);
  return k >= 0 ? k : k ^ 0x7fffffff;
}

__device__ __forceinline__ double floatOfKey(int32_t k) {
  int32_t bits = k >= 0 ? k : k ^ 0x7fffffff;
  float f;
  memcpy(&f, &bits, sizeof f);
  return (double)f;
}

// findID returns the rank of track id in points sorted by id, or −1. It tries rank hint
// first: from one frame to the next most tracks keep their rank.
__device__ int findID(const TkPoint* pts, int n, int id, int hint) {
  if (hint < n && pts[hint].id == id) return hint;
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (pts[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && pts[lo].id == id ? lo : -1;
}

// chunkCount is scanChunks for a TkLinkScan.
__device__ __forceinline__ int chunkCount(int n) { return (n + TK_SCAN_CHUNK - 1) / TK_SCAN_CHUNK; }

// ---- the grid ---------------------------------------------------------------------------

// clear: grid per(capCells + 1). Zeroes every counter the frame's atomics add to.
TK_KERNEL void tk_links_clear(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int i = threadIndex();
  int n = L->cur.n;
  if (i <= L->capCells) ((int32_t*)L->cellStart)[i] = 0;
  if (i < L->capCells) ((int32_t*)L->cellFill)[i] = 0;
  if (i <= n) ((int32_t*)L->bucketStart)[i] = ((int32_t*)L->incStart)[i] = 0;
  if (i < n) ((int32_t*)L->bucketFill)[i] = ((int32_t*)L->incFill)[i] = 0;
  if (i == 0) {
    TkGrid* g = (TkGrid*)L->grid;
    g->minXKey = g->minYKey = INT32_MAX;
    g->maxXKey = g->maxYKey = INT32_MIN;
    ((int32_t*)L->keepStart)[0] = 0;
  }
}

// extent: one thread per TK_SCAN_CHUNK points merges their bounding box into the grid's
// keys: a handful of atomics per chunk instead of a reduction tree, which would need
// barriers (or one thread walking every chunk).
TK_KERNEL void tk_links_extent(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int lo = threadIndex() * TK_SCAN_CHUNK, n = L->cur.n;
  if (L->cur.k == 0 || lo >= n) return;
  int hi = lo + TK_SCAN_CHUNK < n ? lo + TK_SCAN_CHUNK : n;
  const TkPoint* pts = (const TkPoint*)L->cur.points;
  int32_t x0 = INT32_MAX, x1 = INT32_MIN, y0 = INT32_MAX, y1 = INT32_MIN;
  for (int i = lo; i < hi; i++) {
    int32_t kx = orderedKey(pts[i].x), ky = orderedKey(pts[i].y);
    x0 = kx < x0 ? kx : x0;
    x1 = kx > x1 ? kx : x1;
    y0 = ky < y0 ? ky : y0;
    y1 = ky > y1 ? ky : y1;
  }
  TkGrid* g = (TkGrid*)L->grid;
  atomicMin(&g->minXKey, x0);
  atomicMax(&g->maxXKey, x1);
  atomicMin(&g->minYKey, y0);
  atomicMax(&g->maxYKey, y1);
}

// grid: one thread. The CPU grid's geometry (gridSearch.search): cells of about two points
// whether the points fill an area or lie along a line, at most 1.5n + 1 of them. Any cell
// size gives the same, exact answers; should rounding ever push the count past the buffer,
// the cells are made larger until they fit.
TK_KERNEL void tk_links_grid(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  if (L->cur.k == 0) return;
  TkGrid* g = (TkGrid*)L->grid;
  double minX = floatOfKey(g->minXKey), maxX = floatOfKey(g->maxXKey);
  double minY = floatOfKey(g->minYKey), maxY = floatOfKey(g->maxYKey);
  double n = (double)L->cur.n;
  double w = maxX - minX, h = maxY - minY;
  double a = sqrt(2 * w * h / n), b = 2 * (w > h ? w : h) / n;
  double cs = a > b ? a : b;
  if (!(cs > 0)) cs = 1;  // all points coincide
  double inv;
  int nx, ny;
  for (;;) {
    inv = 1 / cs;
    nx = (int)(w * inv) + 1;
    ny = (int)(h * inv) + 1;
    if ((long long)nx * ny <= L->capCells) break;
    cs *= 2;
  }
  g->minX = minX;
  g->minY = minY;
  g->cs = cs;
  g->inv = inv;
  g->nx = nx;
  g->ny = ny;
  g->margin = 1e-9 * (fabs(minX) + fabs(maxX) + fabs(minY) + fabs(maxY) + cs);
}

// cells: each point's cell, and the cells' counts (after cellStart[0], for the scan).
TK_KERNEL void tk_links_cells(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex();
  if (L->cur.k == 0 || r >= L->cur.n) return;
  const TkGrid* g = (const TkGrid*)L->grid;
  const TkPoint& pt = ((const TkPoint*)L->cur.points)[r];
  int cx = (int)(((double)pt.x - g->minX) * g->inv), cy = (int)(((double)pt.y - g->minY) * g->inv);
  cx = cx < g->nx - 1 ? cx : g->nx - 1;
  cy = cy < g->ny - 1 ? cy : g->ny - 1;
  int c = cy * g->nx + cx;
  ((int32_t*)L->cellOf)[r] = c;
  atomicAdd((int*)L->cellStart + c + 1, 1);
}

// fill: the points in cell order. Within a cell the order is the threads' arrival, which
// the search does not depend on.
TK_KERNEL void tk_links_fill(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex();
  if (L->cur.k == 0 || r >= L->cur.n) return;
  int c = ((const int32_t*)L->cellOf)[r];
  int slot = ((const int32_t*)L->cellStart)[c] + atomicAdd((int*)L->cellFill + c, 1);
  const TkPoint& pt = ((const TkPoint*)L->cur.points)[r];
  TkCellPoint cp = {pt.x, pt.y, r};
  ((TkCellPoint*)L->cellPoints)[slot] = cp;
}

// ---- the scans: counts to offsets without a barrier --------------------------------------
// sums: one thread per chunk (bin.cu's scanSums). offsets: one thread per chunk adds up the
// sums before its own, O(chunks²) additions in all but no thread walks every chunk (bin.cu's
// scanMid does, which is fine for its two thousand tiles but not for 100 000 points).
// apply: bin.cu's scanApply from those offsets.

__device__ void scanOffsets(const TkLinkScan& s, int chunk) {
  if (chunk >= chunkCount(s.n)) return;
  const int32_t* sums = (const int32_t*)s.sums;
  int run = 0;
  for (int c = 0; c < chunk; c++) run += sums[c];
  ((int32_t*)s.offsets)[chunk] = run;
}

#define TK_LINK_SCAN_KERNELS(name, job)                                                 \
  TK_KERNEL void tk_links_sums_##name(const TkParams* p) {                              \
    const TkLinkScan& s = linksOf(p)->scans[job];                                       \
    TkScan t = {s.a, s.sums, s.n, 0};                                                   \
    scanSums(t, threadIndex());                                                         \
  }                                                                                     \
  TK_KERNEL void tk_links_offsets_##name(const TkParams* p) { scanOffsets(linksOf(p)->scans[job], threadIndex()); } \
  TK_KERNEL void tk_links_apply_##name(const TkParams* p) {                             \
    const TkLinkScan& s = linksOf(p)->scans[job];                                       \
    TkScan t = {s.a, s.offsets, s.n, 0};                                                \
    scanApply(t, threadIndex());                                                        \
  }

TK_LINK_SCAN_KERNELS(cells, TK_SCAN_CELLS)
TK_LINK_SCAN_KERNELS(buckets, TK_SCAN_BUCKETS)
TK_LINK_SCAN_KERNELS(incident, TK_SCAN_INCIDENT)
TK_LINK_SCAN_KERNELS(kept, TK_SCAN_KEPT)

// ---- the search ---------------------------------------------------------------------------

// scanCells is gridSearch.scan: it offers the points of cells c0..c1 (consecutive in a row)
// to rank q's list nd[:m], nb[:m] and returns its new length.
__device__ int scanCells(const TkLinks* L, int c0, int c1, int q, double qx, double qy, double* nd, int32_t* nb, int k,
                         int m) {
  const int32_t* start = (const int32_t*)L->cellStart;
  const TkCellPoint* cp = (const TkCellPoint*)L->cellPoints;
  for (int j = start[c0]; j < start[c1 + 1]; j++) {
    TkCellPoint o = cp[j];
    if (o.rank == q) continue;
    double d = pointDist2(qx, qy, (double)o.x, (double)o.y);
    if (m < k || nbrBefore(d, o.rank, nd[k - 1], nb[k - 1])) m = nbrInsert(nd, nb, k, m, d, o.rank);
  }
  return m;
}

// search is gridSearch.query, one thread per point: the query's own cell, then ring after
// ring of cells around it, until every cell is visited or the k-th neighbour found is
// strictly nearer than any point beyond the visited square could be (with the CPU's margin
// for rounding; strictly, since an unvisited point as near could win by rank). Thread j
// answers the j-th point in cell order, as the CPU grid orders its queries: the threads of
// a warp then search neighbouring cells and mostly read the same cache lines.
TK_KERNEL void tk_links_search(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int j = threadIndex(), k = L->cur.k;
  if (k == 0 || j >= L->cur.n) return;
  const TkGrid& g = *(const TkGrid*)L->grid;
  const TkCellPoint me = ((const TkCellPoint*)L->cellPoints)[j];
  int q = me.rank;
  double qx = me.x, qy = me.y;
  double* nd = (double*)L->nd2 + (size_t)q * k;
  int32_t* nb = (int32_t*)L->nbr + (size_t)q * k;
  int c = ((const int32_t*)L->cellOf)[q];
  int nx = g.nx, ny = g.ny, cx = c % nx, cy = c / nx;
  int m = scanCells(L, c, c, q, qx, qy, nd, nb, k, 0);
  for (int ring = 1;; ring++) {
    int x0 = cx - ring + 1, x1 = cx + ring - 1, y0 = cy - ring + 1, y1 = cy + ring - 1;  // visited
    if (x0 <= 0 && y0 <= 0 && x1 >= nx - 1 && y1 >= ny - 1) return;                   // every cell
    if (m == k) {
      double gap = INFINITY;
      if (x0 > 0) gap = fmin(gap, qx - (g.minX + (double)x0 * g.cs));
      if (x1 < nx - 1) gap = fmin(gap, g.minX + (double)(x1 + 1) * g.cs - qx);
      if (y0 > 0) gap = fmin(gap, qy - (g.minY + (double)y0 * g.cs));
      if (y1 < ny - 1) gap = fmin(gap, g.minY + (double)(y1 + 1) * g.cs - qy);
      gap -= g.margin;
      if (gap > 0 && nd[k - 1] < gap * gap) return;
    }
    x0--, x1++, y0--, y1++;  // the next ring: its top and bottom rows, then its two columns
    int xa = x0 > 0 ? x0 : 0, xb = x1 < nx - 1 ? x1 : nx - 1;
    if (y0 >= 0) m = scanCells(L, y0 * nx + xa, y0 * nx + xb, q, qx, qy, nd, nb, k, m);
    if (y1 < ny) m = scanCells(L, y1 * nx + xa, y1 * nx + xb, q, qx, qy, nd, nb, k, m);
    for (int y = y0 + 1 > 0 ? y0 + 1 : 0; y <= (y1 - 1 < ny - 1 ? y1 - 1 : ny - 1); y++) {
      if (x0 >= 0) m = scanCells(L, y * nx + x0, y * nx + x0, q, qx, qy, nd, nb, k, m);
      if (x1 < nx) m = scanCells(L, y * nx + x1, y * nx + x1, q, qx, qy, nd, nb, k, m);
    }
  }
}

// ---- hysteresis ---------------------------------------------------------------------------

// match is Graph.matchPrevious: ranks now to ranks in the previous frame and back, here by
// binary search in the other frame's id-sorted points. Grid per(max(n, prev.n)).
TK_KERNEL void tk_links_match(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int i = threadIndex();
  const TkPoint* cur = (const TkPoint*)L->cur.points;
  const TkPoint* prev = (const TkPoint*)L->prev.points;
  if (i < L->cur.n) ((int32_t*)L->cur2prev)[i] = findID(prev, L->prev.n, cur[i].id, i);
  if (i < L->prev.n) ((int32_t*)L->prev2cur)[i] = findID(cur, L->cur.n, prev[i].id, i);
}

// choose is Graph.choose, one thread per rank: the neighbours chosen in the previous frame
// that are still present stay while d² ≤ (1+h)²·ρ², then the free slots take the nearest
// not yet chosen. Without hysteresis (or for a track new in this frame) that is the k
// nearest, as they are.
TK_KERNEL void tk_links_choose(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex(), k = L->cur.k;
  if (k == 0 || r >= L->cur.n) return;
  int32_t* out = (int32_t*)L->cur.sel + (size_t)r * k;
  double* outD2 = (double*)L->selD2 + (size_t)r * k;
  const int32_t* nb = (const int32_t*)L->nbr + (size_t)r * k;
  const double* nd = (const double*)L->nd2 + (size_t)r * k;
  int m = 0;
  int pr = L->hysteresis && L->prev.k > 0 ? ((const int32_t*)L->cur2prev)[r] : -1;
  if (pr >= 0) {
    const TkPoint* pts = (const TkPoint*)L->cur.points;
    const int32_t* prev2cur = (const int32_t*)L->prev2cur;
    const int32_t* was = (const int32_t*)L->prev.sel + (size_t)pr * L->prev.k;
    double lim = L->f * nd[k - 1];
    // At most k are kept (Graph.choose says why); m < k guards the buffer regardless.
    for (int j = 0; j < L->prev.k && m < k; j++) {
      int c = prev2cur[was[j]];
      if (c < 0) continue;
      int at = -1;
      for (int i = 0; i < k; i++)
        if (nb[i] == c) at = i;
      double d;
      if (at >= 0) {
        d = nd[at];
      } else {
        d = pointDist2(pts[r].x, pts[r].y, pts[c].x, pts[c].y);
        if (d > lim) continue;
      }
      out[m] = c;
      outD2[m] = d;
      m++;
    }
  }
  int kept = m;
  for (int j = 0; j < k && m < k; j++) {
    int c = nb[j], dup = 0;
    for (int i = 0; i < kept; i++) dup |= out[i] == c;
    if (!dup) {
      out[m] = c;
      outD2[m] = nd[j];
      m++;
    }
  }
}

// ---- candidate links ----------------------------------------------------------------------

// ownsLink reports whether rank r's choice of c is the one that lists link {r, c}: links are
// undirected, and chosen from one side or both; the lower end's choice lists it when it
// made one, else the higher end's. So each link is listed exactly once (Graph.candidates
// deduplicates after bucketing instead).
__device__ bool ownsLink(const int32_t* sel, int k, int r, int c) {
  if (r < c) return true;
  const int32_t* s = sel + (size_t)c * k;
  for (int j = 0; j < k; j++)
    if (s[j] == r) return false;
  return true;
}

// count: links per lower end, for the bucket scan.
TK_KERNEL void tk_links_count(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex(), k = L->cur.k;
  if (k == 0 || r >= L->cur.n) return;
  const int32_t* sel = (const int32_t*)L->cur.sel;
  for (int j = 0; j < k; j++) {
    int c = sel[(size_t)r * k + j];
    if (ownsLink(sel, k, r, c)) atomicAdd((int*)L->bucketStart + (r < c ? r : c) + 1, 1);
  }
}

// bucket: each link into its lower end's bucket (in arrival order; caps sorts).
TK_KERNEL void tk_links_bucket(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex(), k = L->cur.k;
  if (k == 0 || r >= L->cur.n) return;
  const int32_t* sel = (const int32_t*)L->cur.sel;
  const double* selD2 = (const double*)L->selD2;
  for (int j = 0; j < k; j++) {
    size_t at = (size_t)r * k + j;
    int c = sel[at];
    if (!ownsLink(sel, k, r, c)) continue;
    int a = r < c ? r : c, b = r < c ? c : r;
    int slot = ((const int32_t*)L->bucketStart)[a] + atomicAdd((int*)L->bucketFill + a, 1);
    TkLink l = {selD2[at], a, b, 0, 0};
    ((TkLink*)L->bucket)[slot] = l;
  }
}

// edgeBound returns the first of the edges e[lo, hi) (sorted) not before (a, b).
__device__ int edgeBound(const TkEdge* e, int lo, int hi, int a, int b) {
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (e[mid].a < a || (e[mid].a == a && e[mid].b < b))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// prevEdgesFrom returns the range [*lo, *hi) of the previous frame's edges whose lower end
// is current rank a (empty when a was absent). Previous ranks keep the order of the ids,
// hence of the current ranks, so a link's ends map to a previous edge's ends in order.
__device__ void prevEdgesFrom(const TkLinks* L, int a, int* lo, int* hi) {
  int pa = ((const int32_t*)L->cur2prev)[a];
  *lo = *hi = 0;
  if (pa < 0) return;
  const TkEdge* e = (const TkEdge*)L->prev.edges;
  int n = *(const int32_t*)L->prev.count;
  *lo = edgeBound(e, 0, n, pa, INT32_MIN);
  *hi = edgeBound(e, *lo, n, pa + 1, INT32_MIN);
}

// wasDrawn reports whether link (a, b) was drawn in the previous frame, given the range of
// the previous edges from a: b was present then, and its previous rank is among them.
__device__ bool wasDrawn(const TkLinks* L, int lo, int hi, int b) {
  if (lo == hi) return false;
  int pb = ((const int32_t*)L->cur2prev)[b];
  if (pb < 0) return false;
  const TkEdge* e = (const TkEdge*)L->prev.edges;
  int at = edgeBound(e, lo, hi, e[lo].a, pb);
  return at < hi && e[at].b == pb;
}

// shellSort sorts n items of a in place by less(x, y); the gaps are bin.cu's.
template <typename T, typename Less>
__device__ void shellSort(T* a, int n, Less less) {
  const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (int g : gaps) {
    for (int i = g; i < n; i++) {
      T v = a[i];
      int j = i;
      for (; j >= g && less(v, a[j - g]); j -= g) a[j] = a[j - g];
      a[j] = v;
    }
  }
}

struct ByHigherEnd {
  __device__ bool operator()(const TkLink& x, const TkLink& y) const { return x.b < y.b; }
};

// caps: one thread per lower end a sorts its bucket by the other end (so links come in
// (a, b) order, as Graph.candidates leaves them), marks those drawn in the previous frame,
// and applies MaxDist and MaxDY as Graph.caps does: a link drawn before needs d ≤ MaxDist
// and |dy| ≤ MaxDY, a new one the same with the margin (1+h), compared as squares. With
// MaxDegree it counts the links that fit at both their ends.
TK_KERNEL void tk_links_caps(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int a = threadIndex();
  if (L->cur.k == 0 || a >= L->cur.n) return;
  const int32_t* start = (const int32_t*)L->bucketStart;
  TkLink* ls = (TkLink*)L->bucket + start[a];
  int n = start[a + 1] - start[a];
  shellSort(ls, n, ByHigherEnd());
  const TkPoint* pts = (const TkPoint*)L->cur.points;
  int lo = 0, hi = 0;
  if (L->hysteresis) prevEdgesFrom(L, a, &lo, &hi);
  for (int i = 0; i < n; i++) {
    TkLink& l = ls[i];
    bool drawn = wasDrawn(L, lo, hi, l.b);
    double margin = drawn ? 1.0 : L->f;
    double dy = (double)pts[a].y - (double)pts[l.b].y;
    bool fits = !(L->capDist && l.d2 * margin > L->maxD2) && !(L->capDY && dy * dy * margin > L->maxDY2);
    l.flags = (drawn ? TK_LINK_DRAWN : 0) | (fits ? TK_LINK_FITS : 0);
    if (fits && L->maxDegree > 0) {
      atomicAdd((int*)L->incStart + a + 1, 1);
      atomicAdd((int*)L->incStart + l.b + 1, 1);
    }
  }
}

// ---- MaxDegree ----------------------------------------------------------------------------

// incident: each fitting link into the incident lists of both its ends.
TK_KERNEL void tk_links_incident(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int a = threadIndex();
  if (L->cur.k == 0 || a >= L->cur.n) return;
  const int32_t* bs = (const int32_t*)L->bucketStart;
  const int32_t* is = (const int32_t*)L->incStart;
  const TkLink* ls = (const TkLink*)L->bucket;
  int32_t* inc = (int32_t*)L->inc;
  for (int e = bs[a]; e < bs[a + 1]; e++) {
    if (!(ls[e].flags & TK_LINK_FITS)) continue;
    int b = ls[e].b;
    inc[is[a] + atomicAdd((int*)L->incFill + a, 1)] = e;
    inc[is[b] + atomicAdd((int*)L->incFill + b, 1)] = e;
  }
}

// ByRankAt orders a point's links as Graph.degreeCap does: by length, a link drawn before
// counting as 1/(1+h) times as long (its squared length divided by f), then by the other
// end's rank.
struct ByRankAt {
  const TkLink* ls;
  int r;
  double f;
  __device__ double key(const TkLink& l) const { return l.flags & TK_LINK_DRAWN ? l.d2 / f : l.d2; }
  __device__ bool operator()(int x, int y) const {
    const TkLink &lx = ls[x], &ly = ls[y];
    double kx = key(lx), ky = key(ly);
    int ox = lx.a == r ? lx.b : lx.a, oy = ly.a == r ? ly.b : ly.a;
    return kx < ky || (kx == ky && ox < oy);
  }
};

// degree: one thread per point ranks its links and marks the first MaxDegree as kept at
// this end; a link survives when both ends keep it.
TK_KERNEL void tk_links_degree(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int r = threadIndex();
  if (L->cur.k == 0 || r >= L->cur.n) return;
  const int32_t* is = (const int32_t*)L->incStart;
  int32_t* mine = (int32_t*)L->inc + is[r];
  int n = is[r + 1] - is[r], keep = n;
  TkLink* ls = (TkLink*)L->bucket;
  if (n > L->maxDegree) {
    shellSort(mine, n, ByRankAt{ls, r, L->f});
    keep = L->maxDegree;
  }
  for (int i = 0; i < keep; i++) {
    TkLink& l = ls[mine[i]];
    atomicOr(&l.flags, l.a == r ? TK_LINK_LOW : TK_LINK_HIGH);
  }
}

// ---- output ------------------------------------------------------------------------------

__device__ __forceinline__ bool keptLink(const TkLinks* L, const TkLink& l) {
  const int both = TK_LINK_LOW | TK_LINK_HIGH;
  return (l.flags & TK_LINK_FITS) && (L->maxDegree == 0 || (l.flags & both) == both);
}

// keep: links kept per lower end, for the scan that gives each its output slot.
TK_KERNEL void tk_links_keep(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int a = threadIndex();
  if (L->cur.k == 0 || a >= L->cur.n) return;
  const int32_t* bs = (const int32_t*)L->bucketStart;
  const TkLink* ls = (const TkLink*)L->bucket;
  int kept = 0;
  for (int e = bs[a]; e < bs[a + 1]; e++) kept += keptLink(L, ls[e]);
  ((int32_t*)L->keepStart)[a + 1] = kept;
}

// linkColor is overlay.Build's link colour: overlay.mix of the ends' colours (bytewise
// means, rounded down), then overlay.Premul with the links' opacity, in the same float32
// operations.
__device__ void linkColor(const TkPoint& a, const TkPoint& b, float opacity, float c[4]) {
  uint8_t m[4];
  for (int i = 0; i < 4; i++) m[i] = (uint8_t)(((int)a.color[i] + (int)b.color[i]) / 2);
  float al = (float)m[3] / 255 * opacity;
  for (int i = 0; i < 3; i++) c[i] = (float)m[i] / 255 * al;
  c[3] = al;
}

// Links to points far outside the frame are cut to the part near it, as overlay.Build cuts
// them (overlay/clip.go: the same arithmetic, in double): float32 holds about a pixel at
// the ±1e7 px the tracks may reach, and an uncut link came out as scattered dots. A link
// with nothing near the frame goes to TK_LINK_NOWHERE, as tk_links_blank's slots do.

__device__ __forceinline__ bool tkNearFrame(double x, double y, double w, double h, double m) {
  return x >= -m && x <= w + m && y >= -m && y <= h + m;
}

// tkClipLine is overlay's clipLine: Liang–Barsky against the frame and its margin, a dashed
// line's start moved back to a whole number of periods.
__device__ bool tkClipLine(TkLine* l, double w, double h) {
  double m = (double)l->width + (double)l->dash.period + 2;
  double x0 = l->x0, y0 = l->y0, x1 = l->x1, y1 = l->y1;
  if (tkNearFrame(x0, y0, w, h, m) && tkNearFrame(x1, y1, w, h, m)) return true;
  double dx = x1 - x0, dy = y1 - y0, t0 = 0, t1 = 1;
  double pq[4][2] = {{-dx, x0 + m}, {dx, w + m - x0}, {-dy, y0 + m}, {dy, h + m - y0}};
  for (int i = 0; i < 4; i++) {
    double p = pq[i][0], q = pq[i][1];
    if (p == 0) {
      if (q < 0) return false;
    } else if (p < 0) {
      t0 = fmax(t0, q / p);
    } else {
      t1 = fmin(t1, q / p);
    }
  }
  if (t0 > t1) return false;
  double per = l->dash.period;
  if (per > 0 && t0 > 0) {
    double len = sqrt(dx * dx + dy * dy);
    t0 = floor(t0 * len / per) * per / len;
  }
  l->x0 = (float)(x0 + t0 * dx);
  l->y0 = (float)(y0 + t0 * dy);
  l->x1 = (float)(x0 + t1 * dx);
  l->y1 = (float)(y0 + t1 * dy);
  return true;
}

__device__ __forceinline__ double tkBezier(const double p[3], double t) {
  double s = 1 - t;
  return s * s * p[0] + 2 * s * t * p[1] + t * t * p[2];
}

// tkClipCurve is overlay's clipCurve: the piece between the curve's first and last points
// near the frame, found from where it crosses the margin's sides.
__device__ bool tkClipCurve(TkCurve* c, double w, double h) {
  double m = (double)c->width + (double)c->dash.period + 2;
  double px[3] = {c->x0, c->x1, c->x2}, py[3] = {c->y0, c->y1, c->y2};
  if (tkNearFrame(px[0], py[0], w, h, m) && tkNearFrame(px[1], py[1], w, h, m) && tkNearFrame(px[2], py[2], w, h, m))
    return true;
  double ts[10] = {0, 1};
  int n = 2;
  for (int axis = 0; axis < 2; axis++) {
    const double* p = axis == 0 ? px : py;
    double edges[2] = {-m, (axis == 0 ? w : h) + m};
    for (int e = 0; e < 2; e++) {
      double a = p[0] - 2 * p[1] + p[2], b = 2 * (p[1] - p[0]), cc = p[0] - edges[e];
      double r[2];
      int nr = 0;
      if (fabs(a) < 1e-12 * (fabs(b) + fabs(cc) + 1)) {
        if (b != 0) r[nr++] = -cc / b;
      } else if (b * b - 4 * a * cc >= 0) {
        double sq = sqrt(b * b - 4 * a * cc);
        r[nr++] = (-b - sq) / (2 * a);
        r[nr++] = (-b + sq) / (2 * a);
      }
      for (int i = 0; i < nr; i++)
        if (r[i] > 0 && r[i] < 1) ts[n++] = r[i];
    }
  }
  for (int i = 1; i < n; i++)  // insertion sort: at most 10
    for (int j = i; j > 0 && ts[j - 1] > ts[j]; j--) {
      double t = ts[j];
      ts[j] = ts[j - 1];
      ts[j - 1] = t;
    }
  double first = 2, last = -1;
  for (int i = 1; i < n; i++) {
    double a = ts[i - 1], b = ts[i], mid = (a + b) / 2;
    if (a < b && tkNearFrame(tkBezier(px, mid), tkBezier(py, mid), w, h, m)) {
      first = fmin(first, a);
      last = fmax(last, b);
    }
  }
  if (first >= last) return false;
  // The control point of the piece: the curve's blossom at (first, last).
  double k0 = (1 - first) * (1 - last), k1 = (1 - first) * last + first * (1 - last), k2 = first * last;
  c->x0 = (float)tkBezier(px, first);
  c->y0 = (float)tkBezier(py, first);
  c->x1 = (float)(k0 * px[0] + k1 * px[1] + k2 * px[2]);
  c->y1 = (float)(k0 * py[0] + k1 * py[1] + k2 * py[2]);
  c->x2 = (float)tkBezier(px, last);
  c->y2 = (float)tkBezier(py, last);
  return true;
}

// linkFade is overlay.LinkFade: the opacity of a link from a to b, fading with its length.
__device__ float linkFade(float opacity, const TkPoint& a, const TkPoint& b, float fade) {
  if (fade <= 0) return opacity;
  float dx = b.x - a.x, dy = b.y - a.y;
  float l = sqrtf(dx * dx + dy * dy);
  float t = gmin(l / fade, 1.0f);
  return opacity * (1 - t * t * (3 - 2 * t));
}

// emit: one thread per lower end writes its kept links, in (a, b) order, as this frame's
// edges (for the next frame) and as the link primitives overlay.Build makes: a line from the
// lower to the higher id, and a curve whose control point is curves.Control's.
TK_KERNEL void tk_links_emit(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int a = threadIndex();
  if (L->cur.k == 0 || a >= L->cur.n) return;
  const int32_t* bs = (const int32_t*)L->bucketStart;
  const TkLink* ls = (const TkLink*)L->bucket;
  const TkPoint* pts = (const TkPoint*)L->cur.points;
  int slot = ((const int32_t*)L->keepStart)[a];
  for (int e = bs[a]; e < bs[a + 1]; e++) {
    if (!keptLink(L, ls[e])) continue;
    const TkPoint &pa = pts[a], &pb = pts[ls[e].b];
    TkEdge edge = {a, ls[e].b};
    ((TkEdge*)L->cur.edges)[slot] = edge;
    float c[4];
    linkColor(pa, pb, linkFade(L->opacity, pa, pb, L->fade), c);
    if (slot < L->lineSlots) {
      TkLine l = {pa.x, pa.y, pb.x, pb.y, L->lineWidth, {c[0], c[1], c[2], c[3]}, L->lineDash};
      if (!tkClipLine(&l, p->width, p->height)) {
        const float x = TK_LINK_NOWHERE;
        TkLine nowhere = {x, x, x, x, 0, {0, 0, 0, 0}, {0, 0}};
        l = nowhere;
      }
      ((TkLine*)p->lines)[slot] = l;
    }
    if (slot < L->curveSlots) {
      // curves.Control: the midpoint moved along the left-hand normal by bend × length.
      float dx = pb.x - pa.x, dy = pb.y - pa.y;
      float cx = (pa.x + pb.x) / 2 - dy * L->bend, cy = (pa.y + pb.y) / 2 + dx * L->bend;
      TkCurve cv = {pa.x, pa.y, cx, cy, pb.x, pb.y, L->curveWidth, {c[0], c[1], c[2], c[3]}, 0, 0, 0, {0, 0, 0}, L->curveDash};
      if (!tkClipCurve(&cv, p->width, p->height)) {
        const float x = TK_LINK_NOWHERE;
        TkCurve nowhere = {x, x, x, x, x, x, 0, {0, 0, 0, 0}, 0, 0, 0, {0, 0, 0}, {0, 0}};
        cv = nowhere;
      }
      ((TkCurve*)p->curves)[slot] = cv;
    }
    slot++;
  }
}

// blank: grid per(max(lineSlots, curveSlots, 1)). Records the frame's link count and moves
// the slots past it out of every frame (TK_LINK_NOWHERE: binned in no tile, zero chords),
// so that the host's own lines and curves after the slots keep their paint order.
TK_KERNEL void tk_links_blank(const TkParams* p) {
  const TkLinks* L = linksOf(p);
  int i = threadIndex();
  int links = L->cur.k == 0 ? 0 : ((const int32_t*)L->keepStart)[L->cur.n];
  if (i == 0) *(int32_t*)L->cur.count = links;
  if (i < links) return;
  const float x = TK_LINK_NOWHERE;
  if (i < L->lineSlots) {
    TkLine l = {x, x, x, x, 0, {0, 0, 0, 0}, {0, 0}};
    ((TkLine*)p->lines)[i] = l;
  }
  if (i < L->curveSlots) {
    TkCurve cv = {x, x, x, x, x, x, 0, {0, 0, 0, 0}, 0, 0, 0, {0, 0, 0}, {0, 0}};
    ((TkCurve*)p->curves)[i] = cv;
  }
}
