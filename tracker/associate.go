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
	// sideMargin, in analysis pixels, is how much nearer a side of a merged region one
	// track's side must lie than any other's for the side to be that track's (sideOwner):
	// closer sides cannot be told apart in a mask, whose edges the motion mode's
	// neighbourhood mean blurs by motionRadius each way.
	sideMargin = 2 * motionRadius
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
	t.associated++
	for i := range t.tracks {
		tr := &t.tracks[i]
		for k := range tr.k {
			tr.k[k].predict()
		}
		tr.det, tr.region, tr.sides = -1, -1, 0
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
					if t.o.Mode == Objects && d.class != tr.class {
						// A box of another class is another object, unless it overlaps
						// the track as the track's own box would: its class misread (a car
						// taken for a truck for a frame). It then costs more, as an unsure
						// box does: a box of the track's class that fits comes first.
						c += lowScorePenalty
						if iou(p, d) < lowScoreIoU {
							c = math.Inf(1)
						}
					}
				}
				t.cost[i*m+j] = c
			}
		}
		if t.o.Mode == Objects {
			t.notTheirs()
		}
		for i, j := range t.solver.Solve(t.cost[:n*m], n, m) {
			t.tracks[i].det = j
		}
		t.merges()
	}
	for i := range t.tracks {
		tr := &t.tracks[i]
		switch {
		case tr.region >= 0:
			// Its region holds another track too: measured by the sides of the region
			// that are its own, coasting otherwise.
			t.measureSides(tr)
			tr.holdSize()
			tr.held++
			if tr.misses > 0 && t.o.Mode == Objects {
				// Lost before it was held (merges): the hold keeps the box from it, but it
				// is not seen, and ends after Grace frames unseen all the same.
				tr.misses++
			}
		case tr.det >= 0:
			tr.held = 0
			d := t.dets[tr.det]
			t.taken[tr.det] = true
			for k, z := range [4]float64{d.cx(), d.cy(), d.w(), d.h()} {
				tr.k[k].update(z)
			}
			tr.class, tr.score = d.class, d.score
			tr.cut = t.bordersOf(d)
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
	// End the tracks lost for longer than the grace period, the new ones not seen again,
	// and those whose box has left the picture.
	kept := t.tracks[:0]
	for _, tr := range t.tracks {
		if (tr.misses == 0 || tr.id != 0 && tr.misses <= t.o.Grace) && t.inPicture(tr.predicted()) {
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
// that touch or cross, seen as one region) and holds those tracks, at their sizes, until
// the region splits again: updating one of them with the merged box would pull it to the
// middle of the pair and give its id to the wrong one afterwards. In the region modes a
// region is such a merge only if its sides are explained by the tracks, and each side
// that is one track's own measures that track (measureSides); the hold lasts as long as the
// region does.
//
// A detector's box (Objects) is one object's, not the union of the objects' regions, and
// its sides are not theirs. It is taken for a merge of tracks (one of them in front of the
// others, or a group seen as one) only where it could be theirs (mergesIn: of its class,
// each a quarter of its area or more) and their boxes cover half of it; otherwise it is
// another object, larger than they (a bus passing in front of two people), and notTheirs
// keeps it from them. Nor is the hold kept for as long as the box lasts: after Grace frames
// held without a box of its own, a track is associated as any other, takes the box if it
// matches it best, or is lost, not drawn, and ends after Grace frames more. A track lost
// before it is held is not drawn, and its Grace goes on counting while it is held.
func (t *Tracker) merges() {
	objects := t.o.Mode == Objects
	for j, d := range t.dets {
		inside, covered := 0, 0.0
		for i := range t.tracks {
			tr := &t.tracks[i]
			if (tr.det < 0 || tr.det == j) && t.mergesIn(tr, d) {
				if tr.region < 0 { // a track already merged in another region stays in that one
					tr.region = j
				}
				inside++
				covered += intersection(tr.predicted(), d)
			}
		}
		// A detector's box is held without its sides, where its tracks fill half of it.
		if inside < 2 || objects && covered < insideShare*d.w()*d.h() || !objects && !t.explained(j) {
			for i := range t.tracks {
				if tr := &t.tracks[i]; tr.region == j {
					tr.region = -1
				}
			}
			continue
		}
		t.taken[j] = true
		for i := range t.tracks {
			if tr := &t.tracks[i]; tr.region == j || tr.det == j {
				tr.det = -1 // a new track does not take a merged region either
			}
		}
		if !objects {
			for s := range 4 {
				if i := t.sideOwner(j, s); i >= 0 {
					t.tracks[i].sides |= 1 << s
				}
			}
		}
	}
}

// mergesIn reports whether track tr may be held in a merge in detection d (merges): it is
// confirmed and its prediction lies inside d by insideShare. In Objects, also: it is of d's
// class, it fits d (fits), and it has not been held for Grace frames since it last had a box
// of its own.
func (t *Tracker) mergesIn(tr *track, d rect) bool {
	if tr.id == 0 || share(tr.predicted(), d) < insideShare {
		return false
	}
	return t.o.Mode != Objects || tr.class == d.class && fits(tr.predicted(), d) && tr.held < t.o.Grace
}

// fits reports whether box p, a track's prediction, could be all or a good part of what a
// detector's box d shows: it covers at least a quarter of d's area (half its width by half
// its height). Two people side by side make a box of twice the area of each, one in front
// of the other a box about the size of each; a person the box holds within a quarter of it
// is behind or beside something larger, not what the box shows.
func fits(p, d rect) bool {
	return p.w()*p.h() >= insideShare*insideShare*d.w()*d.h()
}

// notTheirs (Objects) forbids, in the cost matrix, the pairs of a detector's box that covers
// the predictions of two or more confirmed tracks of its class (by insideShare) with those
// of them that it is not the box of: the tracks that do not fit it (fits), and all of them
// where those that could be held in it (mergesIn), two or more, do not cover half of it.
// Such a box is another object than they, larger (a bus passing in front of two people):
// they are lost behind it, while it is free to continue its own track or start one. (A box
// of another class is kept from a track by its cost.)
func (t *Tracker) notTheirs() {
	m := len(t.dets)
	for j, d := range t.dets {
		over, inside, covered := 0, 0, 0.0
		for i := range t.tracks {
			tr := &t.tracks[i]
			if tr.id != 0 && tr.class == d.class && share(tr.predicted(), d) >= insideShare {
				over++
			}
			if t.mergesIn(tr, d) {
				inside++
				covered += intersection(tr.predicted(), d)
			}
		}
		if over < 2 {
			continue
		}
		larger := inside >= 2 && covered < insideShare*d.w()*d.h()
		for i := range t.tracks {
			tr := &t.tracks[i]
			p := tr.predicted()
			if tr.id != 0 && tr.class == d.class && share(p, d) >= insideShare && (!fits(p, d) || larger && t.mergesIn(tr, d)) {
				t.cost[i*m+j] = math.Inf(1)
			}
		}
	}
}

// explained reports whether every side of detection j lies near a side of the tracks
// merged in it: no further than (1 − insideShare) of the nearest track's extent across it.
// A side that none explains is the side of something more than those tracks: an object
// entering the frame whose pieces became tracks, or one grown past its held size.
//
// A track last seen cut by the frame's border (track.cut) is of an object that reaches
// beyond the frame, or did: how far it reaches there is not known, only that the region's
// side on that border is its object's. That side is explained by such a track when it is
// the nearest. Its size unknown, the sides cannot tell two objects from the pieces of one
// entering object; so a region holding such a track must also be covered by its tracks'
// boxes by insideShare, as each of them lies in the region by insideShare.
func (t *Tracker) explained(j int) bool {
	d := t.dets[j]
	covered, cut := 0.0, false
	for i := range t.tracks {
		if tr := &t.tracks[i]; tr.region == j {
			covered += intersection(tr.predicted(), d)
			cut = cut || tr.cut != 0
		}
	}
	if cut && covered < insideShare*d.w()*d.h() {
		return false
	}
	borders := t.bordersOf(d)
	for s := range 4 {
		i, e, _ := t.nearestSide(j, s)
		if i < 0 {
			return false
		}
		if borders&t.tracks[i].cut&(1<<s) != 0 {
			continue
		}
		p := t.tracks[i].predicted()
		if e > (1-insideShare)*(side(p, s%2+2)-side(p, s%2)) {
			return false
		}
	}
	return true
}

// measureSides corrects a track merged in a region with other tracks by the sides of the
// region that are its own (sideOwner): owning both sides of an axis, it is measured at their
// middle; owning one, there at its held size, with twice the noise (a centre found from one
// side has the variance of that side, from two the half of it); owning neither, it coasts
// along that axis.
func (t *Tracker) measureSides(tr *track) {
	d, p := t.dets[tr.region], tr.predicted()
	for a := range 2 {
		lo, hi := tr.sides&(1<<a) != 0, tr.sides&(1<<(a+2)) != 0
		size := side(p, a+2) - side(p, a)
		switch {
		case lo && hi:
			tr.k[a].update((side(d, a) + side(d, a+2)) / 2)
		case lo:
			tr.k[a].updateNoise(side(d, a)+size/2, 2*tr.k[a].r)
		case hi:
			tr.k[a].updateNoise(side(d, a+2)-size/2, 2*tr.k[a].r)
		}
	}
}

// sideOwner returns the track merged in detection j that side s of the detection (side's
// numbering) belongs to: each side of a region of several objects is a side of one of
// them, the one whose predicted side lies nearest it. It returns -1 when another track's
// side lies within sideMargin of that one's: which object makes the side is then not known.
func (t *Tracker) sideOwner(j, s int) int {
	i, first, second := t.nearestSide(j, s)
	if second-first < sideMargin*float64(t.factor) {
		return -1
	}
	return i
}

// nearestSide returns the track merged in detection j whose predicted side s (side's
// numbering) lies nearest the detection's, its distance, and the next nearest distance;
// -1 and infinities when none is merged in it.
func (t *Tracker) nearestSide(j, s int) (best int, first, second float64) {
	at := side(t.dets[j], s)
	best, first, second = -1, math.Inf(1), math.Inf(1)
	for i := range t.tracks {
		if tr := &t.tracks[i]; tr.region == j {
			e := math.Abs(side(tr.predicted(), s) - at)
			if e < first {
				best, first, second = i, e, first
			} else if e < second {
				second = e
			}
		}
	}
	return best, first, second
}

// bordersOf returns the sides of r (side's numbering, bit s for side s) that lie on the
// border of the analysed picture: what r holds may go on out of view there.
func (t *Tracker) bordersOf(r rect) uint8 {
	w, h := float64(t.w/t.factor*t.factor), float64(t.h/t.factor*t.factor)
	var b uint8
	for s, on := range [4]bool{r.x0 <= 0, r.y0 <= 0, r.x1 >= w, r.y1 >= h} {
		if on {
			b |= 1 << s
		}
	}
	return b
}

// side returns r's side s: 0 left, 1 top, 2 right, 3 bottom.
func side(r rect, s int) float64 {
	return [4]float64{r.x0, r.y0, r.x1, r.y1}[s]
}

// share is the fraction of a's area that lies inside b.
func share(a, b rect) float64 {
	return intersection(a, b) / max(a.w()*a.h(), 1e-9)
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
	tr := track{det: -1, region: -1, hits: 1, class: d.class, score: d.score}
	for k, z := range [4]float64{d.cx(), d.cy(), d.w(), d.h()} {
		q, v := t.q, vv
		if k >= 2 && t.o.Mode == Objects {
			q, v = q*sizeQ, v*sizeQ
		}
		tr.k[k] = newKalman1(z, q, t.r, v)
	}
	// What the tracker sees in its first frame has no history to doubt it by: confirmed at
	// once, as ByteTrack activates the tracks of a sequence's first frame, so that what is in
	// view when tracking begins has its box from there.
	if t.o.Confirm <= 1 || t.associated == 1 {
		tr.id = t.nextID
		t.nextID++
	}
	t.tracks = append(t.tracks, tr)
}

// clip returns the part of r inside the frame; its width or height is 0 where there is none.
func (t *Tracker) clip(r rect) rect {
	w, h := float64(t.w), float64(t.h)
	return rect{x0: min(max(r.x0, 0), w), y0: min(max(r.y0, 0), h), x1: min(max(r.x1, 0), w), y1: min(max(r.y1, 0), h)}
}

// inPicture reports whether box r holds at least a pixel's width and height of the
// frame. A track's box is the part of its object in view, which a region or a detector's
// box never exceeds; a track whose box has left the picture (held or predicted along its
// velocity, or smoothed past the border an object leaves by) has no object in view, and
// ends (associate): otherwise it would be drawn clipped to nothing, outside the picture.
func (t *Tracker) inPicture(r rect) bool {
	c := t.clip(r)
	return c.w() >= 1 && c.h() >= 1
}

// box is a track's smoothed box, clipped to the frame (at least a pixel each way: inPicture).
func (t *Tracker) box(tr *track) scene.Box {
	r := t.clip(tr.predicted())
	b := scene.Box{ID: tr.id, X: float32(r.x0), Y: float32(r.y0), W: float32(r.w()), H: float32(r.h())}
	if t.o.Mode == Objects {
		b.Class, b.Score, b.HasScore = detect.Classes[tr.class], tr.score, true
	}
	return b
}
