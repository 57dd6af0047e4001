// geometry.cuh: the twins of packages sdf and curves, function for function: distance,
// coverage and stroke reach (sdf), and the points and chords of a flattened curve (curves).
// Each function repeats its Go twin's float32 operations in the same order, so that the
// emulated device (which compiles with -ffp-contract=off) and the GPU (nvcc -fmad=false,
// build.sh) compute the same coverage bit for bit as the CPU renderer.
#ifndef TRACKINK_GEOMETRY_CUH
#define TRACKINK_GEOMETRY_CUH

#include <float.h>

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

// sdf.Reach: how far from its centre line a stroke of width w covers pixels.
__device__ __forceinline__ float reach(float w) { return gmax(w, 1) / 2 + 0.5f; }

// sdf.Glow.Cover: coverage cov with the glow (1/radius inv, opacity op; both 0 for none)
// of a pixel at signed distance s from the stroke's edge.
__device__ __forceinline__ float glowCover(float cov, float s, float inv, float op) {
  float u = gmax(s, 0) * inv;
  float t = gmax(1 - u, 0);
  float k = t * t * op;
  return cov + (1 - cov) * k;
}

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

// sdf.Seg.Dist2T: the squared distance from p to the segment, and in *tOut the parameter of
// the segment's point nearest p.
__device__ __forceinline__ float segDist2T(const Seg& s, float px, float py, float* tOut) {
  float qx = px - s.ax, qy = py - s.ay;
  float t = gmin(gmax((qx * s.dx + qy * s.dy) * s.invL2, 0), 1);
  float ex = qx - t * s.dx, ey = qy - t * s.dy;
  *tOut = t;
  return ex * ex + ey * ey;
}

// sdf.Seg.Dist2: segDist2T without the parameter.
__device__ __forceinline__ float segDist2(const Seg& s, float px, float py) {
  float t;
  return segDist2T(s, px, py, &t);
}

// sdf.Seg.DashDist2: the squared distance to the dashes of the pattern (on, period) that
// lie on the segment of length l starting at arc length s0; FLT_MAX when none does.
__device__ __forceinline__ float segDashDist2(const Seg& s, float px, float py, float l, float s0, float on,
                                              float period) {
  float qx = px - s.ax, qy = py - s.ay;
  float t = (qx * s.dx + qy * s.dy) * s.invL2;
  float u = s0 + t * l;
  float end = s0 + l;
  float uc = gmin(gmax(u, s0), end);
  float a = floorf(uc / period) * period;
  float w = uc;
  float b = a + on;
  if (uc > b) {
    float next = a + period;
    bool before = b >= s0, after = next <= end;
    if (before && (!after || u - b <= next - u))
      w = b;
    else if (after)
      w = next;
    else
      return FLT_MAX;
  }
  float tw = 0;
  if (l > 0) tw = (w - s0) / l;
  float ex = qx - tw * s.dx, ey = qy - tw * s.dy;
  return ex * ex + ey * ey;
}

// sdf.QuarterArc: a quarter of a rounded box's outline.
__device__ __forceinline__ float quarterArc(float hx, float hy, float r) {
  return (hx - r) + (hy - r) + r * 1.57079632679489661923f;
}

// sdf.RoundBoxArc: the arc length, along the quarter of the outline in p's quadrant, of the
// outline's point nearest p. atan2 in double, as Go's math.Atan2.
__device__ __forceinline__ float roundBoxArc(float px, float py, float cx, float cy, float hx, float hy, float r) {
  float ax = fabsf(px - cx);
  float qx = ax - hx + r;
  float qy = fabsf(py - cy) - hy + r;
  if (qx > 0 && qy > 0) return (hx - r) + r * (float)atan2((double)qx, (double)qy);
  if (qy >= qx) return ax;
  return (hx - r) + r * 1.57079632679489661923f - qy;
}

// sdf.DashGap: how far u lies from the nearest dash centred on a multiple of period.
__device__ __forceinline__ float dashGap(float u, float on, float period) {
  float k = floorf(u / period + 0.5f);
  return gmax(fabsf(u - k * period) - on / 2, 0);
}

// curves.ChordLen.
__device__ __forceinline__ float chordLen(float ax, float ay, float bx, float by) {
  float dx = bx - ax, dy = by - ay;
  return sqrtf(dx * dx + dy * dy);
}

// sdf.RoundBox.
__device__ __forceinline__ float roundBox(float px, float py, float cx, float cy, float hx, float hy, float r) {
  float qx = fabsf(px - cx) - hx + r;
  float qy = fabsf(py - cy) - hy + r;
  float ox = gmax(qx, 0), oy = gmax(qy, 0);
  return sqrtf(ox * ox + oy * oy) + gmin(gmax(qx, qy), 0) - r;
}

// sdf.BandX: the x extent of the segment clipped to the band y0b ≤ y ≤ y1b.
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

// curves.Point: B(t).
__device__ __forceinline__ void curvePoint(const TkCurve& c, float t, float* x, float* y) {
  float u = 1 - t;
  *x = u * u * c.x0 + 2 * u * t * c.x1 + t * t * c.x2;
  *y = u * u * c.y0 + 2 * u * t * c.y1 + t * t * c.y2;
}

// curves.Chord: chord k (0-based) of a curve flattened into n chords, from B(k/n) to
// B((k+1)/n), the first starting exactly at p0.
__device__ __forceinline__ void chordOf(const TkCurve& c, int k, int n, float* x0, float* y0, float* x1, float* y1) {
  if (k == 0) {
    *x0 = c.x0;
    *y0 = c.y0;
  } else {
    curvePoint(c, (float)k / (float)n, x0, y0);
  }
  curvePoint(c, (float)(k + 1) / (float)n, x1, y1);
}

#endif  // TRACKINK_GEOMETRY_CUH
