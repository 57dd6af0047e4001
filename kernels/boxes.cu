// boxes.cu: rounded boxes, fill and stroke in one pass, the stroke whole, dashed or in
// corner brackets; the twin of render.drawBox.
#include "tile.cuh"

// Outline is render's outline: a box stroke's pattern along each quarter of its outline.
struct Outline {
  float phase, on, period;
};

// boxOutline is render.boxOutline: brackets as one dash per quarter, dashes fitted a whole
// number of periods to a quarter; period 0 for the whole outline.
__device__ __forceinline__ Outline boxOutline(const TkBox& b, float hx, float hy) {
  float q = quarterArc(hx, hy, b.radius);
  Outline o = {0, 0, 0};
  if (b.bracket > 0) {
    float k = 1 - 2 * b.bracket;
    float u0 = gmin(hx * k, hx - b.radius);
    float u1 = q - gmin(hy * k, hy - b.radius);
    o.phase = (u0 + u1) / 2;
    o.on = u1 - u0;
    o.period = 4 * q;
  } else if (b.dash.period > 0) {
    float m = gmax(floorf(q / b.dash.period + 0.5f), 1);
    o.on = b.dash.on;
    o.period = q / m;
  }
  return o;
}

// shadeBox blends box b, its colours already in the layer's space, onto pixel (x, y) of the
// tile at (ox, oy), exactly as drawBox does
// for that pixel: outside the box's margin nothing; deeper inside than the stroke's reach
// (and its glow's, p's) the fill colour at coverage 1 (drawBox's fast path, same result);
// elsewhere fill and stroke coverage from the signed distance, the stroke with its glow over
// the fill as one colour. labels.cu draws label backgrounds (no stroke, so no glow) with it
// too.
__device__ bool shadeBox(const TkParams* p, const TkBox& b, int ox, int oy, int x, int y, float px[4]) {
  float m = boxMargin(b, p->glowRadius);
  float oxf = (float)ox, oyf = (float)oy;
  if (!inRange(y, b.y - m - oyf, b.y + b.h + m - oyf) || !inRange(x, b.x - m - oxf, b.x + b.w + m - oxf)) return false;
  float hx = b.w / 2, hy = b.h / 2;
  float cx = b.x + hx, cy = b.y + hy;
  // A fill thinner than a pixel is drawn one pixel thick at coverage × thickness.
  float fc[4] = {b.fill[0], b.fill[1], b.fill[2], b.fill[3]};
  float s = thinScale(b.w) * thinScale(b.h);
  if (s < 1) {
    for (int c = 0; c < 4; c++) fc[c] = fc[c] * s;
    hx = gmax(hx, 0.5f);
    hy = gmax(hy, 0.5f);
  }
  float thin = thinScale(b.stroke);
  bool hasStroke = b.stroke > 0;
  bool hasFill = !(b.fill[0] == 0 && b.fill[1] == 0 && b.fill[2] == 0 && b.fill[3] == 0);
  float e = 0.5f;
  if (hasStroke) e = gmax(b.stroke, 1) / 2 + 0.5f + p->glowRadius;
  float pxc = (float)(ox + x) + 0.5f, pyc = (float)(oy + y) + 0.5f;
  float dy = fabsf(pyc - cy);
  if (dy <= hy - e) {
    float inset = e;
    if (dy > hy - b.radius) inset = gmax(b.radius, e);
    if (inRange(x, b.x + inset - oxf, b.x + b.w - inset - oxf)) {
      if (!hasFill) return false;
      over(px, fc, 1);
      return true;
    }
  }
  float d = roundBox(pxc, pyc, cx, cy, hx, hy, b.radius);
  if (d >= e) return false;
  float cf = hasFill ? coverage(d) : 0;
  float sd = fabsf(d);  // the distance to the stroke: farther off the dashes of a pattern
  if (hasStroke) {
    Outline o = boxOutline(b, hx, hy);
    if (o.period > 0) {
      float g = dashGap(roundBoxArc(pxc, pyc, cx, cy, hx, hy, b.radius) - o.phase, o.on, o.period);
      sd = sqrtf(g * g + d * d);
    }
  }
  float ss = stroke(sd, b.stroke);
  float cs = hasStroke ? glowCover(coverage(ss) * thin, ss, p->glowInv, p->glowOpacity) : 0;
  float k = 1 - cs;
  float col[4];
  for (int c = 0; c < 4; c++) col[c] = b.strokeColor[c] * cs + fc[c] * cf * k;
  over(px, col, 1);
  return true;
}

TK_KERNEL void tk_boxes(const TkParams* p) {
  TileState s;
  if (!beginTile(p, TK_BOXES, s)) return;
  const TkBox* boxes = (const TkBox*)p->boxes;
  const int32_t* idx = items(p, TK_BOXES);
  for (int e = s.lo; e < s.hi; e++) {
    TkBox b = boxes[idx[e]];
    layerColor(p, b.fill, b.fill);
    layerColor(p, b.strokeColor, b.strokeColor);
    for (int j = 0; j < TK_ROWS; j++) {
      int y = rowOf(j);
      if (y >= s.t.h) break;
      if (shadeBox(p, b, s.t.ox, s.t.oy, s.t.x, y, s.px[j])) s.dirty = true;
    }
  }
  endTile(p, s);
}
