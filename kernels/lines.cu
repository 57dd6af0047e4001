// lines.cu: straight strokes with round caps from their exact distance field, dashed ones
// from the distance to their dashes; the twin of render.drawLines.
#include "tile.cuh"

TK_KERNEL void tk_lines(const TkParams* p) {
  TileState s;
  if (!beginTile(p, TK_LINES, s)) return;
  const TkLine* lines = (const TkLine*)p->lines;
  const int32_t* idx = items(p, TK_LINES);
  float pxc = (float)(s.t.ox + s.t.x) + 0.5f;
  for (int e = s.lo; e < s.hi; e++) {
    TkLine l = lines[idx[e]];
    layerColor(p, l.color, l.color);
    float r = reach(l.width), thin = thinScale(l.width);
    Seg seg = newSeg(l.x0, l.y0, l.x1, l.y1);
    float len = chordLen(l.x0, l.y0, l.x1, l.y1);  // a dashed line is a stroke of one chord
    for (int j = 0; j < TK_ROWS; j++) {
      int y = rowOf(j);
      if (y >= s.t.h) break;
      if (!segmentInReach(l.x0, l.y0, l.x1, l.y1, r, s.t.ox, s.t.oy, s.t.x, y)) continue;
      float pyc = (float)(s.t.oy + y) + 0.5f;
      float d2 = l.dash.period > 0 ? segDashDist2(seg, pxc, pyc, len, 0, l.dash.on, l.dash.period)
                                   : segDist2(seg, pxc, pyc);
      float cov = coverage(stroke(sqrtf(d2), l.width)) * thin;
      if (cov > 0) {
        over(s.px[j], l.color, cov);
        s.dirty = true;
      }
    }
  }
  endTile(p, s);
}
