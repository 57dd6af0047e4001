package video

import (
	"slices"

	"github.com/asticode/go-astiav"
)

// window is the part of the input that is rendered (Options.Start and End). Frames outside it
// are decoded and dropped (the input is not seeked, so a late Start still costs decoding up to
// it). With a Start the output is shifted to begin at 0, like ffmpeg -ss; copied streams are
// cut at packet boundaries to the same times.
type window struct {
	startFrame, endFrame int   // 1-based, inclusive; 0 when open
	startPts, endPts     int64 // video time base, [start, end); NoPtsValue when open
	hasStart             bool

	started bool
	ended   bool
	shift   int64 // subtracted from every output timestamp, video time base
	// keepTimestamps leaves shift at 0 whatever Start is: a segment keeps the input's
	// timestamps, and the join shifts them as the whole render does.
	keepTimestamps bool
	cut            int64 // copied packets from here on are dropped; NoPtsValue until known
	copied         int   // number of copied streams
	past           map[int]bool
	// shown is the pts of the last frame admitted; NoPtsValue before the first.
	shown int64
	// held are copied packets read before the window could cut them, in the order read: before
	// a frame-number Start was found, or while a frame-number End is still ahead (settled).
	held []*astiav.Packet
}

// maxHeld bounds the packets held back. While looking for the start frame, older ones are
// earlier than any frame the decoder still holds back, so they are outside the window anyway;
// while the end frame is ahead, the oldest is sent on uncut: its time would be ahead of the
// video by more than any decoder delay (512 AAC packets are 11 s at 48 kHz), so only a file
// whose streams are that far apart would see copied packets run past the End.
const maxHeld = 512

func newWindow(start, end Position, in *input, copied int) *window {
	vs := in.vs
	w := &window{startPts: astiav.NoPtsValue, endPts: astiav.NoPtsValue, cut: astiav.NoPtsValue, shown: astiav.NoPtsValue,
		copied: copied, past: map[int]bool{}, hasStart: !start.IsZero()}
	// Without a Start the output begins where the input's earliest stream does, at 0, as
	// ffmpeg shifts it: a transport stream's clock (1.4 s, or hours) would otherwise be an
	// empty edit at the head of the MP4, shown as a delay. A negative start (audio priming in
	// an edit list) is kept, as the muxers write it.
	if fileStart := in.fc.StartTime(); fileStart != astiav.NoPtsValue && fileStart > 0 {
		w.shift = astiav.RescaleQ(fileStart, astiav.NewRational(1, astiav.TimeBase), vs.TimeBase())
	}
	origin := vs.StartTime()
	if origin == astiav.NoPtsValue {
		origin = 0
	}
	toPts := func(p Position) int64 {
		return origin + astiav.RescaleQ(p.Time.Microseconds(), astiav.NewRational(1, 1000000), vs.TimeBase())
	}
	if start.IsTime {
		w.startPts = toPts(start)
		w.shift = w.startPts
	} else {
		w.startFrame = start.Frame
	}
	if end.IsTime {
		w.endPts = toPts(end)
		w.cut = w.endPts
	} else {
		w.endFrame = end.Frame
	}
	return w
}

// newResolvedWindow is the window a whole render ends with, for the copied streams of a join:
// the render's frames are already known, so nothing is held back; packets are shifted by
// shift, cut from cut on (NoPtsValue: nowhere), and with a Start dropped before shift.
func newResolvedWindow(shift, cut int64, hasStart bool, copied int) *window {
	return &window{startPts: astiav.NoPtsValue, endPts: astiav.NoPtsValue, shown: astiav.NoPtsValue, hasStart: hasStart, started: true,
		shift: shift, cut: cut, copied: copied, past: map[int]bool{}}
}

// admit decides whether video frame v with presentation time pts is rendered.
func (w *window) admit(v int, pts int64) bool {
	if w.ended {
		return false
	}
	if (w.startFrame > 0 && v < w.startFrame) || (w.startPts != astiav.NoPtsValue && pts < w.startPts) {
		return false
	}
	if (w.endFrame > 0 && v > w.endFrame) || (w.endPts != astiav.NoPtsValue && pts >= w.endPts) {
		w.ended = true
		if w.cut == astiav.NoPtsValue {
			w.cut = pts
		}
		return false
	}
	if !w.started && w.startFrame > 0 && !w.keepTimestamps {
		w.shift = pts
	}
	w.started = true
	w.shown = pts
	return true
}

// waiting reports whether copied packets must be held until the start frame is found.
func (w *window) waiting() bool { return w.startFrame > 0 && !w.started }

// endAhead reports whether the window ends at a frame number not yet reached: where copied
// streams are cut is not known yet.
func (w *window) endAhead() bool { return w.endFrame > 0 && !w.ended }

// holding reports whether a copied packet read now is held back rather than sent on.
func (w *window) holding() bool { return w.waiting() || w.endAhead() }

// hold keeps a copied packet back. Beyond maxHeld it returns the oldest held one, which the
// caller frees while waiting (it is before the window) and sends on otherwise.
func (w *window) hold(p *astiav.Packet) (oldest *astiav.Packet) {
	if len(w.held) == maxHeld {
		oldest = w.held[0]
		w.held = slices.Delete(w.held, 0, 1)
	}
	w.held = append(w.held, p)
	return oldest
}

// settled reports whether copyPacket can decide on held packet p now (tb is its stream's time
// base, vtb the video's): once the start frame is found, at once unless the window ends at a
// frame not yet reached; before that, if p starts before the last frame admitted, which is
// before the cut. An untimed packet travels with its neighbours: it is settled once those
// read before it are (held packets go in the order read).
func (w *window) settled(p *astiav.Packet, tb, vtb astiav.Rational) bool {
	if w.waiting() {
		return false
	}
	if !w.endAhead() {
		return true
	}
	t := packetTime(p)
	return t == astiav.NoPtsValue || (w.shown != astiav.NoPtsValue && astiav.RescaleQ(t, tb, vtb) < w.shown)
}

// unhold removes the first n held packets, which the caller has taken.
func (w *window) unhold(n int) { w.held = slices.Delete(w.held, 0, n) }

// packetTime is a copied packet's time in its stream's time base: its pts, else its dts, else
// NoPtsValue.
func packetTime(p *astiav.Packet) int64 {
	if t := p.Pts(); t != astiav.NoPtsValue {
		return t
	}
	return p.Dts()
}

// copyPacket decides whether a copied packet lies in the window and shifts its timestamps.
// tb is its stream's time base, vtb the video's.
func (w *window) copyPacket(p *astiav.Packet, tb, vtb astiav.Rational) bool {
	t := packetTime(p)
	if t == astiav.NoPtsValue {
		return !w.ended // untimed packets travel with their neighbours
	}
	tv := astiav.RescaleQ(t, tb, vtb)
	if w.cut != astiav.NoPtsValue && tv >= w.cut {
		w.past[p.StreamIndex()] = true
		return false
	}
	if w.hasStart && tv < w.shift {
		return false
	}
	if w.shift != 0 {
		s := astiav.RescaleQ(w.shift, vtb, tb)
		if p.Pts() != astiav.NoPtsValue {
			p.SetPts(p.Pts() - s)
		}
		if p.Dts() != astiav.NoPtsValue {
			p.SetDts(p.Dts() - s)
		}
	}
	return true
}

// copiedDone reports whether every copied stream has passed the end of the window, so the
// demuxer can stop reading.
func (w *window) copiedDone() bool { return w.ended && len(w.past) >= w.copied }

// free drops packets still held (a run that never reached its start frame, or that failed).
func (w *window) free() {
	for _, p := range w.held {
		p.Free()
	}
	w.held = nil
}
