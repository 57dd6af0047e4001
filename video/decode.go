package video

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/internal/prose"
)

// decoder turns the video stream's packets into frames, in software or on NVDEC.
type decoder struct {
	cc    *astiav.CodecContext
	hwPix astiav.PixelFormat // the CUDA surface format, or PixelFormatNone in software
	name  string             // "cuda" or "none", for Stats
	// send, in software with frame threads, runs the calls that block while those are busy
	// on a thread of the decoder's own (nil: every call is made directly).
	send *codecThread
	sink *logSink // FFmpeg's lines while it decodes
}

// openDecoder opens the video decoder. hwaccel "cuda" must get a CUDA device or fail; "auto"
// tries and falls back to software with one log line.
func openDecoder(in *input, hwaccel string, logf func(string), sink *logSink) (*decoder, error) {
	par := in.vs.CodecParameters()
	codec := astiav.FindDecoder(par.CodecID())
	if codec == nil {
		return nil, fmt.Errorf("video: no decoder for codec %s", par.CodecID())
	}
	d := &decoder{cc: astiav.AllocCodecContext(codec), hwPix: astiav.PixelFormatNone, name: "none", sink: sink}
	if d.cc == nil {
		return nil, errors.New("video: allocating the decoder context failed")
	}
	if err := par.ToCodecContext(d.cc); err != nil {
		d.close()
		return nil, fmt.Errorf("video: configuring decoder %s: %w", codec.Name(), err)
	}
	setPktTimebase(d.cc, in.vs.TimeBase())
	if hwaccel != "none" {
		if err := d.useCUDA(codec, par, sink); err != nil {
			if hwaccel == "cuda" {
				d.close()
				return nil, fmt.Errorf("video: hwaccel cuda: %w", err)
			}
			logf(fmt.Sprintf("hwaccel auto: CUDA unavailable (%v); decoding in software", err))
		}
	}
	if d.hwPix == astiav.PixelFormatNone {
		// thread_count 0 means one thread per core, as the ffmpeg CLI does; the library
		// default is a single thread.
		d.cc.SetThreadCount(0)
		d.cc.SetThreadType(astiav.ThreadTypeFrame | astiav.ThreadTypeSlice)
	}
	sink.capture()
	err := d.cc.Open(codec, nil)
	if why := sink.release(); err != nil {
		d.close()
		return nil, fmt.Errorf("video: opening decoder %s: %w%s", codec.Name(), err, because(why))
	}
	if d.hwPix == astiav.PixelFormatNone && frameThreaded(d.cc) {
		if d.send, err = newCodecThread(d.cc, decodeThreadName); err != nil {
			d.close()
			return nil, err
		}
	}
	return d, nil
}

// useCUDA attaches a CUDA device to the decoder. NVDEC hands back NV12 for 8-bit 4:2:0 and
// P010 for 10-bit 4:2:0 only, so other sources stay in software.
func (d *decoder) useCUDA(codec *astiav.Codec, par *astiav.CodecParameters, sink *logSink) error {
	hwPix := astiav.PixelFormatNone
	for _, cfg := range codec.HardwareConfigs() {
		if cfg.MethodFlags().Has(astiav.CodecHardwareConfigMethodFlagHwDeviceCtx) && cfg.HardwareDeviceType() == astiav.HardwareDeviceTypeCUDA {
			hwPix = cfg.PixelFormat()
			break
		}
	}
	if hwPix == astiav.PixelFormatNone {
		return fmt.Errorf("decoder %s has no CUDA support", codec.Name())
	}
	switch par.PixelFormat() {
	case astiav.PixelFormatYuv420P, astiav.PixelFormatYuvj420P, astiav.PixelFormatNv12,
		astiav.PixelFormatYuv420P10Le, astiav.PixelFormatP010Le:
	default:
		return fmt.Errorf("the CUDA path decodes 8- and 10-bit 4:2:0 only, the stream is %s", par.PixelFormat())
	}
	// The device's primary context, which the cuda backend uses too, so that the overlay
	// can address decoded frames (Options.DeviceFrames).
	opts := astiav.NewDictionary()
	defer opts.Free()
	if err := opts.Set("primary_ctx", "1", 0); err != nil {
		return err
	}
	sink.capture()
	hdc, err := astiav.CreateHardwareDeviceContext(astiav.HardwareDeviceTypeCUDA, "", opts)
	if why := sink.release(); err != nil {
		return fmt.Errorf("creating a CUDA device: %w%s", err, because(why))
	}
	d.cc.SetHardwareDeviceContext(hdc)
	d.cc.SetPixelFormatCallback(func(offered []astiav.PixelFormat) astiav.PixelFormat {
		for _, pf := range offered {
			if pf == hwPix {
				return pf
			}
		}
		// The stream needs something NVDEC can't do (a profile, a size): take the software
		// format; the converter handles either kind of frame.
		return offered[len(offered)-1]
	})
	d.hwPix, d.name = hwPix, "cuda"
	return nil
}

// hostFormat is the pixel format of the decoder's frames in host memory: the stream's, or
// what NVDEC's frames download as (NV12, or P010 for 10-bit).
func (d *decoder) hostFormat(par *astiav.CodecParameters) astiav.PixelFormat {
	if d.hwPix == astiav.PixelFormatNone {
		return par.PixelFormat()
	}
	if isTenBit(par.PixelFormat()) {
		return astiav.PixelFormatP010Le
	}
	return astiav.PixelFormatNv12
}

func (d *decoder) close() {
	d.send.free()
	d.cc.SetPixelFormatCallback(nil)
	d.cc.Free()
}

// decodeStage demuxes the input: video packets are decoded, cut to the window (Options.Start,
// End), made writable in the work format and sent on; packets of copied streams go to the
// muxer, cut to the same window, held back while it cannot cut them yet (window.holding). It
// is the only goroutine that touches the demuxer and the decoder.
type decodeStage struct {
	timer
	in      *input
	dec     *decoder
	conv    *converter
	win     *window
	copied  map[int]*astiav.Stream  // input stream index → output stream (read-only)
	streams []*astiav.Stream        // the input's streams, read at the first copied packet
	packets *spares[*astiav.Packet] // kept packets for the copied streams (nil: allocated)
	drawOn  func(v int) bool        // whether video frame v will be drawn on (drawStage.drawsOn)
	rep     *report
	// seg is a segment's plan: its frames are numbered from the frame table, and decoding
	// starts at a keyframe; nil in a whole render, which counts the frames it decodes.
	seg   *SegmentPlan
	keyed bool // a segment's first keyframe has gone to the decoder
	lastV int  // in a segment, the number of the frame decoded before

	decoded          int
	preroll          int // of them, before the window's first frame (Stats.Preroll)
	hwDecoded        int // of them, decoded on NVDEC (CUDA frames)
	lastPts, lastDur int64
	// Frames whose pts did not increase (fillPts): how many, the first (for the warning),
	// and how far the frames from the latest of them on are moved.
	ptsBack      int
	ptsBackFirst string
	ptsShift     int64

	// For an input with an index (input.indexPos): the video packets read, a packet's
	// position less its index entry's (-1: they do not match), and where the first packet
	// that departs from the index was read ("" while none has).
	vPackets int
	indexOff int64
	departed string
}

// run decodes the input to its end, passing each frame in the window to emit, which takes
// the frame (it frees it if it fails).
func (d *decodeStage) run(ctx context.Context, emit func(item) error, mux packetSink) error {
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	frame := astiav.AllocFrame()
	defer frame.Free()
	vIdx := d.in.vs.Index()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		err := d.in.fc.ReadFrame(pkt)
		if errors.Is(err, astiav.ErrEof) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A read error mid-file is damage, not failure: render what decoded so far.
			d.rep.damage(fmt.Sprintf("reading input failed after frame %d: %v", d.decoded, err))
			break
		}
		if pkt.StreamIndex() != vIdx {
			d.since(t0)
			if err := d.forwardCopied(ctx, pkt, mux); err != nil {
				return err
			}
			continue
		}
		if d.win.ended {
			pkt.Unref()
			if d.win.copiedDone() {
				break
			}
			continue
		}
		if d.seg != nil && !d.keyed {
			// After a seek the demuxer may hand over packets that precede the keyframe.
			if !pkt.Flags().Has(astiav.PacketFlagKey) {
				pkt.Unref()
				continue
			}
			if pts, first := pkt.Pts(), d.seg.firstPts(); pts > first {
				pkt.Unref()
				return fmt.Errorf("video: segment: decoding would start at the keyframe at pts %d, after the segment's first frame (pts %d)", pts, first)
			}
			d.keyed = true
		}
		if pkt.Flags().Has(astiav.PacketFlagCorrupt) {
			d.rep.damage(fmt.Sprintf("corrupt video packet at %s", d.place(pkt.Pts(), pkt.Pos())))
		}
		if d.seg == nil {
			d.checkIndex(pkt.Pts(), pkt.Pos())
		}
		if d.seg != nil {
			// A frame before the segment's first is decoded only for the frames that refer
			// to it: one that none refers to need not be (a third of a segment's extra
			// decoding, with x264's B-frames).
			skipNonReference(d.dec.cc, pkt.Pts() < d.seg.firstPts())
		}
		err = d.dec.send.sendPacket(d.dec.cc, pkt)
		pts, pos := pkt.Pts(), pkt.Pos() // formatted only for a message: no allocation a frame
		pkt.Unref()
		if err != nil && !errors.Is(err, astiav.ErrEagain) {
			if !errors.Is(err, astiav.ErrInvaliddata) {
				return fmt.Errorf("video: decoding packet at %s: %w", d.place(pts, pos), err)
			}
			d.rep.damage(fmt.Sprintf("undecodable video packet at %s", d.place(pts, pos)))
		}
		d.since(t0)
		if err := d.receiveFrames(ctx, frame, emit, mux); err != nil {
			return err
		}
	}
	if err := d.dec.send.sendPacket(d.dec.cc, nil); err != nil && !errors.Is(err, astiav.ErrEof) {
		return fmt.Errorf("video: flushing decoder: %w", err)
	}
	if err := d.receiveFrames(ctx, frame, emit, mux); err != nil {
		return err
	}
	// The video ended before the end frame: nothing is cut.
	if err := d.sendHeld(ctx, mux, true); err != nil {
		return err
	}
	d.warnPtsBack()
	d.checkPromises()
	d.checkConcealed()
	return nil
}

// checkConcealed records the errors the decoder said it concealed as damage when it marked
// no frame with them (concealedMark), as its frame threads may fail to. A segment leaves it
// to its frame count: the frames it decodes before its first may lack references.
func (d *decodeStage) checkConcealed() {
	if d.seg != nil || d.dec == nil || d.dec.sink == nil {
		return
	}
	d.rep.mu.Lock()
	marked := d.rep.damaged > 0
	d.rep.mu.Unlock()
	if n, first := d.dec.sink.concealedErrors(); n > 0 && !marked {
		d.rep.damage(fmt.Sprintf("the decoder concealed errors in a frame it did not mark, by frame %d (%s)", d.decoded, first))
	}
}

// receiveFrames drains the decoder and passes each frame in the window down the pipeline.
func (d *decodeStage) receiveFrames(ctx context.Context, frame *astiav.Frame, emit func(item) error, mux packetSink) error {
	for {
		t0 := time.Now()
		err := d.dec.send.receiveFrame(d.dec.cc, frame)
		if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
			return nil
		}
		if err != nil {
			if !errors.Is(err, astiav.ErrInvaliddata) {
				return fmt.Errorf("video: decoding after frame %d: %w", d.decoded, err)
			}
			d.rep.damage(fmt.Sprintf("undecodable video after frame %d", d.decoded))
			continue
		}
		d.decoded++
		if describePixels(frame.PixelFormat()).hw {
			d.hwDecoded++
		}
		info := readFrameInfo(frame)
		v, err := d.number(info.pts)
		if err != nil {
			frame.Unref()
			return err
		}
		// A segment decodes from a keyframe before its first frame: what precedes that frame
		// may lack references (open GOP) and is not rendered.
		if info.damaged && (d.seg == nil || v >= d.seg.SegFirst) {
			d.rep.damage(fmt.Sprintf("frame %d (pts %s, byte %d) decoded with errors", v, d.ptsTime(info.pts), info.pos))
		}
		info.pts = d.fillPts(info)
		admitted := d.win.admit(v, info.pts)
		// The frame may settle held copied packets: the start frame gives their shift, a
		// frame before the End that they precede it, the frame after the End their cut.
		if err := d.sendHeld(ctx, mux, false); err != nil {
			frame.Unref()
			return err
		}
		if !admitted {
			if !d.win.started {
				d.preroll++
			}
			frame.Unref()
			d.since(t0)
			continue
		}
		it, err := d.conv.normalize(frame, info, d.drawOn(v))
		frame.Unref()
		d.since(t0)
		if err != nil {
			return err
		}
		it.v = v
		it.pts -= d.win.shift
		if d.seg != nil {
			it.dur = d.seg.frameDuration(v, it.dur)
		}
		if err := emit(it); err != nil {
			return err
		}
	}
}

// number is the 1-based number of the frame decoded with this pts: counted in a whole render,
// found in the frame table in a segment. A segment fails at a frame that comes out of the
// table's order: the decoder did not stamp its frames with their packets' pts, so the table
// numbers them otherwise than a whole render counts them (the plan refuses the videos known
// to do so: readFrameTable).
func (d *decodeStage) number(pts int64) (int, error) {
	if d.seg == nil {
		return d.decoded, nil
	}
	v, ok := d.seg.table.frameAt(pts)
	if !ok {
		return 0, fmt.Errorf("video: segment: decoded a frame at pts %d, which no packet of %s has", pts, d.in.path)
	}
	if v <= d.lastV {
		return 0, fmt.Errorf("%w: %s: the decoder gave frame %d (pts %d) after frame %d: its frames do not come out in the order of their packets' timestamps (render it whole)",
			ErrUnsegmentable, d.in.path, v, pts, d.lastV)
	}
	d.lastV = v
	return v, nil
}

// copyAll reads the input to its end and forwards the packets of the copied streams (a
// join: its video comes from the segments, and the input's video stream is discarded). A
// read error fails it: a join has no damaged frames to keep.
func (d *decodeStage) copyAll(ctx context.Context, mux packetSink) error {
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		err := d.in.fc.ReadFrame(pkt)
		d.since(t0)
		if errors.Is(err, astiav.ErrEof) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("video: reading %s: %w", d.in.path, err)
		}
		if err := d.forwardCopied(ctx, pkt, mux); err != nil {
			return err
		}
	}
}

// forwardCopied takes a packet of a copied stream (leaving pkt empty) and sends it to the
// muxer, or holds it while the window cannot cut it yet (a frame-number Start or End the
// decoder has not reached: window.holding).
func (d *decodeStage) forwardCopied(ctx context.Context, pkt *astiav.Packet, mux packetSink) error {
	if _, ok := d.copied[pkt.StreamIndex()]; !ok {
		pkt.Unref()
		return nil
	}
	p := d.packets.get(astiav.AllocPacket)
	p.MoveRef(pkt)
	if !d.win.holding() {
		return d.sendCopied(ctx, p, mux)
	}
	if oldest := d.win.hold(p); oldest != nil {
		if d.win.waiting() {
			oldest.Free()
		} else if err := d.sendCopied(ctx, oldest, mux); err != nil {
			return err
		}
	}
	return d.sendHeld(ctx, mux, false)
}

// sendHeld sends on the held copied packets that the window can cut now (window.settled), in
// the order read, up to the first it cannot; with ended (the input has ended) all of them,
// unless the start frame never came, when they are left to window.free.
func (d *decodeStage) sendHeld(ctx context.Context, mux packetSink, ended bool) error {
	if len(d.win.held) == 0 || d.win.waiting() {
		return nil
	}
	if d.streams == nil {
		d.streams = d.in.fc.Streams() // once: astiav makes a new slice at each call
	}
	vtb := d.in.vs.TimeBase()
	n := 0
	var err error
	for n < len(d.win.held) && err == nil {
		p := d.win.held[n]
		if !ended && !d.win.settled(p, d.streams[p.StreamIndex()].TimeBase(), vtb) {
			break
		}
		n++
		err = d.sendCopied(ctx, p, mux)
	}
	d.win.unhold(n)
	return err
}

// sendCopied cuts p to the output window, moves its timestamps to the output stream and
// sends it to the muxer; p still carries its input stream index.
func (d *decodeStage) sendCopied(ctx context.Context, p *astiav.Packet, mux packetSink) error {
	if d.streams == nil {
		d.streams = d.in.fc.Streams() // once: astiav makes a new slice at each call
	}
	in := d.streams[p.StreamIndex()]
	ost := d.copied[p.StreamIndex()]
	if !d.win.copyPacket(p, in.TimeBase(), d.in.vs.TimeBase()) {
		p.Free()
		return nil
	}
	p.SetStreamIndex(ost.Index())
	p.RescaleTs(in.TimeBase(), ost.TimeBase())
	p.SetPos(-1)
	return mux(p)
}

// fillPts gives frames without a timestamp one: the previous frame's plus its duration, so
// the encoder sees strictly increasing pts. A frame whose pts does not increase is moved to
// a frame's duration after the previous one, and the frames after it by as much (ptsShift):
// a stream whose pts all say one time (a broken muxer), or start again (concatenated files),
// keeps its frame rate and length; moved one tick each, as before, 200 frames at 10 fps
// became a 0.3 s video. They are counted, for one warning at the end (warnPtsBack).
func (d *decodeStage) fillPts(info frameInfo) int64 {
	pts := info.pts
	if pts == astiav.NoPtsValue {
		if d.lastPts == astiav.NoPtsValue {
			pts = 0
		} else {
			pts = d.lastPts + d.frameStep(info)
		}
	} else {
		pts += d.ptsShift
	}
	if d.lastPts != astiav.NoPtsValue && pts <= d.lastPts {
		if d.ptsBack == 0 {
			d.ptsBackFirst = fmt.Sprintf("frame %d, pts %s after %s", d.decoded, d.ptsTime(pts), d.ptsTime(d.lastPts))
		}
		d.ptsBack++
		moved := d.lastPts + d.frameStep(info)
		d.ptsShift += moved - pts
		pts = moved
	}
	d.lastPts = pts
	d.lastDur = info.duration
	return pts
}

// frameStep is how far a frame's pts is from the one before where its own cannot say: its
// duration, or one frame at the input's frame rate; at least one tick.
func (d *decodeStage) frameStep(info frameInfo) int64 {
	if info.duration > 0 {
		return info.duration
	}
	r := d.in.frameRate()
	return max(1, astiav.RescaleQ(1, astiav.NewRational(r.Den(), max(1, r.Num())), d.in.vs.TimeBase()))
}

// warnPtsBack says, once, how many frames fillPts moved forward: a warning a frame was as
// many lines as the video has frames, on standard error and in --stats-json.
func (d *decodeStage) warnPtsBack() {
	if d.ptsBack == 0 {
		return
	}
	d.rep.warn(fmt.Sprintf("the pts of %s did not increase (the first: %s): each was moved to a frame's duration after the frame before, the frames after it with it (%s later in all)",
		prose.Plural(d.ptsBack, "frame"), d.ptsBackFirst, d.ptsTime(d.ptsShift)))
}

// checkIndex holds the video packet read at pos (its pts as the demuxer gives it) against
// the input's index, where it has one (input.indexPos): the n-th packet read should be the
// index's n-th. The first that is not is where frames were lost (or added): the AVI
// demuxer skips a damaged chunk and numbers every packet after it by counting, so each
// later frame comes early. It is damage, reported once, at that packet. An index entry
// gives its chunk's start and a packet its data's, after the chunk's 8-byte header (FFmpeg
// 5.1's AVI demuxer): the first packet says which, and where it is neither the check is
// left to the count (checkPromises).
func (d *decodeStage) checkIndex(pts, pos int64) {
	idx := d.in.indexPos
	n := d.vPackets
	d.vPackets++
	if len(idx) == 0 || d.departed != "" || d.indexOff < 0 || pos < 0 {
		return
	}
	if n == 0 {
		switch pos - idx[0] {
		case 0, aviChunkHeader:
			d.indexOff = pos - idx[0]
		default:
			d.indexOff = -1
			return
		}
	}
	if n < len(idx) && idx[n]+d.indexOff == pos {
		return
	}
	d.departed = d.place(pts, pos)
	if j, ok := slices.BinarySearch(idx, pos-d.indexOff); ok {
		d.rep.damage(fmt.Sprintf("video packet %d as read (%s) is packet %d by the container's index: %d frames lost before it, and from it on every frame comes %d frames early",
			n+1, d.departed, j+1, j-n, j-n))
		return
	}
	d.rep.damage(fmt.Sprintf("video packet %d as read (%s) is not in the container's index", n+1, d.departed))
}

// aviChunkHeader is the size of an AVI chunk's header: its fourcc and its size.
const aviChunkHeader = 8

// checkPromises compares what decoded with what the container promised: a file cut at a
// cluster or chunk boundary ends without any read error. Fewer frames than promised are no
// damage when the video lasts as long as promised: AVI counts the empty chunks that repeat
// the previous frame (a variable frame rate, as in OpenCV's tree.avi), which give no frame.
// An AVI with a whole index is held to it instead, exactly: it lists the chunks that hold a
// frame (aviIndex), so a loss of frames mid-file, which the duration hides, shows.
func (d *decodeStage) checkPromises() {
	// Decoding stopped at the range's end, not the video's; a segment counts no packets
	// against the index (its last one reaches the file's end).
	if d.win.ended || d.seg != nil {
		return
	}
	if p := len(d.in.indexPos); p > 0 {
		if d.vPackets < p {
			where := "truncated after " + d.ptsTime(d.lastPts) + "?"
			if d.departed != "" {
				where = "lost at " + d.departed
			}
			d.rep.damage(fmt.Sprintf("the container promises %d frames, only %d decoded (%s)", p, d.decoded, where))
		}
		return
	}
	end := d.in.promisedEnd
	known, lasts := end != astiav.NoPtsValue && d.lastPts != astiav.NoPtsValue, false
	if known {
		// Tolerance: three frame intervals and 100 ms, for rounding in container durations.
		tb := d.in.vs.TimeBase()
		slack := astiav.RescaleQ(100, astiav.NewRational(1, 1000), tb)
		if r := d.in.frameRate(); r.Num() > 0 {
			slack += astiav.RescaleQ(3, astiav.NewRational(r.Den(), r.Num()), tb)
		}
		lasts = d.lastPts+max(d.lastDur, 0)+slack >= end
	}
	switch p := d.in.promisedFrames; {
	case p > 0 && int64(d.decoded) < p && !lasts:
		d.rep.damage(fmt.Sprintf("the container promises %d frames, only %d decoded (truncated after %s?)", p, d.decoded, d.ptsTime(d.lastPts)))
	case known && !lasts:
		d.rep.damage(fmt.Sprintf("video stops at %s but the container says it lasts until %s (truncated?)", d.ptsTime(d.lastPts), d.ptsTime(end)))
	}
}

// length says how many frames decoded and until when, for messages.
func (d *decodeStage) length() string {
	if d.lastPts == astiav.NoPtsValue {
		return noFrames
	}
	start := d.in.vs.StartTime()
	if start == astiav.NoPtsValue {
		start = 0
	}
	end := float64(d.lastPts+max(d.lastDur, 0)-start) * d.in.vs.TimeBase().Float64()
	return fmt.Sprintf("%d frames, %.2f s", d.decoded, end)
}

// noFrames is the length of a video that decoded to nothing.
const noFrames = "no frames"

// place names a packet's position for warnings: its pts as a time and its byte offset.
func (d *decodeStage) place(pts, pos int64) string {
	return fmt.Sprintf("pts %s, byte %d", d.ptsTime(pts), pos)
}

// ptsTime formats a video-stream timestamp as seconds.
func (d *decodeStage) ptsTime(pts int64) string {
	if pts == astiav.NoPtsValue {
		return "unknown"
	}
	return fmt.Sprintf("%.3fs", float64(pts)*d.in.vs.TimeBase().Float64())
}
