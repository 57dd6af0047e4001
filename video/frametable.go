package video

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/asticode/go-astiav"
)

// ErrUnsegmentable means the input's video cannot be cut into segments exactly: its packets
// do not say which frame is which (docs/segments.md §1). Such a video renders whole.
var ErrUnsegmentable = errors.New("video: cannot be rendered in segments")

// frameTable is the rendered video stream's frames in presentation order, from one pass over
// its packets without decoding: frame v (1-based) is the packet with the v-th smallest pts.
// A segment that starts decoding mid-file numbers its frames from it exactly as a render
// that decodes from the start and counts them; it also gives the keyframes to seek to, the
// gaps between frames, and a fingerprint of the stream. Reading it costs a few percent of
// decoding the file (no decoding, only the demuxer).
type frameTable struct {
	pts  []int64 // sorted: frame v's pts is pts[v-1]
	keys []int64 // the keyframes' pts, sorted
	// fingerprint is a SHA-256 of every packet's pts, dts, size and flags in file order.
	fingerprint string
}

// readFrameTable reads every packet of in's video stream, from where in is (a freshly opened
// input: the start), to the end; the other streams are discarded. It refuses, with
// ErrUnsegmentable, a stream whose frames it cannot number exactly: a packet without pts
// (raw H.264, some AVI), two packets with the same pts, a corrupt packet, a first packet
// that is not a keyframe (a capture cut mid-GOP: the decoder drops frames before the first
// keyframe, so frame counts would differ), and a video with B-frames whose packets' pts are
// in decoding order (an AVI with B-frames remuxed: the decoder's frames do not come out in
// the order of their pts, so no pts says which frame is which; docs/segments.md §1).
func readFrameTable(in *input) (*frameTable, error) {
	for _, s := range in.fc.Streams() {
		if s.Index() != in.vs.Index() {
			discardStream(s)
		}
	}
	// A remux gives packets without pts their dts as pts: right where frames come out in the
	// order they are decoded, wrong where B-frames reorder them (refused below as such).
	reorders := reordersFrames(in.vs)
	remux := "render it whole, or remux it first into a container with timestamps: ffmpeg -i IN -c copy OUT.mp4"
	if reorders {
		remux = reencodeHint
	}
	refuse := func(hint, format string, a ...any) error {
		return fmt.Errorf("%w: %s: %s (%s)", ErrUnsegmentable, in.path, fmt.Sprintf(format, a...), hint)
	}
	t := &frameTable{}
	inOrder := true // every packet's pts above the ones before it in the file
	h := sha256.New()
	var rec [8 + 8 + 4 + 4]byte
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	for n := 0; ; {
		err := in.fc.ReadFrame(pkt)
		if errors.Is(err, astiav.ErrEof) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("video: reading the packets of %s: %w", in.path, err)
		}
		if pkt.StreamIndex() != in.vs.Index() {
			pkt.Unref()
			continue
		}
		n++
		pts, flags := pkt.Pts(), pkt.Flags()
		binary.LittleEndian.PutUint64(rec[0:], uint64(pts))
		binary.LittleEndian.PutUint64(rec[8:], uint64(pkt.Dts()))
		binary.LittleEndian.PutUint32(rec[16:], uint32(pkt.Size()))
		binary.LittleEndian.PutUint32(rec[20:], uint32(flags))
		h.Write(rec[:])
		pkt.Unref()
		switch {
		case n == 1 && !flags.Has(astiav.PacketFlagKey):
			return nil, fmt.Errorf("%w: %s: its first video packet is not a keyframe (cut mid-GOP?): render it whole", ErrUnsegmentable, in.path)
		case flags.Has(astiav.PacketFlagCorrupt):
			return nil, refuse(remux, "video packet %d is marked corrupt", n)
		case pts == astiav.NoPtsValue:
			return nil, refuse(remux, "video packet %d has no presentation timestamp", n)
		case flags.Has(astiav.PacketFlagDiscard):
			continue // before an MP4 edit list's start: the decoder drops its frame
		}
		if len(t.pts) > 0 && pts < t.pts[len(t.pts)-1] {
			inOrder = false
		}
		t.pts = append(t.pts, pts)
		if flags.Has(astiav.PacketFlagKey) {
			t.keys = append(t.keys, pts)
		}
	}
	if len(t.pts) == 0 {
		return nil, fmt.Errorf("video: %s has no video packets", in.path)
	}
	if reorders && inOrder {
		// The decoder puts frames in presentation order by itself and stamps them from
		// pts and dts by a guess whose outcome depends on the frames decoded before: a
		// segment starting mid-file would number them otherwise than a whole render counts
		// them.
		return nil, refuse(reencodeHint, "its %s video has B-frames, but its packets' timestamps are in decoding order (as a remux of an AVI with B-frames writes them), so they do not say which frame is which",
			in.vs.CodecParameters().CodecID())
	}
	slices.Sort(t.pts)
	slices.Sort(t.keys)
	for i := 1; i < len(t.pts); i++ {
		if t.pts[i] == t.pts[i-1] {
			return nil, refuse(reencodeHint, "two video packets have pts %d", t.pts[i])
		}
	}
	t.fingerprint = hex.EncodeToString(h.Sum(nil))
	return t, nil
}

// reencodeHint is what to do with a video whose packets' timestamps do not number its frames
// and which a remux (-c copy) would keep so: B-frames whose order no pts says (ffmpeg gives a
// packet without pts its dts), two frames with one pts. A re-encode writes new timestamps, one
// frame apart at the video's frame rate, in presentation order; -qp 0 keeps the pixels, and
// setpts every frame (without it the ffmpeg CLI drops a frame whose timestamp does not
// increase, which shifts the tracks after it: 269 frames of Megamind.avi's 270 remuxed).
const reencodeHint = "render it whole, or re-encode it first, losslessly and with new timestamps at its frame rate, and render that in segments: ffmpeg -i IN -vf setpts=N/FRAME_RATE/TB -c:v libx264 -qp 0 -c:a copy OUT.mkv; a remux (-c copy) keeps the timestamps as they are"

// frames is the number of frames.
func (t *frameTable) frames() int { return len(t.pts) }

// frameAt returns the number of the frame with this pts, and false if no frame has it.
func (t *frameTable) frameAt(pts int64) (int, bool) {
	i, ok := slices.BinarySearch(t.pts, pts)
	return i + 1, ok
}

// keyframeFor returns the pts of the last keyframe at or before frame v: where decoding
// frame v can start. False when none is (only leading pictures before the first keyframe).
func (t *frameTable) keyframeFor(v int) (int64, bool) {
	i, found := slices.BinarySearch(t.keys, t.pts[v-1])
	if found {
		return t.keys[i], true
	}
	if i == 0 {
		return 0, false
	}
	return t.keys[i-1], true
}

// gap is frame v's exact duration: the time to the next frame (v below the last).
func (t *frameTable) gap(v int) int64 { return t.pts[v] - t.pts[v-1] }
