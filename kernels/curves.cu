// curves.cu: quadratic Bezier strokes, flattening and rasterising fused; the twin of
// render.drawCurves.
//
// A stroke is a curve or a run of joined curves, drawn with its first curve's width and
// colour. The tile's chord list is grouped by stroke (bin_sort keeps chord order, chords
// are numbered in curve order, and a run's curves are consecutive). For each stroke a
// thread keeps, per pixel, the squared distance to the nearest chord whose reach covers the
// pixel and that chord's opacity (its curve's fade), computing each chord from its curve
// (bin.cu's chordOf) rather than reading a chord buffer; when the stroke's chords end it
// blends the stroke once. Taking the minimum first is what keeps a translucent stroke from
// darkening where its chords or curves meet. A dashed stroke takes the distance to the
// dashes on each chord instead, laid along the curve's arc length.
#include "tile.cuh"

// flushStroke blends stroke c, with p's glow, with the distances and opacities gathered in
// d2 and op and resets them.
__device__ __forceinline__ void flushStroke(const TkParams* p, TileState& s, const TkCurve& c, float d2[TK_ROWS],
                                            const float op[TK_ROWS]) {
  float thin = thinScale(c.width);
  TK_NO_UNROLL
  for (int j = 0; j < TK_ROWS; j++) {
    if (d2[j] == INFINITY) continue;  // no chord reached this pixel
    float sd = stroke(sqrtf(d2[j]), c.width);
    float cov = glowCover(coverage(sd) * thin, sd, p->glowInv, p->glowOpacity) * op[j];
    d2[j] = INFINITY;
    if (cov > 0) {
      over(s.px[j], c.color, cov);
      s.dirty = true;
    }
  }
}

TK_KERNEL void tk_curves(const TkParams* p) {
  TileState s;
  if (!beginTile(p, TK_CHORDS, s)) return;
  const TkCurve* cs = (const TkCurve*)p->curves;
  const int32_t* start = (const int32_t*)p->chordStart;
  const int32_t* idx = items(p, TK_CHORDS);
  float pxc = (float)(s.t.ox + s.t.x) + 0.5f;
  const int32_t* strokeOf = (const int32_t*)p->curveStroke;
  float d2[TK_ROWS], op[TK_ROWS];
  TK_NO_UNROLL
  for (int j = 0; j < TK_ROWS; j++) d2[j] = INFINITY, op[j] = 0;
  int cur = -1;
  TkCurve sc = {};  // the stroke's first curve, its colour in the layer's space
  // A dashed stroke's chords need the arc length at which each starts (render's chord.s0):
  // the sum of the lengths of the curve's chords before it, walked on from the last chord
  // of the same curve (a tile lists a curve's chords in order).
  int arcCurve = -1, arcK = 0;
  float arcS = 0;
  for (int e = s.lo; e < s.hi; e++) {
    int g = idx[e];
    int ci = curveOfChord(p, g);
    int si = strokeOf[ci];
    if (si != cur) {
      if (cur >= 0) flushStroke(p, s, sc, d2, op);
      cur = si;
      sc = cs[si];
      layerColor(p, sc.color, sc.color);
    }
    const TkCurve& c = cs[ci];
    int n = start[ci + 1] - start[ci], k = g - start[ci];
    float x0, y0, x1, y1;
    chordOf(c, k, n, &x0, &y0, &x1, &y1);
    float opacity = chordOpacity(c, k, n);
    float r = reach(sc.width) + p->glowRadius;
    Seg seg = newSeg(x0, y0, x1, y1);
    bool dashed = sc.dash.period > 0;
    float len = 0;
    if (dashed) {
      if (ci != arcCurve || k < arcK) arcCurve = ci, arcK = 0, arcS = sc.dash.phase;
      for (; arcK < k; arcK++) {
        float ax, ay, bx, by;
        chordOf(c, arcK, n, &ax, &ay, &bx, &by);
        arcS += chordLen(ax, ay, bx, by);
      }
      len = chordLen(x0, y0, x1, y1);
    }
    TK_NO_UNROLL
    for (int j = 0; j < TK_ROWS; j++) {
      int y = rowOf(j);
      if (y >= s.t.h) break;
      if (!segmentInReach(x0, y0, x1, y1, r, s.t.ox, s.t.oy, s.t.x, y)) continue;
      float pyc = (float)(s.t.oy + y) + 0.5f;
      float d = dashed ? segDashDist2(seg, pxc, pyc, len, arcS, sc.dash.on, sc.dash.period) : segDist2(seg, pxc, pyc);
      if (d < d2[j]) d2[j] = d, op[j] = opacity;
    }
  }
  if (cur >= 0) flushStroke(p, s, sc, d2, op);
  endTile(p, s);
}
