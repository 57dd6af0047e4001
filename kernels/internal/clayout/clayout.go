// Package clayout reports the C compiler's layout of kernels/layout.h (sizes and offsets),
// for kernels/gpu's test that holds the Go twins of its records to it: a test file cannot
// use cgo itself. It is test tooling, imported by no production code.
package clayout

// layout.h is C++ (its structs are named without "struct"), so the table is in clayout.cc.

// #cgo CXXFLAGS: -std=c++17
// long tk_layout(int i);
// long tk_links_layout(int i);
import "C"

// layout.h lives in package kernels, whose embedded sources make this package rebuild when
// it changes (see kernels/sources.go).
import _ "trackink/kernels"

// Entry returns entry i of the table above: sizeof TkParams, TkLabel, TkGlyph, TkBox,
// TkLine, TkCurve, TkScan, then the offsets of TkParams' capEntries, boxes, chordStart,
// binItems, status, scans, plane0, stride0 and space, TkLabel's color and background
// and TkGlyph's mask, TkParams' glowRadius, TkLine's color1 and gradient, TkParams'
// echoLayers, echoOffset, transparency and binFill; -1 past the end.
func Entry(i int) int { return int(C.tk_layout(C.int(i))) }

// LinksEntry returns entry i of links.h's table: sizeof TkPoint, TkCellPoint, TkGrid,
// TkLink, TkEdge, TkLinkScan, TkLinkFrame, TkLinks, then the offsets of TkPoint's color,
// TkGrid's minX and nx, TkLink's flags, TkLinkFrame's n, TkLinks' prev, hysteresis, f,
// lineSlots, opacity, capCells, grid, keepStart and scans, and TkParams' links; -1 past
// the end.
func LinksEntry(i int) int { return int(C.tk_links_layout(C.int(i))) }
