package tracker

import (
	"math"

	"trackink/detect"
	"trackink/scene"
)

// Association costs: a confirmed track wins a contested detection over a new one.
const (
	tentativePenalty = 0.5
	// A track's predicted box counts as inside a detection when this share of it is.
	insideShare = 0.5
	// A box below the start score costs this much more than a sure one, so that it only
	// takes a track no sure box can, and it must overlap the track's prediction by
	// lowScoreIoU (ByteTrack's second association).
	lowScorePenalty = 3
	lowScoreIoU     = 0.5
	// sizeQ scales the process noise of a detector's box size (Objects): the size of a
	// person or a car changes far more slowly than its position moves, while a network's
	// box size jitters from frame to frame. A thousandth of the position's noise (the
	// acceleration's standard deviation about 1/30 of the centre's) keeps boxes steady.
	sizeQ = 1e-3
)

// associate matches this frame's detections to the tracks, one to one, and advances every
// track: predicted, corrected by its detection, held on its prediction while merged with
// another, ended after Grace frames unseen; unmatched detections start new tracks.
func (t *Tracker) associate() {
	for i := range t.tracks {
		tr := &t.tracks[i]
		for k := range tr.k {
			tr.k[k].predict()
		}
		tr.det, tr.merged = -1, false
	}
	n, m := len(t.tracks), len(t.dets)
	t.taken = grow(t.taken, m)
	clear(t.taken)
	if n > 0 && m > 0 {
		gate := t.o.MaxMove * t.diag
		t.cost = grow(t.cost, n*m)
		for i := range t.tracks {
			tr := &t.tracks[i]
			p := tr.predicted()
			for j, d := range t.dets {
				dist := math.Hypot(d.cx()-p.cx(), d.cy()-p.cy())
				c := math.Inf(1)
				if dist <= gate {
					c = dist/gate + 1 - iou(p, d)
					if tr.id == 0 {
						c += tentativePenalty
					}
					if d.score < t.start {
						// ByteTrack's second association: an unsure box goes to a track
						// that no sure box fits, and only where it overlaps the track.
						c += lowScorePenalty
						if iou(p, d) < lowScoreIoU {
							c = math.Inf(1)
						}
					}
				}
				t.cost[i*m+j] = c
			}
		}
		for i, j := range t.solver.Solve(t.cost[:n*m], n, m) {
			t.tracks[i].det = j
		}
		t.merges()
	}
	for i := range t.tracks {
		tr := &t.tracks[i]
		switch {
		case tr.merged:
			// Held on its prediction while its region holds another track too.
			tr.holdSize()
		case tr.det >= 0:
			d := t.dets[tr.det]
			t.taken[tr.det] = true
			for k, z := range [4]float64{d.cx(), d.cy(), d.w(), d.h()} {
				tr.k[k].update(z)
			}
			tr.class, tr.score = d.class, d.score
			tr.hits++
			tr.misses = 0
			if tr.id == 0 && tr.hits >= t.o.Confirm {
				tr.id = t.nextID
				t.nextID++
			}
		default:
			tr.misses++
			tr.holdSize()
		}
	}
	// End the tracks lost for longer than the grace period, and the new ones not seen again.
	kept := t.tracks[:0]
	for _, tr := range t.tracks {
		if tr.misses == 0 || tr.id != 0 && tr.misses <= t.o.Grace {
			kept = append(kept, tr)
		}
	}
	t.tracks = kept
	for j, d := range t.dets {
		if !t.taken[j] && d.score >= t.start && !t.insideTrack(d) {
			t.startTrack(d)
		}
	}
	for i := range t.tracks {
		if tr := &t.tracks[i]; tr.id != 0 && tr.misses == 0 {
			t.out.Boxes = append(t.out.Boxes, t.box(tr))
		}
	}
}

// holdSize stops a track's size from changing while nothing measures it (merged with
// another, or lost): its position goes on along its velocity, but a size extrapolated over a
// crossing shrinks or swells into a box that fits nothing when the object comes out.
func (tr *track) holdSize() {
	tr.k[2].v, tr.k[3].v = 0, 0
}

// merges finds the detections that cover two or more confirmed tracks' predictions (objects
// that touch or cross, seen as one region) and holds those tracks on their predictions
// until the region splits again: updating one of them with the merged box would pull it to
// the middle of the pair and give its id to the wrong one afterwards.
func (t *Tracker) merges() {
	for j, d := range t.dets {
		inside := 0
		for i := range t.tracks {
			tr := &t.tracks[i]
			if tr.id != 0 && (tr.det < 0 || tr.det == j) && share(tr.predicted(), d) >= insideShare {
				inside++
			}
		}
		if inside < 2 {
			continue
		}
		t.taken[j] = true
		for i := range t.tracks {
			tr := &t.tracks[i]
			if tr.id != 0 && (tr.det < 0 || tr.det == j) && share(tr.predicted(), d) >= insideShare {
				tr.merged, tr.det = true, -1
			} else if tr.det == j {
				tr.det = -1 // a new track does not take a merged region
			}
		}
	}
}

// share is the fraction of a's area that lies inside b.
func share(a, b rect) float64 {
	iw := min(a.x1, b.x1) - max(a.x0, b.x0)
	ih := min(a.y1, b.y1) - max(a.y0, b.y0)
	if iw <= 0 || ih <= 0 {
		return 0
	}
	return iw * ih / max(a.w()*a.h(), 1e-9)
}

// insideTrack reports whether most of detection d lies inside a confirmed track seen this
// frame: a piece of an object that came apart (a walker's arm), not a new object.
func (t *Tracker) insideTrack(d rect) bool {
	for i := range t.tracks {
		tr := &t.tracks[i]
		if tr.id != 0 && tr.misses == 0 && share(d, tr.predicted()) >= insideShare {
			return true
		}
	}
	return false
}

func (t *Tracker) startTrack(d rect) {
	// The velocity is unknown: its variance lets the first match move it anywhere within
	// the gate.
	vv := math.Pow(t.o.MaxMove*t.diag, 2)
	tr := track{det: -1, hits: 1, class: d.class, score: d.score}
	for k, z := range [4]float64{d.cx(), d.cy(), d.w(), d.h()} {
		q, v := t.q, vv
		if k >= 2 && t.o.Mode == Objects {
			q, v = q*sizeQ, v*sizeQ
		}
		tr.k[k] = newKalman1(z, q, t.r, v)
	}
	if t.o.Confirm <= 1 {
		tr.id = t.nextID
		t.nextID++
	}
	t.tracks = append(t.tracks, tr)
}

// box is a track's smoothed box, clipped to the frame.
func (t *Tracker) box(tr *track) scene.Box {
	r := tr.predicted()
	x0, y0 := max(r.x0, 0), max(r.y0, 0)
	x1, y1 := min(r.x1, float64(t.w)), min(r.y1, float64(t.h))
	b := scene.Box{ID: tr.id, X: float32(x0), Y: float32(y0), W: float32(max(x1-x0, 0)), H: float32(max(y1-y0, 0))}
	if t.o.Mode == Objects {
		b.Class, b.Score, b.HasScore = detect.Classes[tr.class], tr.score, true
	}
	return b
}
