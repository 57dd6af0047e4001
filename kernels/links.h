// links.h is what the host and the link kernels (links.cu) share: the link update's
// parameter block (TkLinks, reached through TkParams.links) and its records.
// kernels/gpu/linklayout.go mirrors it field for field, and kernels/gpu's layout test checks
// sizes and offsets against the C compiler's (kernels/internal/clayout).
#ifndef TRACKINK_LINKS_H
#define TRACKINK_LINKS_H

#include <stdint.h>

#include "layout.h"

// TkLink.flags.
#define TK_LINK_DRAWN 1  // the link was drawn in the previous frame
#define TK_LINK_FITS 2   // it passes MaxDist and MaxDY (with the margin if it was not drawn)
#define TK_LINK_LOW 4    // it is among the MaxDegree first at its lower end
#define TK_LINK_HIGH 8   // … and at its higher end

// The four scans of a frame's link update (TkLinks.scans).
#define TK_SCAN_CELLS 0     // points per grid cell → each cell's first point
#define TK_SCAN_BUCKETS 1   // links per lower end → each bucket's first link
#define TK_SCAN_INCIDENT 2  // links per end point (MaxDegree) → each point's first incident link
#define TK_SCAN_KEPT 3      // links kept per lower end → each one's first output slot
#define TK_LINK_SCANS 4

// Where the unused link slots of the line and curve arrays lie: so far left of any frame that
// binning lists them in no tile.
#define TK_LINK_NOWHERE (-1e30f)

// TkPoint is a tracked point of the frame, in track id order (its index is its rank).
// color is the point's straight RGBA colour (overlay.PointColor), for the links' colours.
struct TkPoint {
  float x, y;
  int32_t id;
  uint8_t color[4];
};

// TkCellPoint is a point as the grid holds it, in cell order.
struct TkCellPoint {
  float x, y;
  int32_t rank;
};

// TkGrid is the frame's search grid, built on the device: the points' extent as ordered
// integer keys of their float32 coordinates (atomicMin/atomicMax), then the geometry that
// tk_links_grid derives from it, the CPU grid's (knn/search.go): cell (cx, cy) spans
// [minX + cx·cs, minX + (cx+1)·cs) × …, margin covers the rounding of the stopping test.
struct TkGrid {
  int32_t minXKey, maxXKey, minYKey, maxYKey;
  double minX, minY, cs, inv, margin;
  int32_t nx, ny;
};

// TkLink is a candidate link, in the bucket of its lower end a: a < b are ranks, d2 its
// squared length.
struct TkLink {
  double d2;
  int32_t a, b;
  int32_t flags;
  int32_t pad_;
};

// TkEdge is a drawn link by ranks, a < b; a frame's edges are sorted by (a, b).
struct TkEdge {
  int32_t a, b;
};

// TkLinkScan is one scan of the link update: tk_links_sums_* sums each TK_SCAN_CHUNK chunk of
// a (n elements, a[0] = 0 and a[i+1] the count of item i) into sums, tk_links_offsets_*
// turns the sums into each chunk's offset, tk_links_apply_* rewrites a as offsets.
struct TkLinkScan {
  uint64_t a;        // int32_t[n]
  uint64_t sums;     // int32_t[chunks(n)]
  uint64_t offsets;  // int32_t[chunks(n)]
  int32_t n, pad_;
};

// TkLinkFrame is what one frame keeps for the next one's hysteresis: its points, each
// point's k chosen neighbours (ranks) and the links it drew. The host alternates two of
// them, so a frame that runs again (a bin list overflowed) reads the same previous frame.
struct TkLinkFrame {
  uint64_t points;  // TkPoint[n]
  uint64_t sel;     // int32_t[n·k]
  uint64_t edges;   // TkEdge[n·k]: the links drawn, sorted
  uint64_t count;   // int32_t[1]: how many
  int32_t n, k;     // k = min(K, n−1); 0 when n < 2
};

// TkLinks is the link update's parameter block: the frame's options and every buffer.
// Counts and option values are the host's; capacities are fixed for a captured graph.
struct TkLinks {
  TkLinkFrame cur, prev;  // prev.n = 0 before the first frame
  int32_t hysteresis;     // 1 when h > 0
  int32_t maxDegree;      // 0 = off
  int32_t capDist, capDY;  // MaxDist, MaxDY on
  double f;               // (1+h)², 1 when h = 0
  double maxD2, maxDY2;   // MaxDist², MaxDY²
  // The link primitives: links 0, 1, … fill the first lineSlots lines and curveSlots curves
  // of TkParams' arrays (0: not drawn), in the style below; the slots past the frame's links
  // are placed at TK_LINK_NOWHERE.
  int32_t lineSlots, curveSlots;
  float lineWidth, curveWidth, bend, opacity;
  TkDash lineDash, curveDash;
  int32_t capCells;
  float fade;  // LinkStyle.Fade: links fade out with length, gone at fade px; 0: off

  uint64_t grid;        // TkGrid
  uint64_t cellOf;      // int32_t[n]: each rank's cell
  uint64_t cellStart;   // int32_t[capCells+1]: counts, then each cell's first point
  uint64_t cellFill;    // int32_t[capCells]: fill cursors
  uint64_t cellPoints;  // TkCellPoint[n], in cell order
  uint64_t nbr;         // int32_t[n·k]: the k nearest per rank, in (dist², rank) order
  uint64_t nd2;         // double[n·k]: their squared distances
  uint64_t selD2;       // double[n·k]: the squared distances of cur.sel
  uint64_t cur2prev;    // int32_t[n]: rank in the previous frame, −1 if absent
  uint64_t prev2cur;    // int32_t[prev.n]: the previous rank's rank now, −1 if absent
  uint64_t bucketStart; // int32_t[n+1]
  uint64_t bucketFill;  // int32_t[n]
  uint64_t bucket;      // TkLink[n·k]: the candidate links, by lower end
  uint64_t incStart;    // int32_t[n+1] (MaxDegree)
  uint64_t incFill;     // int32_t[n]
  uint64_t inc;         // int32_t[2·n·k]: each point's links, as indices into bucket
  uint64_t keepStart;   // int32_t[n+1]
  TkLinkScan scans[TK_LINK_SCANS];
};

#endif  // TRACKINK_LINKS_H
