package video

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/internal/field"
)

// encoder is the opened video encoder. Its time base is the input stream's, so frame pts pass
// through unchanged and variable frame rates survive.
type encoder struct {
	cc   *astiav.CodecContext
	name string
	work workFormat
	// coded is the pixel format the encoder codes: work's, or the format it is converted to
	// after the overlay (4:4:4 for an odd size, an editors' codec's 4:2:2 or 4:4:4).
	coded astiav.PixelFormat
	// device: the encoder takes the CUDA frames of job.gpu (NVENC in the decoder's CUDA
	// context), so frames drawn in GPU memory are never copied to host memory.
	device bool
	// durations remembers each sent frame's duration by pts: encoders with a delay (B-frames,
	// lookahead) return packets without one, and the muxer needs it for the last frame.
	durations map[int64]int64
	spare     *astiav.Packet // the packet the next receive fills (encodeStage.receivePackets)
	// send, for x264 and x265, runs the calls that block on a thread of the encoder's own
	// (nil: every call is made directly).
	send *codecThread
}

// encoderConfig is what opening the encoder needs: the options, the input stream it
// re-encodes, the decoder (CUDA or not) and GPU frame pool it follows, the output (for its
// global-header flag) and the picture it codes (odd sizes, sizeFit).
type encoderConfig struct {
	opts Options
	in   *input
	dec  *decoder
	gpu  *gpuFrames // frames the overlay draws on in GPU memory, or nil
	out  *output
	fit  sizeFit
	sink *logSink
	warn func(string)
}

// openEncoder picks and opens the encoder (autoEncoder for "auto"); an explicitly named
// encoder that cannot open is an error. The encoder chosen is in Stats.Encoder.
func openEncoder(c encoderConfig) (*encoder, error) {
	name := c.opts.Encoder
	if name == "auto" {
		var enc *encoder
		var err error
		if enc, name, err = c.autoEncoder(); enc != nil || err != nil {
			return enc, err
		}
	}
	if w, h := c.fit.codedW, c.fit.codedH; name == "dnxhd" && (w < minDNxHRWidth || h < minDNxHRHeight) {
		return nil, field.Errorf("video.Options.Encoder", nil, "dnxhd codes frames of %d × %d or more (DNxHR), and this video is %d × %d: use prores_ks",
			minDNxHRWidth, minDNxHRHeight, w, h)
	}
	enc, err := c.try(name)
	if err != nil {
		return nil, fmt.Errorf("video: encoder %s: %w", name, err)
	}
	return enc, nil
}

// The smallest frame FFmpeg's DNxHR encoder takes (dnxhdenc.c).
const (
	minDNxHRWidth  = 256
	minDNxHRHeight = 120
)

// autoEncoder is "auto": H.264 for 8-bit video, HEVC Main10 for 10-bit. With CUDA decoding
// (and neither lossless coding nor a segment, which must be coded alike on every node) it
// tries NVENC (h264_nvenc, hevc_nvenc) and returns it when it opens; otherwise it names the
// software encoder to open: libx264, or for 10-bit libx265, or libx264's High 10 where this
// FFmpeg's libx265 codes 8-bit only (the portable build's), with a line saying so.
func (c encoderConfig) autoEncoder() (*encoder, string, error) {
	soft, nvenc := "libx264", "h264_nvenc"
	if isTenBit(c.in.vs.CodecParameters().PixelFormat()) {
		soft, nvenc = "libx265", "hevc_nvenc"
		if !x265TenBit() {
			soft = "libx264"
			c.opts.Log("encoder auto: this FFmpeg's libx265 codes 8-bit only; coding the 10-bit video with libx264 (H.264 High 10)")
		}
	}
	if c.dec.name != "cuda" || c.opts.Lossless || c.opts.Segment != nil {
		return nil, soft, nil
	}
	enc, err := c.try(nvenc)
	if err == nil || errors.Is(err, ErrUnsupportedFormat) {
		return enc, nvenc, err
	}
	c.opts.Log(fmt.Sprintf("encoder auto: %s unavailable (%v); using %s", nvenc, err, soft))
	return nil, soft, nil
}

// x265TenBit says whether this FFmpeg's libx265 codes 10-bit (Debian's does; the portable
// build's is 8-bit only).
func x265TenBit() bool {
	codec := astiav.FindEncoderByName("libx265")
	return codec != nil && slices.Contains(codec.PixelFormats(), astiav.PixelFormatYuv420P10Le)
}

// try opens encoder name. When frames stay in GPU memory for the overlay and name is NVENC,
// it first tries to feed NVENC those frames directly; if that cannot open but NVENC with host
// frames can, it says so and copies the frames to host memory for it.
func (c encoderConfig) try(name string) (*encoder, error) {
	if c.gpu == nil || !isNVENC(name) {
		return c.open(name, false)
	}
	enc, devErr := c.open(name, true)
	if devErr == nil || errors.Is(devErr, ErrUnsupportedFormat) {
		return enc, devErr
	}
	enc, err := c.open(name, false)
	if err == nil {
		c.opts.Log(fmt.Sprintf("%s cannot take frames in GPU memory (%v); copying them to host memory for it", name, devErr))
	}
	return enc, err
}

func isNVENC(name string) bool { return name == "h264_nvenc" || name == "hevc_nvenc" }

// open opens encoder name; with deviceInput it takes CUDA NV12 frames.
func (c encoderConfig) open(name string, deviceInput bool) (*encoder, error) {
	codec := astiav.FindEncoderByName(name)
	if codec == nil {
		return nil, errors.New("not built into this FFmpeg")
	}
	takes := func(pf astiav.PixelFormat) bool { return slices.Contains(codec.PixelFormats(), pf) }
	if isIntraEditor(name) {
		// The overlay draws on 4:2:0 planes; the frames are converted to the profile's
		// format after it (fitter).
		takes = func(pf astiav.PixelFormat) bool {
			return pf == astiav.PixelFormatYuv420P || pf == astiav.PixelFormatYuv420P10Le
		}
	}
	par := c.in.vs.CodecParameters()
	work, note, err := chooseWorkFormat(par, c.dec.hostFormat(par), takes)
	if err != nil {
		return nil, err
	}
	var profile string
	var editorCoded astiav.PixelFormat
	if isIntraEditor(name) {
		profile, editorCoded = editorProfile(name, c.opts.Profile, work.tenBit())
		c.opts.Profile = profile // what encoderOptions sets
	}
	coded := work.pix
	switch {
	case profile != "":
		coded = editorCoded
	case c.fit.yuv444:
		coded = yuv444Of(work)
	}
	cc := astiav.AllocCodecContext(codec)
	if cc == nil {
		return nil, errors.New("allocating the encoder context failed")
	}
	cc.SetWidth(c.fit.codedW)
	cc.SetHeight(c.fit.codedH)
	cc.SetPixelFormat(encoderPixelFormat(coded))
	cc.SetTimeBase(c.in.vs.TimeBase())
	cc.SetFramerate(c.in.frameRate()) // rate control and VBV use it; pts still rule timing
	cc.SetSampleAspectRatio(c.in.fc.GuessSampleAspectRatio(c.in.vs, nil))
	copyColor(cc, par, work)
	if deviceInput {
		if work.pix != astiav.PixelFormatNv12 {
			cc.Free()
			return nil, fmt.Errorf("frames in GPU memory are NV12, the work format is %s", work.pix)
		}
		c.gpu.feed(cc)
	}
	cc.SetThreadCount(encoderThreads(name, c.opts.Threads))
	if c.out.fc.OutputFormat().Flags().Has(astiav.IOFormatFlagGlobalheader) {
		cc.SetFlags(cc.Flags().Add(astiav.CodecContextFlagGlobalHeader))
	}
	if c.opts.Bitrate > 0 {
		cc.SetBitRate(c.opts.Bitrate)
	}
	if err := openCodec(cc, codec, encoderOptions(name, c.opts), c.sink); err != nil {
		cc.Free()
		return nil, err
	}
	if note != "" {
		if c.fit.yuv444 {
			note += "; its 4:2:0 chroma coded as 4:4:4"
		}
		c.warn(note)
	}
	if profile != "" {
		c.opts.Log(fmt.Sprintf("%s profile %s: the overlay's %s frames coded as %s", name, profile, work.pix, coded))
	}
	e := &encoder{cc: cc, name: name, work: work, coded: encoderPixelFormat(coded), device: deviceInput, durations: map[int64]int64{}}
	// x264 and x265 block their calls while their frame threads are busy: see codecThread.
	if name == "libx264" || name == "libx265" {
		if e.send, err = newCodecThread(cc, encodeThreadName); err != nil {
			cc.Free()
			return nil, err
		}
	}
	return e, nil
}

// openCodec opens an encoder with its private options (freed here), capturing what FFmpeg
// logs meanwhile to explain a failure; NVENC's failures are said in plain words.
func openCodec(cc *astiav.CodecContext, codec *astiav.Codec, dict *astiav.Dictionary, sink *logSink) error {
	defer dict.Free()
	sink.capture()
	err := cc.Open(codec, dict)
	lines := sink.release()
	if err == nil {
		return nil
	}
	if isNVENC(codec.Name()) {
		if why := nvencProblem(lines); why != "" {
			return fmt.Errorf("%s%s", why, because(lines))
		}
	}
	return fmt.Errorf("opening: %w%s", err, because(lines))
}

// nvencProblem says in plain words why NVENC did not open, from what FFmpeg logged (the
// messages of libavcodec/nvenc.c in FFmpeg 5.1); "" when the lines do not say.
func nvencProblem(lines []string) string {
	all := strings.Join(lines, "\n")
	has := func(s string) bool { return strings.Contains(all, s) }
	switch {
	case has("Cannot load libcuda"):
		return "no NVIDIA driver here (libcuda.so.1 is missing)"
	case has("Cannot load libnvidia-encode"):
		return "no NVENC here: the NVIDIA driver's encoder library (libnvidia-encode.so.1) is missing"
	case has("No CUDA capable devices found"):
		return "no NVIDIA GPU here"
	case has("No capable devices found"), has("unsupported device"), has("no encode device"):
		return "this GPU/driver has no NVENC (H100, H200 and A100 have none: use libx264 or libx265)"
	case has("required nvenc API version"):
		return "the NVIDIA driver is too old for this FFmpeg's NVENC"
	}
	return ""
}

// CheckEncoder finds out, before any work, whether encoder name can open here: that FFmpeg
// has it and, for NVENC, that this machine's GPU and driver do, by opening it on a small
// picture and closing it. The error, a *field.Error for Options.Encoder, says why not in
// plain words.
func CheckEncoder(name string) error {
	codec := astiav.FindEncoderByName(name)
	if codec == nil {
		return field.Errorf("video.Options.Encoder", name, "is not built into this FFmpeg")
	}
	if !isNVENC(name) {
		return nil
	}
	sink, detach := attachFFmpegLog(nil)
	defer detach()
	cc := astiav.AllocCodecContext(codec)
	if cc == nil {
		return errors.New("video: allocating the encoder context failed")
	}
	defer cc.Free()
	cc.SetWidth(256)
	cc.SetHeight(256)
	cc.SetPixelFormat(astiav.PixelFormatYuv420P)
	cc.SetTimeBase(astiav.NewRational(1, 25))
	if err := openCodec(cc, codec, astiav.NewDictionary(), sink); err != nil {
		return field.Errorf("video.Options.Encoder", name, "%v", err)
	}
	return nil
}

// encoderOptions maps the quality options to each encoder's private options.
func encoderOptions(name string, o Options) *astiav.Dictionary {
	d := astiav.NewDictionary()
	x265 := "log-level=error" // x265 prints its banner to stderr
	nvenc := isNVENC(name)
	if o.Preset != "" {
		p := o.Preset
		if nvenc {
			p = nvencPreset(p)
		}
		_ = d.Set("preset", p, 0) // av_dict_set fails only on allocation
	}
	if o.Lossless {
		if name == "libx265" {
			x265 = "lossless=1:" + x265
		} else {
			_ = d.Set("qp", "0", 0)
		}
	}
	if o.Segment != nil {
		// The first frame goes in as an I frame (encodeStage); with this, libx265 and NVENC
		// code it as an IDR as libx264 does (docs/segments.md §4).
		_ = d.Set("forced-idr", "1", 0)
	}
	if o.Bitrate == 0 && o.CRF > 0 {
		if nvenc {
			_ = d.Set("rc", "vbr", 0)
			_ = d.Set("cq", strconv.Itoa(o.CRF), 0)
		} else {
			_ = d.Set("crf", strconv.Itoa(o.CRF), 0)
		}
	}
	if name == "libx265" {
		_ = d.Set("x265-params", x265, 0)
	}
	if isIntraEditor(name) {
		_ = d.Set("profile", o.Profile, 0) // chosen by open
	}
	return d
}

// nvencPreset maps x264 preset names to NVENC's p1 (fastest) … p7 (best).
func nvencPreset(p string) string {
	m := map[string]string{"ultrafast": "p1", "superfast": "p2", "veryfast": "p3", "faster": "p3",
		"fast": "p4", "medium": "p4", "slow": "p5", "slower": "p6", "veryslow": "p7"}
	if v, ok := m[p]; ok {
		return v
	}
	return p
}

func (e *encoder) close() {
	if e.spare != nil {
		e.spare.Free()
	}
	e.send.free()
	e.cc.Free()
}

// encodeStage encodes frames and sends the packets to the muxer.
type encodeStage struct {
	timer
	enc   *encoder
	video *astiav.Stream // the output's video stream (read-only)
	// idrFirst sends the first frame as an I frame, which the encoder's forced-idr makes
	// an IDR: a segment's first frame.
	idrFirst bool
	sent     int
	// lastPts and lastDur are the pts and duration of the latest frame (a segment's record
	// says them); lastPts starts at NoPtsValue.
	lastPts, lastDur int64
	packets          *spares[*astiav.Packet]
	frames           *spares[*astiav.Frame]
}

func (e *encodeStage) run(ctx context.Context, in <-chan item, out packetSink) error {
	for it := range in {
		if err := e.encode(ctx, it, out); err != nil {
			return err
		}
	}
	return e.flush(ctx, out)
}

// encode sends frame it to the encoder, frees it, and sends the packets that come out.
func (e *encodeStage) encode(ctx context.Context, it item, out packetSink) error {
	if err := ctx.Err(); err != nil {
		it.frame.Free()
		return err
	}
	t0 := time.Now()
	f := it.frame
	f.SetPts(it.pts)
	f.SetPixelFormat(encoderPixelFormat(f.PixelFormat()))
	// Decoded picture types would force the encoder's frame types (an I-frame wherever the
	// source had one); let the encoder choose, as the ffmpeg CLI does.
	pictureType := astiav.PictureTypeNone
	if e.idrFirst && e.sent == 0 {
		pictureType = astiav.PictureTypeI
	}
	f.SetPictureType(pictureType)
	e.sent++
	e.enc.durations[f.Pts()] = it.dur
	if f.Pts() > e.lastPts {
		e.lastPts, e.lastDur = f.Pts(), it.dur
	}
	err := e.enc.send.sendFrame(e.enc.cc, f)
	e.frames.put(f)
	e.since(t0)
	if err != nil {
		return fmt.Errorf("video: encoding frame %d: %w", it.v, err)
	}
	return e.receivePackets(ctx, out)
}

// flush drains the encoder once the last frame is sent.
func (e *encodeStage) flush(ctx context.Context, out packetSink) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := e.enc.send.sendFrame(e.enc.cc, nil); err != nil {
		return fmt.Errorf("video: flushing encoder: %w", err)
	}
	return e.receivePackets(ctx, out)
}

// receivePackets sends the muxer the packets the encoder has ready. It checks ctx before
// each: in the flush each call waits for a frame to be coded (x264's lookahead holds tens
// of them, most of a short clip's time), and a stop must not wait for them all.
func (e *encodeStage) receivePackets(ctx context.Context, out packetSink) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		// The packet is allocated only for a packet that comes out: most calls find none.
		if e.enc.spare == nil {
			e.enc.spare = e.packets.get(astiav.AllocPacket)
		}
		err := e.enc.send.receivePacket(e.enc.cc, e.enc.spare)
		e.since(t0)
		if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("video: encoding: %w", err)
		}
		pkt := e.enc.spare
		e.enc.spare = nil
		if d, ok := e.enc.durations[pkt.Pts()]; ok {
			if pkt.Duration() <= 0 {
				pkt.SetDuration(d)
			}
			delete(e.enc.durations, pkt.Pts())
		}
		pkt.SetStreamIndex(e.video.Index())
		pkt.RescaleTs(e.enc.cc.TimeBase(), e.video.TimeBase())
		if err := out(pkt); err != nil {
			return err
		}
	}
}

// encoderThreads is the thread count encoder name opens with for Options.Threads n, a cap (0:
// the encoder's own choice): no more than it takes, which a larger count fails to open
// ("Invalid argument", or x265's own error): libx265 codes at most 16 frames at once
// (X265_MAX_FRAME_THREADS), x264 runs at most 128 threads (X264_THREAD_MAX), and FFmpeg's
// frame-threaded encoders (ProRes, DNxHR, PNG) at most 64 (MAX_THREADS).
func encoderThreads(name string, n int) int {
	switch name {
	case "libx265":
		return min(n, 16)
	case "libx264":
		return min(n, 128)
	}
	return min(n, 64)
}
