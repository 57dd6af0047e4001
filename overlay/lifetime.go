package overlay

import (
	"slices"

	"trackink/scene"
)

// growFrom is the size a box starts growing in from, and shrinks out to, with Style.Fade: a
// share of its own.
const growFrom = 0.85

// lifetime applies Style.MinLife and Style.Fade to the frames a Drawer draws, before their
// links are found: it leaves out the boxes and points of tracks younger than MinLife frames,
// gives each box the opacity and size it fades and grows in with over its first Fade drawn
// frames, and keeps drawing a track's last box for Fade frames after it ends, fading and
// shrinking out. Tracks already there in the first frame drawn are there from the start:
// they neither wait for MinLife nor fade in (a render from the middle of a video, or a
// segment, begins with what is in view). It only looks back, so a frame is drawn the same
// whether the render streams (render --detect) or reads a whole file.
type lifetime struct {
	minLife, fade int
	start         int         // the first frame seen
	prev          int         // the last frame seen
	first         map[int]int // track id → the first frame it appeared in
	last          map[int]lastBox
	out           scene.Frame
	// fades holds, per box of out, its opacity and size as shares of its own: 1, 1 when
	// nothing fades. Empty when nothing does.
	fades  []boxFade
	fading []int // this frame: ids of last fading out
}

type lastBox struct {
	box   scene.Box
	frame int
}

type boxFade struct{ alpha, scale float32 }

func newLifetime(s Style) *lifetime {
	if s.MinLife <= 1 && s.Fade == 0 {
		return nil
	}
	return &lifetime{minLife: max(s.MinLife, 1), fade: s.Fade, start: -1, first: map[int]int{}, last: map[int]lastBox{}}
}

// apply returns what of f is drawn, with fades set; frames must come in order.
func (l *lifetime) apply(f *scene.Frame) *scene.Frame {
	// A frame with nothing tracked comes as an empty frame with no index: it is the one
	// after the last (the Drawer sees every frame of the video, in order).
	n := f.Index
	if n == 0 {
		n = l.prev + 1
	}
	l.prev = n
	if l.start < 0 {
		l.start = n
	}
	o := &l.out
	o.Index = f.Index
	o.Boxes, o.Points, l.fades = o.Boxes[:0], o.Points[:0], l.fades[:0]
	for i := range f.Boxes {
		l.seen(f.Boxes[i].ID, n)
	}
	for i := range f.Points {
		l.seen(f.Points[i].ID, n)
	}
	for _, b := range f.Boxes {
		shown, t := l.shown(b.ID, n)
		if !shown {
			continue
		}
		o.Boxes = append(o.Boxes, b)
		l.fades = append(l.fades, fadeAt(t))
		if b.ID != scene.NoID && l.fade > 0 {
			l.last[b.ID] = lastBox{b, n}
		}
	}
	for _, p := range f.Points {
		if shown, _ := l.shown(p.ID, n); shown {
			o.Points = append(o.Points, p)
		}
	}
	// Tracks drawn before and not now fade out over Fade frames, in id order (the map's
	// order would move their labels about).
	l.fading = l.fading[:0]
	for id, lb := range l.last {
		switch gone := n - lb.frame; {
		case gone > l.fade:
			delete(l.last, id)
		case gone > 0:
			l.fading = append(l.fading, id)
		}
	}
	slices.Sort(l.fading)
	for _, id := range l.fading {
		lb := l.last[id]
		o.Boxes = append(o.Boxes, lb.box)
		l.fades = append(l.fades, fadeAt(1-float32(n-lb.frame)/float32(l.fade+1)))
	}
	if n%1024 == 0 {
		for id, first := range l.first {
			if _, fading := l.last[id]; !fading && first < n-1024 && !l.inFrame(id, f) {
				delete(l.first, id)
			}
		}
	}
	return o
}

func (l *lifetime) seen(id, frame int) {
	if id == scene.NoID {
		return
	}
	if _, ok := l.first[id]; !ok {
		l.first[id] = frame
	}
}

// shown says whether track id is drawn in frame, and how far it has faded in, 0..1.
func (l *lifetime) shown(id, frame int) (bool, float32) {
	if id == scene.NoID {
		return true, 1
	}
	first := l.first[id]
	if first == l.start {
		return true, 1
	}
	drawn := frame - first + 1 - (l.minLife - 1) // the frames it has been drawn in, this one too
	if drawn < 1 {
		return false, 0
	}
	if l.fade == 0 {
		return true, 1
	}
	return true, min(1, float32(drawn)/float32(l.fade+1))
}

func (l *lifetime) inFrame(id int, f *scene.Frame) bool {
	for i := range f.Boxes {
		if f.Boxes[i].ID == id {
			return true
		}
	}
	for i := range f.Points {
		if f.Points[i].ID == id {
			return true
		}
	}
	return false
}

// fadeAt is the opacity and size of a box t of the way in (0 none, 1 whole).
func fadeAt(t float32) boxFade {
	return boxFade{alpha: t, scale: growFrom + (1-growFrom)*t}
}
