package gpu

import (
	"unsafe"

	"trackink/scene"
)

// The Go twins of kernels/links.h's records. linklayout_test.go compares every size and
// offset with the C compiler's (kernels/internal/clayout).

// Scans of the link update (TK_SCAN_CELLS …).
const (
	scanCells, scanBuckets, scanIncident, scanKept = 0, 1, 2, 3
	linkScans                                      = 4
)

type tkPoint struct {
	X, Y  float32
	ID    int32
	Color scene.Color
}

type tkEdge struct{ A, B int32 }

type tkLinkScan struct {
	A, Sums, Offsets uint64
	N, _             int32
}

type tkLinkFrame struct {
	Points, Sel, Edges, Count uint64
	N, K                      int32
}

type tkLinks struct {
	Cur, Prev                            tkLinkFrame
	Hysteresis, MaxDegree                int32
	CapDist, CapDY                       int32
	F, MaxD2, MaxDY2                     float64
	LineSlots, CurveSlots                int32
	LineWidth, CurveWidth, Bend, Opacity float32
	LineDash, CurveDash                  [3]float32 // overlay.Dash: on, period, phase
	CapCells                             int32
	Fade                                 float32 // overlay.LinkStyle.Fade
	Grid, CellOf, CellStart, CellFill    uint64
	CellPoints, Nbr, Nd2, SelD2          uint64
	Cur2Prev, Prev2Cur                   uint64
	BucketStart, BucketFill, Bucket      uint64
	IncStart, IncFill, Inc, KeepStart    uint64
	Scans                                [linkScans]tkLinkScan
}

// Records only the kernels read and write; the host needs their sizes.
type tkCellPoint struct {
	X, Y float32
	Rank int32
}

type tkGrid struct {
	MinXKey, MaxXKey, MinYKey, MaxYKey int32
	MinX, MinY, Cs, Inv, Margin        float64
	Nx, Ny                             int32
}

type tkLink struct {
	D2          float64
	A, B, Flags int32
	_           int32
}

// Sizes of the records the link buffers hold, and of the parameter block.
const (
	pointBytes     = int(unsafe.Sizeof(tkPoint{}))
	cellPointBytes = int(unsafe.Sizeof(tkCellPoint{}))
	gridBytes      = int(unsafe.Sizeof(tkGrid{}))
	linkBytes      = int(unsafe.Sizeof(tkLink{}))
	edgeBytes      = int(unsafe.Sizeof(tkEdge{}))
	sizeofLinks    = unsafe.Sizeof(tkLinks{})
)
