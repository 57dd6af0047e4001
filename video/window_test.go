package video

import (
	"testing"

	"github.com/asticode/go-astiav"
)

// A held copied packet is settled, copyPacket able to decide on it, once the window knows
// where it is cut: never before the start frame; with a frame-number End ahead, when it
// starts before the last frame admitted (the cut, the pts of the frame after End, lies
// beyond that frame) or is untimed; at once otherwise. Frames here are 10 apart from pts 0,
// in the packets' time base.
func TestWindowSettlesHeldPackets(t *testing.T) {
	tb := astiav.NewRational(1, 1000)
	for _, c := range []struct {
		name                 string
		startFrame, endFrame int
		admitted             int   // frames given to admit, from frame 1
		pts                  int64 // the packet's; NoPtsValue: untimed
		want                 bool
	}{
		{"before the start frame", 3, 0, 2, 0, false},
		{"start found, no end", 3, 0, 3, 25, true},
		{"end ahead, before the last frame admitted", 0, 5, 3, 15, true},
		{"end ahead, at the last frame admitted", 0, 5, 3, 20, false},
		{"end ahead, after the last frame admitted", 0, 5, 3, 27, false},
		{"end ahead, no frame admitted yet", 0, 5, 0, 0, false},
		{"end ahead, untimed", 0, 5, 3, astiav.NoPtsValue, true},
		{"start found, end ahead", 2, 5, 4, 25, true},
		{"end reached: the cut is known", 0, 5, 6, 57, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &window{startFrame: c.startFrame, endFrame: c.endFrame, startPts: astiav.NoPtsValue, endPts: astiav.NoPtsValue,
				cut: astiav.NoPtsValue, shown: astiav.NoPtsValue, copied: 1, past: map[int]bool{}}
			for v := 1; v <= c.admitted; v++ {
				w.admit(v, int64(v-1)*10)
			}
			p := astiav.AllocPacket()
			defer p.Free()
			p.SetPts(c.pts)
			p.SetDts(c.pts)
			if got := w.settled(p, tb, tb); got != c.want {
				t.Errorf("settled: %t, want %t", got, c.want)
			}
		})
	}
}

// Beyond maxHeld, hold hands back the oldest packet, in the order read: the caller frees it
// while the start frame is looked for and sends it on while the end frame is ahead.
func TestWindowHoldBound(t *testing.T) {
	w := &window{endFrame: 5, startPts: astiav.NoPtsValue, endPts: astiav.NoPtsValue, cut: astiav.NoPtsValue, shown: astiav.NoPtsValue, past: map[int]bool{}}
	defer w.free()
	for i := range maxHeld + 2 {
		p := astiav.AllocPacket()
		p.SetPts(int64(i))
		oldest := w.hold(p)
		switch {
		case i < maxHeld && oldest != nil:
			t.Fatalf("packet %d: hold handed back one of %d held", i, i)
		case i >= maxHeld && (oldest == nil || oldest.Pts() != int64(i-maxHeld)):
			t.Fatalf("packet %d: hold handed back %v, want the packet read %d before", i, oldest, maxHeld)
		}
		if oldest != nil {
			oldest.Free()
		}
	}
	if len(w.held) != maxHeld || w.held[0].Pts() != 2 {
		t.Errorf("%d held from pts %d, want %d from pts 2", len(w.held), w.held[0].Pts(), maxHeld)
	}
}
