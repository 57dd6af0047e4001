// lines.cu: straight strokes with round caps from their exact distance field, dashed ones
// from the distance to their dashes, each with the frame's glow; a solid gradient line
// takes at each pixel the colour at its nearest point of the segment. The twin of
// render.drawLines.
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
    bool dashed = l.dash.period > 0;
    bool gradient = l.gradient && !dashed;  // a dashed line takes its colour (render.drawLines)
    float dc[4] = {0, 0, 0, 0};             // render.strokeGradientRows' c1 − c0
    if (gradient) {
      layerColor(p, l.color1, l.color1);
      for (int c = 0; c < 4; c++) dc[c] = l.color1[c] - l.color[c];
    }
    float r = reach(l.width) + p->glowRadius, thin = thinScale(l.width);
    Seg seg = newSeg(l.x0, l.y0, l.x1, l.y1);
    float len = chordLen(l.x0, l.y0, l.x1, l.y1);  // a dashed line is a stroke of one chord
    for (int j = 0; j < TK_ROWS; j++) {
      int y = rowOf(j);
      if (y >= s.t.h) break;
      if (!segmentInReach(l.x0, l.y0, l.x1, l.y1, r, s.t.ox, s.t.oy, s.t.x, y)) continue;
      float pyc = (float)(s.t.oy + y) + 0.5f;
      float t = 0;
      float d2 = dashed ? segDashDist2(seg, pxc, pyc, len, l.dash.phase, l.dash.on, l.dash.period) : segDist2T(seg, pxc, pyc, &t);
      float sd = stroke(sqrtf(d2), l.width);
      float cov = glowCover(coverage(sd) * thin, sd, p->glowInv, p->glowOpacity);
      if (cov > 0) {
        if (gradient) {
          float col[4];
          for (int c = 0; c < 4; c++) col[c] = l.color[c] + dc[c] * t;
          over(s.px[j], col, cov);
        } else {
          over(s.px[j], l.color, cov);
        }
        s.dirty = true;
      }
    }
  }
  endTile(p, s);
}
