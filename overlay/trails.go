package overlay

import (
	"trackink/scene"
)

// Trails remembers where each track has been and draws the last frames of it as a smooth,
// fading stroke (like supervision's TraceAnnotator, but curved and anti-aliased).
//
// A trail is the track's positions in the last Length frames, oldest first, as a quadratic
// B-spline: the pieces run between the midpoints of consecutive positions with the positions
// as control points, which is smooth (C¹) where pieces meet; the first and last pieces are
// straight to the oldest and newest positions, so the trail ends at the point. The pieces
// form one joined stroke (see Curve), fading from transparent at the oldest position to the
// style's opacity at the newest. Positions closer than half a pixel to the previous one are
// skipped, so a stationary track has no trail instead of degenerate pieces, and a history of
// one position draws nothing. A track absent from a frame draws no trail there; its history
// ages out after Length frames.
//
// With Smooth > 0 the positions are first smoothed (smoothTrail in look.go) over Smooth
// positions either side, so the trail follows the track's path rather than its jitter.
type Trails struct {
	Smooth   int
	smoothed []trailPoint
	length   int
	tracks   map[int]*history
	scratch  []trailPoint
	frame    int
}

type history struct {
	pts  []trailPoint // ring buffer of the last length positions
	next int
}

type trailPoint struct {
	x, y  float32
	frame int
}

// NewTrails returns trails of the given length in frames (at least 2).
func NewTrails(length int) *Trails {
	return &Trails{length: length, tracks: make(map[int]*history)}
}

// Update records frame f's points. Frames must come in increasing order.
func (t *Trails) Update(f *scene.Frame) {
	t.frame = f.Index
	for i := range f.Points {
		p := &f.Points[i]
		h := t.tracks[p.ID]
		if h == nil {
			h = &history{pts: make([]trailPoint, 0, t.length)}
			t.tracks[p.ID] = h
		}
		tp := trailPoint{p.X, p.Y, f.Index}
		if len(h.pts) < t.length {
			h.pts = append(h.pts, tp)
		} else {
			h.pts[h.next] = tp
			h.next = (h.next + 1) % t.length
		}
	}
	// Forget tracks whose newest position has aged out, so the map does not grow forever.
	if f.Index%t.length == 0 {
		for id, h := range t.tracks {
			newest := h.pts[(h.next+len(h.pts)-1)%len(h.pts)]
			if newest.frame <= f.Index-t.length {
				delete(t.tracks, id)
			}
		}
	}
}

// AddTo appends the trails of frame f's points to p, width wide, each in the colour color
// gives its point (at the newest end; the trail fades from there).
func (t *Trails) AddTo(p *Primitives, f *scene.Frame, width float32, color func(*scene.Point) RGBA) {
	for i := range f.Points {
		pt := &f.Points[i]
		h := t.tracks[pt.ID]
		if h == nil {
			continue
		}
		q := t.scratch[:0]
		for k := range h.pts {
			tp := h.pts[(h.next+k)%len(h.pts)]
			if tp.frame <= t.frame-t.length {
				continue // older than the trail's length
			}
			if n := len(q); n > 0 {
				dx, dy := tp.x-q[n-1].x, tp.y-q[n-1].y
				if dx*dx+dy*dy < 0.25 {
					continue
				}
			}
			q = append(q, tp)
		}
		t.scratch = q
		if t.Smooth > 0 {
			t.smoothed = smoothTrail(q, t.Smooth, t.smoothed)
			q = t.smoothed
		}
		addTrail(p, q, t.frame, t.length, color(pt), width)
	}
}

// addTrail appends the B-spline through q as joined curves, fading with age.
func addTrail(p *Primitives, q []trailPoint, now, length int, c RGBA, width float32) {
	if len(q) < 2 {
		return
	}
	// Fade by age: 1 (gone) at length frames old, 0 now.
	fade := func(frame int) float32 { return float32(now-frame) / float32(length) }
	mid := func(a, b trailPoint) (float32, float32) { return (a.x + b.x) / 2, (a.y + b.y) / 2 }
	midFade := func(a, b trailPoint) float32 { return (fade(a.frame) + fade(b.frame)) / 2 }
	add := func(x0, y0, cx, cy, x2, y2, f0, f2 float32, joined bool) {
		p.Curves = append(p.Curves, Curve{X0: x0, Y0: y0, X1: cx, Y1: cy, X2: x2, Y2: y2,
			Width: width, Color: c, Fade0: f0, Fade1: f2, Joined: joined})
	}
	n := len(q) - 1
	if n == 1 {
		mx, my := mid(q[0], q[1])
		add(q[0].x, q[0].y, mx, my, q[1].x, q[1].y, fade(q[0].frame), fade(q[1].frame), false)
		return
	}
	// Straight lead-in from the oldest point to the first midpoint.
	m0x, m0y := mid(q[0], q[1])
	add(q[0].x, q[0].y, (q[0].x+m0x)/2, (q[0].y+m0y)/2, m0x, m0y, fade(q[0].frame), midFade(q[0], q[1]), false)
	for i := 1; i < n; i++ {
		ax, ay := mid(q[i-1], q[i])
		bx, by := mid(q[i], q[i+1])
		add(ax, ay, q[i].x, q[i].y, bx, by, midFade(q[i-1], q[i]), midFade(q[i], q[i+1]), true)
	}
	// Straight lead-out from the last midpoint to the newest point.
	mx, my := mid(q[n-1], q[n])
	add(mx, my, (mx+q[n].x)/2, (my+q[n].y)/2, q[n].x, q[n].y, midFade(q[n-1], q[n]), fade(q[n].frame), true)
}
