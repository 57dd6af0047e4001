// labels.cu: label backgrounds (rounded boxes, boxes.cu's shadeBox) and their glyphs,
// sampled from the glyph atlas the host built from overlay.Font; the twin of
// render.drawLabels. The host lays the glyphs out (text layout is a few dozen glyphs per
// frame); the device only copies mask coverage.
#include "tile.cuh"

TK_KERNEL void TK_BOUNDS(TK_BLOCK_X * TK_BLOCK_Y, 3) tk_labels(const TkParams* p) {
  TileState s;
  if (!beginTile(p, TK_LABELS, s)) return;
  const TkLabel* labels = (const TkLabel*)p->labels;
  const TkGlyph* glyphs = (const TkGlyph*)p->glyphs;
  const uint8_t* atlas = (const uint8_t*)p->atlas;
  const int32_t* idx = items(p, TK_LABELS);
  int fx = s.t.ox + s.t.x;
  for (int e = s.lo; e < s.hi; e++) {
    const TkLabel& l = labels[idx[e]];
    TkBox bg;
    bg.x = (float)l.x;
    bg.y = (float)l.y;
    bg.w = (float)l.w;
    bg.h = (float)l.h;
    bg.radius = (float)(l.w < l.h ? l.w : l.h) / 4;
    bg.stroke = 0;
    bg.dash.on = bg.dash.period = bg.bracket = 0;
    layerColor(p, l.background, bg.fill);
    for (int c = 0; c < 4; c++) bg.strokeColor[c] = 0;
    float text[4], outline[4];
    layerColor(p, l.color, text);
    layerColor(p, l.outlineColor, outline);
    // With an outline, the first half of the glyphs are its own, drawn before the text.
    int mid = l.outline > 0 ? l.glyph0 + (l.glyph1 - l.glyph0) / 2 : l.glyph0;
    for (int j = 0; j < TK_ROWS; j++) {
      int y = rowOf(j);
      if (y >= s.t.h) break;
      if (shadeBox(p, bg, s.t.ox, s.t.oy, s.t.x, y, s.px[j])) s.dirty = true;
      int fy = s.t.oy + y;
      for (int gi = l.glyph0; gi < l.glyph1; gi++) {
        const TkGlyph& g = glyphs[gi];
        if (fx < g.x || fx >= g.x + g.w || fy < g.y || fy >= g.y + g.h) continue;
        int m = atlas[g.mask + (fy - g.y) * g.w + (fx - g.x)];
        if (m != 0) {
          over(s.px[j], gi < mid ? outline : text, (float)m * (1.0f / 255));
          s.dirty = true;
        }
      }
    }
  }
  endTile(p, s);
}
