package gpu

import (
	"errors"
	"fmt"
	"math"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// deviceLinks is the link update on the device (kernels/links.cu): knn.Graph.Update's rules
// as kernels, with the previous frame's state kept in device memory, followed by the link
// primitives overlay.Build would make. Its launches open the frame's captured graph
// (Backend.DrawLinked) or make a graph of their own (LinkGraph). Per frame the host orders
// and checks the points (knn.Order, O(n), no sort when they come in id order, as trackers
// write them), uploads them by rank with their colours and writes the parameter block;
// nothing comes back from the device before the frame is drawn.
//
// The state of a frame (its points, each point's chosen neighbours, the links it drew)
// lives in one of two sets of buffers, alternating frame by frame: the frame reads the
// other set and writes its own, so a frame that runs again (Backend.Draw, when a bin list
// overflowed) reads the same previous frame. commit makes the frame the previous one.
type deviceLinks struct {
	dev  device.Device
	opts knn.Options
	// block is the parameter block (TkLinks) on the device; rec its host copy, an
	// allocation of its own as the driver copies from it (cgo refuses memory that shares a
	// Go object with Go pointers).
	block device.Ptr
	rec   *tkLinks
	pts   []tkPoint // this frame's points by rank, for the upload
	perm  []int32   // this frame's ranks → indices into the caller's slice
	last  []int32   // the same for the last committed frame (edges)
	bufs  linkBuffers
	state [2]linkState
	cur   int // state[cur] is this frame's

	n, k         int  // this frame's points and neighbours per point (min(K, n−1); 0 if n < 2)
	prevN, prevK int  // the previous frame's (0 before the first)
	committed    bool // a frame has run
	lineSlots    int  // the link slots at the start of the lines and curves (0: not drawn)
	curveSlots   int
	style        overlay.LinkStyle

	// capN is the points the buffers and the launch grids are sized for: a new capture
	// when it grows.
	capN int
}

// linkBuffers are the link update's working buffers (links.h names what each holds). The
// four scans run one after another and share one pair of scratch arrays.
type linkBuffers struct {
	grid, cellOf, cellStart, cellFill, cellPoints buf
	nbr, nd2, selD2, cur2prev, prev2cur           buf
	bucketStart, bucketFill, bucket               buf
	incStart, incFill, inc, keepStart             buf
	sums, offsets                                 buf
}

// linkState is what one frame keeps for the next (TkLinkFrame).
type linkState struct{ points, sel, edges, count buf }

// newDeviceLinks returns the link update with opts on dev; its buffers come with the first
// frame.
func newDeviceLinks(dev device.Device, opts knn.Options) (*deviceLinks, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if !opts.OnDevice() {
		return nil, fmt.Errorf("gpu: the device builds kNN links only, not %s: build them on the host (knn.Graph) and draw them as lines", opts.Graph)
	}
	l := &deviceLinks{dev: dev, opts: opts, rec: new(tkLinks)}
	var err error
	if l.block, err = dev.Alloc(int(sizeofLinks)); err != nil {
		return nil, err
	}
	return l, nil
}

// cells is the grid's cell capacity for capN points: the CPU's geometry makes at most
// 1.5n + 1 cells (tk_links_grid enlarges the cells should rounding ever ask for more).
func (l *deviceLinks) cells() int { return 2*l.capN + 2 }

// frame starts a frame: it orders and checks the points, stages them with the colours
// they lend their links (colors[i] for pts[i]) for the upload and sizes every buffer. With
// a style (nil: compute the links only, for LinkGraph, and colors may be nil) the links are
// also drawn: lines and curves take the first lineSlots and curveSlots slots.
func (l *deviceLinks) frame(pts []scene.Point, colors []scene.Color, style *overlay.LinkStyle) error {
	if style != nil && len(colors) != len(pts) {
		return fmt.Errorf("gpu: links: %d colours for %d points", len(colors), len(pts))
	}
	var err error
	if l.perm, err = knn.Order(pts, l.perm); err != nil {
		return err
	}
	l.n, l.k = len(pts), 0
	if l.n >= 2 {
		l.k = min(l.opts.K, l.n-1)
	}
	l.pts = l.pts[:0]
	for _, i := range l.perm {
		p := &pts[i]
		if int(int32(p.ID)) != p.ID {
			return fmt.Errorf("gpu: links: track id %d does not fit the device's 32-bit ids", p.ID)
		}
		t := tkPoint{X: p.X, Y: p.Y, ID: int32(p.ID)}
		if colors != nil {
			t.Color = colors[i]
		}
		l.pts = append(l.pts, t)
	}
	l.lineSlots, l.curveSlots = 0, 0
	if style != nil {
		l.style = *style
		if style.LineWidth > 0 {
			l.lineSlots = l.n * l.k // at most one link per point and choice
		}
		if style.CurveWidth > 0 {
			l.curveSlots = l.n * l.k
		}
	}
	c := grow(l.capN, l.n)
	if c*l.opts.K > maxLinkSlots {
		return fmt.Errorf("gpu: links: %d points with k = %d are more than the device's buffers index", l.n, l.opts.K)
	}
	l.capN = c
	nk := l.capN * l.opts.K
	b := &l.bufs
	st := &l.state[l.cur]
	for _, e := range []struct {
		b *buf
		n int
	}{
		{&b.grid, gridBytes}, {&b.cellOf, 4 * l.capN}, {&b.cellStart, 4 * (l.cells() + 1)},
		{&b.cellFill, 4 * l.cells()}, {&b.cellPoints, cellPointBytes * l.capN},
		{&b.nbr, 4 * nk}, {&b.nd2, 8 * nk}, {&b.selD2, 8 * nk}, {&b.cur2prev, 4 * l.capN}, {&b.prev2cur, 4 * l.capN},
		{&b.bucketStart, 4 * (l.capN + 1)}, {&b.bucketFill, 4 * l.capN}, {&b.bucket, linkBytes * nk},
		{&b.incStart, 4 * (l.capN + 1)}, {&b.incFill, 4 * l.capN}, {&b.inc, 8 * nk}, {&b.keepStart, 4 * (l.capN + 1)},
		{&b.sums, 4 * chunks(l.cells()+1)}, {&b.offsets, 4 * chunks(l.cells()+1)},
		// The previous frame's state keeps its buffers: it is read this frame.
		{&st.points, pointBytes * l.capN}, {&st.sel, 4 * nk}, {&st.edges, edgeBytes * nk}, {&st.count, 4},
	} {
		if err := e.b.ensure(l.dev, e.n); err != nil {
			return err
		}
	}
	return nil
}

// upload writes the frame's points and parameter block to the device.
func (l *deviceLinks) upload() error {
	b := &l.bufs
	cur, prev := &l.state[l.cur], &l.state[1-l.cur]
	h := l.opts.Hysteresis
	scan := func(a buf, n int) tkLinkScan {
		return tkLinkScan{A: uint64(a.ptr), Sums: uint64(b.sums.ptr), Offsets: uint64(b.offsets.ptr), N: int32(n)}
	}
	r := tkLinks{
		Cur: tkLinkFrame{Points: uint64(cur.points.ptr), Sel: uint64(cur.sel.ptr), Edges: uint64(cur.edges.ptr),
			Count: uint64(cur.count.ptr), N: int32(l.n), K: int32(l.k)},
		Prev: tkLinkFrame{Points: uint64(prev.points.ptr), Sel: uint64(prev.sel.ptr), Edges: uint64(prev.edges.ptr),
			Count: uint64(prev.count.ptr), N: int32(l.prevN), K: int32(l.prevK)},
		MaxDegree: int32(l.opts.MaxDegree),
		F:         (1 + h) * (1 + h),
		MaxD2:     l.opts.MaxDist * l.opts.MaxDist, MaxDY2: l.opts.MaxDY * l.opts.MaxDY,
		LineSlots: int32(l.lineSlots), CurveSlots: int32(l.curveSlots),
		LineWidth: l.style.LineWidth, CurveWidth: l.style.CurveWidth, Bend: l.style.Bend, Opacity: l.style.Opacity,
		LineDash:  [3]float32{l.style.LineDash.On, l.style.LineDash.Period, l.style.LineDash.Phase},
		CurveDash: [3]float32{l.style.CurveDash.On, l.style.CurveDash.Period, l.style.CurveDash.Phase},
		CapCells:  int32(l.cells()), Fade: l.style.Fade,
		Grid: uint64(b.grid.ptr), CellOf: uint64(b.cellOf.ptr), CellStart: uint64(b.cellStart.ptr),
		CellFill: uint64(b.cellFill.ptr), CellPoints: uint64(b.cellPoints.ptr),
		Nbr: uint64(b.nbr.ptr), Nd2: uint64(b.nd2.ptr), SelD2: uint64(b.selD2.ptr),
		Cur2Prev: uint64(b.cur2prev.ptr), Prev2Cur: uint64(b.prev2cur.ptr),
		BucketStart: uint64(b.bucketStart.ptr), BucketFill: uint64(b.bucketFill.ptr), Bucket: uint64(b.bucket.ptr),
		IncStart: uint64(b.incStart.ptr), IncFill: uint64(b.incFill.ptr), Inc: uint64(b.inc.ptr),
		KeepStart: uint64(b.keepStart.ptr),
	}
	if h > 0 {
		r.Hysteresis = 1
	}
	if l.opts.MaxDist > 0 {
		r.CapDist = 1
	}
	if l.opts.MaxDY > 0 {
		r.CapDY = 1
	}
	r.Scans[scanCells] = scan(b.cellStart, l.cells()+1)
	r.Scans[scanBuckets] = scan(b.bucketStart, l.n+1)
	r.Scans[scanIncident] = scan(b.incStart, l.n+1)
	r.Scans[scanKept] = scan(b.keepStart, l.n+1)
	*l.rec = r
	if err := l.dev.CopyIn(cur.points.ptr, bytesOf(l.pts)); err != nil {
		return err
	}
	return l.dev.CopyIn(l.block, structBytes(l.rec))
}

// record queues the link update's launches through launch, each with the parameter block
// of the caller (whose links field points at this update's block). The grids cover capN
// points, not this frame's count: threads past it return at once, so a captured graph
// serves every frame up to capN. Hysteresis and MaxDegree are fixed for the update's
// life, so their kernels are left out of the graph when off.
func (l *deviceLinks) record(launch func(kernel string, grid, block device.Dim3) error) error {
	per := func(threads int) device.Dim3 {
		return device.Dim3{X: uint32(max(1, (threads+binThreads-1)/binThreads)), Y: 1, Z: 1}
	}
	lin := device.Dim3{X: binThreads, Y: 1, Z: 1}
	one := device.Dim3{X: 1, Y: 1, Z: 1}
	n, cells := l.capN, l.cells()
	scans := func(name string, elems int) []linkLaunch {
		g := per(chunks(elems))
		return []linkLaunch{{"tk_links_sums_" + name, g, lin}, {"tk_links_offsets_" + name, g, lin}, {"tk_links_apply_" + name, g, lin}}
	}
	steps := []linkLaunch{
		{"tk_links_clear", per(cells + 1), lin},
		{"tk_links_extent", per(chunks(n)), lin},
		{"tk_links_grid", one, one},
		{"tk_links_cells", per(n), lin},
	}
	steps = append(steps, scans("cells", cells+1)...)
	steps = append(steps, linkLaunch{"tk_links_fill", per(n), lin}, linkLaunch{"tk_links_search", per(n), lin})
	if l.opts.Hysteresis > 0 {
		steps = append(steps, linkLaunch{"tk_links_match", per(n), lin})
	}
	steps = append(steps, linkLaunch{"tk_links_choose", per(n), lin}, linkLaunch{"tk_links_count", per(n), lin})
	steps = append(steps, scans("buckets", n+1)...)
	steps = append(steps, linkLaunch{"tk_links_bucket", per(n), lin}, linkLaunch{"tk_links_caps", per(n), lin})
	if l.opts.MaxDegree > 0 {
		steps = append(steps, scans("incident", n+1)...)
		steps = append(steps, linkLaunch{"tk_links_incident", per(n), lin}, linkLaunch{"tk_links_degree", per(n), lin})
	}
	steps = append(steps, linkLaunch{"tk_links_keep", per(n), lin})
	steps = append(steps, scans("kept", n+1)...)
	steps = append(steps, linkLaunch{"tk_links_emit", per(n), lin}, linkLaunch{"tk_links_blank", per(n * l.opts.K), lin})
	for _, s := range steps {
		if err := launch(s.kernel, s.grid, s.block); err != nil {
			return fmt.Errorf("%s: %w", s.kernel, err)
		}
	}
	return nil
}

// linkLaunch is one launch of the link update.
type linkLaunch struct {
	kernel      string
	grid, block device.Dim3
}

// commit makes this frame the previous one, once it has run.
func (l *deviceLinks) commit() {
	l.prevN, l.prevK, l.committed = l.n, l.k, true
	l.cur = 1 - l.cur
	l.perm, l.last = l.last, l.perm
}

// count returns the number of links the last committed frame drew (0 before the first).
func (l *deviceLinks) count() (int, error) {
	if !l.committed {
		return 0, nil
	}
	var c [1]int32
	if err := l.dev.CopyOut(bytesOf(c[:]), l.state[1-l.cur].count.ptr); err != nil {
		return 0, err
	}
	return int(c[0]), nil
}

// edges returns the links of the last committed frame as knn.Graph.Update does: indices
// into the points that frame was given, sorted by track ids, appended to out[:0].
func (l *deviceLinks) edges(out []knn.Edge) ([]knn.Edge, error) {
	out = out[:0]
	n, err := l.count()
	if err != nil || n == 0 {
		return out, err
	}
	if n > l.prevN*l.prevK {
		return out, fmt.Errorf("gpu: links: the device reports %d links of %d points", n, l.prevN)
	}
	es := make([]tkEdge, n)
	if err := l.dev.CopyOut(bytesOf(es), l.state[1-l.cur].edges.ptr); err != nil {
		return out, err
	}
	for _, e := range es {
		out = append(out, knn.Edge{A: l.last[e.A], B: l.last[e.B]})
	}
	return out, nil
}

// maxLinkSlots bounds capN·K: the kernels index the link buffers (2·n·K incident entries
// at most) with 32-bit integers.
const maxLinkSlots = math.MaxInt32 / 2

// StartLinks implements overlay.LinkBackend: from now on the backend builds the links of
// the points DrawLinked gives it, on the device, with opts (knn's rules; opts.Backend, the
// host's search, does not apply).
func (g *Backend) StartLinks(opts knn.Options) error {
	if g.dev == nil {
		return errors.New("gpu: StartLinks after Close")
	}
	if g.links != nil {
		return errors.New("gpu: StartLinks twice")
	}
	l, err := newDeviceLinks(g.dev, opts)
	if err != nil {
		return err
	}
	g.links = l
	return nil
}

// DrawLinked implements overlay.LinkBackend: one captured graph updates the links of f's
// points, builds their lines and curves ahead of p's own, and draws the frame.
func (g *Backend) DrawLinked(dst composite.Surface, p *overlay.Primitives, f *overlay.LinkFrame) error {
	switch {
	case g.dev == nil:
		return errors.New("gpu: Draw after Close")
	case g.links == nil:
		return errors.New("gpu: DrawLinked before StartLinks")
	}
	if err := g.links.frame(f.Points, f.Colors, &f.Style); err != nil {
		return err
	}
	if err := g.draw(dst, p); err != nil {
		return err
	}
	g.links.commit()
	return nil
}

// Links implements overlay.LinkBackend: the number of links the last DrawLinked drew.
func (g *Backend) Links() (int, error) {
	if g.links == nil {
		return 0, errors.New("gpu: Links before StartLinks")
	}
	return g.links.count()
}

// linkSlots returns the line and curve slots the links of this frame take (0, 0 when the
// host built the links).
func (g *Backend) linkSlots() (lines, curves int) {
	if g.links == nil {
		return 0, 0
	}
	return g.links.lineSlots, g.links.curveSlots
}
