// clayout.cc: the table behind clayout.Entry, compiled as C++ like the kernels.
#include <cstddef>

#include "../../layout.h"

extern "C" long tk_layout(int i) {
  const long v[] = {
      (long)sizeof(TkParams),              (long)sizeof(TkLabel),                (long)sizeof(TkGlyph),
      (long)sizeof(TkBox),                 (long)sizeof(TkLine),                 (long)sizeof(TkCurve),
      (long)sizeof(TkScan),                (long)offsetof(TkParams, capEntries), (long)offsetof(TkParams, boxes),
      (long)offsetof(TkParams, chordStart), (long)offsetof(TkParams, binItems),  (long)offsetof(TkParams, status),
      (long)offsetof(TkParams, scans),     (long)offsetof(TkParams, plane0),     (long)offsetof(TkParams, stride0),
      (long)offsetof(TkParams, space),     (long)offsetof(TkLabel, color),       (long)offsetof(TkLabel, background),
      (long)offsetof(TkGlyph, mask),       (long)offsetof(TkParams, glowRadius), (long)offsetof(TkLine, color1),
      (long)offsetof(TkLine, gradient),     (long)offsetof(TkParams, echoLayers), (long)offsetof(TkParams, echoOffset),
      (long)offsetof(TkParams, transparency), (long)offsetof(TkParams, binFill),
  };
  return i >= 0 && i < (int)(sizeof(v) / sizeof(v[0])) ? v[i] : -1;
}

// tk_links_layout is the table behind clayout.LinksEntry: links.h's records.
#include "../../links.h"

extern "C" long tk_links_layout(int i) {
  const long v[] = {
      (long)sizeof(TkPoint),                  (long)sizeof(TkCellPoint),             (long)sizeof(TkGrid),
      (long)sizeof(TkLink),                   (long)sizeof(TkEdge),                  (long)sizeof(TkLinkScan),
      (long)sizeof(TkLinkFrame),              (long)sizeof(TkLinks),                 (long)offsetof(TkPoint, color),
      (long)offsetof(TkGrid, minX),           (long)offsetof(TkGrid, nx),            (long)offsetof(TkLink, flags),
      (long)offsetof(TkLinkFrame, n),         (long)offsetof(TkLinks, prev),         (long)offsetof(TkLinks, hysteresis),
      (long)offsetof(TkLinks, f),             (long)offsetof(TkLinks, lineSlots),    (long)offsetof(TkLinks, opacity),
      (long)offsetof(TkLinks, capCells),      (long)offsetof(TkLinks, grid),         (long)offsetof(TkLinks, keepStart),
      (long)offsetof(TkLinks, scans),         (long)offsetof(TkParams, links),
  };
  return i >= 0 && i < (int)(sizeof(v) / sizeof(v[0])) ? v[i] : -1;
}
