package video

import (
	"errors"
	"fmt"
	"time"

	"github.com/asticode/go-astiav"
)

// decoder turns the video stream's packets into frames, in software or on NVDEC.
type decoder struct {
	cc    *astiav.CodecContext
	hwPix astiav.PixelFormat // the CUDA surface format, or PixelFormatNone in software
	name  string             // "cuda" or "none", for Stats
}

// openDecoder opens the video decoder. hwaccel "cuda" must get a CUDA device or fail; "auto"
// tries and falls back to software with one log line.
func openDecoder(in *input, hwaccel string, logf func(string), sink *logSink) (*decoder, error) {
	par := in.vs.CodecParameters()
	codec := astiav.FindDecoder(par.CodecID())
	if codec == nil {
		return nil, fmt.Errorf("video: no decoder for codec %s", par.CodecID())
	}
	d := &decoder{cc: astiav.AllocCodecContext(codec), hwPix: astiav.PixelFormatNone, name: "none"}
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
		return nil, fmt.Errorf("video: opening decoder %s: %w%s", codec.Name(), err, why)
	}
	return d, nil
}

// useCUDA attaches a CUDA device to the decoder. NVDEC hands back NV12 for 8-bit 4:2:0 only,
// so other sources stay in software.
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
	case astiav.PixelFormatYuv420P, astiav.PixelFormatYuvj420P, astiav.PixelFormatNv12:
	default:
		return fmt.Errorf("the CUDA path decodes 8-bit 4:2:0 only, the stream is %s", par.PixelFormat())
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
		return fmt.Errorf("creating a CUDA device: %w%s", err, why)
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

func (d *decoder) close() {
	d.cc.SetPixelFormatCallback(nil)
	d.cc.Free()
}

// decodeStage demuxes the input: video packets are decoded and their frames sent to out;
// packets of copied streams go straight to the muxer. It is the only goroutine that touches
// the demuxer and the decoder.
func (j *job) decodeStage(out chan<- item) error {
	defer close(out)
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	frame := astiav.AllocFrame()
	defer frame.Free()
	vIdx := j.in.vs.Index()
	for {
		if err := j.ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		err := j.in.fc.ReadFrame(pkt)
		if errors.Is(err, astiav.ErrEof) {
			break
		}
		if err != nil {
			if j.ctx.Err() != nil {
				return j.ctx.Err()
			}
			// A read error mid-file is damage, not failure: render what decoded so far.
			j.damage(fmt.Sprintf("reading input failed after frame %d: %v", j.decoded, err))
			break
		}
		if pkt.StreamIndex() != vIdx {
			j.addTime(&j.stats.Decode, time.Since(t0))
			if err := j.forwardCopied(pkt); err != nil {
				return err
			}
			continue
		}
		if j.win.ended {
			pkt.Unref()
			if j.win.copiedDone() {
				break
			}
			continue
		}
		if pkt.Flags().Has(astiav.PacketFlagCorrupt) {
			j.damage(fmt.Sprintf("corrupt video packet at %s", j.packetPlace(pkt)))
		}
		err = j.dec.cc.SendPacket(pkt)
		place := j.packetPlace(pkt)
		pkt.Unref()
		if err != nil && !errors.Is(err, astiav.ErrEagain) {
			if !errors.Is(err, astiav.ErrInvaliddata) {
				return fmt.Errorf("video: decoding packet at %s: %w", place, err)
			}
			j.damage(fmt.Sprintf("undecodable video packet at %s", place))
		}
		j.addTime(&j.stats.Decode, time.Since(t0))
		if err := j.receiveFrames(frame, out); err != nil {
			return err
		}
	}
	if err := j.dec.cc.SendPacket(nil); err != nil && !errors.Is(err, astiav.ErrEof) {
		return fmt.Errorf("video: flushing decoder: %w", err)
	}
	if err := j.receiveFrames(frame, out); err != nil {
		return err
	}
	j.checkPromises()
	return nil
}

// receiveFrames drains the decoder and passes each frame in the window down the pipeline.
func (j *job) receiveFrames(frame *astiav.Frame, out chan<- item) error {
	for {
		t0 := time.Now()
		err := j.dec.cc.ReceiveFrame(frame)
		if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
			return nil
		}
		if err != nil {
			if !errors.Is(err, astiav.ErrInvaliddata) {
				return fmt.Errorf("video: decoding after frame %d: %w", j.decoded, err)
			}
			j.damage(fmt.Sprintf("undecodable video after frame %d", j.decoded))
			continue
		}
		j.decoded++
		info := readFrameInfo(frame)
		if info.damaged {
			j.damage(fmt.Sprintf("frame %d (pts %s, byte %d) decoded with errors", j.decoded, j.ptsTime(info.pts), info.pos))
		}
		info.pts = j.fillPts(info)
		keep := j.win.admit(j.decoded, info.pts)
		if !keep {
			frame.Unref()
			j.addTime(&j.stats.Decode, time.Since(t0))
			continue
		}
		for _, p := range j.win.release() {
			if err := j.sendCopied(p); err != nil {
				return err
			}
		}
		it, err := j.conv.normalise(frame, info)
		frame.Unref()
		j.addTime(&j.stats.Decode, time.Since(t0))
		if err != nil {
			return err
		}
		it.v = j.decoded
		select {
		case out <- it:
		case <-j.ctx.Done():
			it.frame.Free()
			return j.ctx.Err()
		}
	}
}

// fillPts gives frames without a timestamp one: the previous frame's plus its duration, so
// the encoder sees strictly increasing pts.
func (j *job) fillPts(info frameInfo) int64 {
	pts := info.pts
	if pts == astiav.NoPtsValue {
		step := info.duration
		if step <= 0 {
			step = max(1, astiav.RescaleQ(1, astiav.NewRational(j.in.frameRate().Den(), max(1, j.in.frameRate().Num())), j.in.vs.TimeBase()))
		}
		if j.lastPts == astiav.NoPtsValue {
			pts = 0
		} else {
			pts = j.lastPts + step
		}
	}
	if j.lastPts != astiav.NoPtsValue && pts <= j.lastPts {
		j.warn(fmt.Sprintf("frame %d: pts %d does not increase (previous %d); moved forward", j.decoded, pts, j.lastPts))
		pts = j.lastPts + 1
	}
	j.lastPts = pts
	j.lastDur = info.duration
	return pts
}

// checkPromises compares what decoded with what the container promised: a file cut at a
// cluster or chunk boundary ends without any read error.
func (j *job) checkPromises() {
	if !j.win.endOpen() {
		return
	}
	if p := j.in.promisedFrames; p > 0 && int64(j.decoded) < p {
		j.damage(fmt.Sprintf("the container promises %d frames, only %d decoded (truncated after %s?)", p, j.decoded, j.ptsTime(j.lastPts)))
		return
	}
	end := j.in.promisedEnd
	if end == astiav.NoPtsValue || j.lastPts == astiav.NoPtsValue {
		return
	}
	// Tolerance: three frame intervals and 100 ms, for rounding in container durations.
	tb := j.in.vs.TimeBase()
	slack := astiav.RescaleQ(100, astiav.NewRational(1, 1000), tb)
	if r := j.in.frameRate(); r.Num() > 0 {
		slack += astiav.RescaleQ(3, astiav.NewRational(r.Den(), r.Num()), tb)
	}
	if j.lastPts+max(j.lastDur, 0)+slack < end {
		j.damage(fmt.Sprintf("video stops at %s but the container says it lasts until %s (truncated?)", j.ptsTime(j.lastPts), j.ptsTime(end)))
	}
}

// packetPlace names a packet's position for warnings: its pts as a time and its byte offset.
func (j *job) packetPlace(pkt *astiav.Packet) string {
	return fmt.Sprintf("pts %s, byte %d", j.ptsTime(pkt.Pts()), pkt.Pos())
}

// ptsTime formats a video-stream timestamp as seconds.
func (j *job) ptsTime(pts int64) string {
	if pts == astiav.NoPtsValue {
		return "unknown"
	}
	return fmt.Sprintf("%.3fs", float64(pts)*j.in.vs.TimeBase().Float64())
}
