package video

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/outfile"
)

// Layer-only renders (Options.Layer): the overlay alone, with alpha, frame for frame with
// the source, for an editor to composite over the footage.
//
// The source is decoded as for a burnt-in render, so the layer has exactly the render's
// frames: the same count, the same timestamps (a variable frame rate kept, the encoder in
// the source stream's time base), the same Start and End. The decoded pictures themselves
// are dropped unread (converter.timingOnly). Each frame the DrawFunc draws on a transparent
// *composite.RGBA of the frame's display size (the rotation applied, as the burnt-in
// render draws; Options.Orientation Stored draws the stored frame and keeps the display
// matrix instead), which is converted to the encoder's format with straight alpha
// (composite/layer.go) and encoded; frames the DrawFunc is not called on are transparent.
//
// Formats, chosen by the output's name unless Options.Encoder names one:
//   - .mov (or .mkv): ProRes 4444 (prores_ks, profile 4444 or 4444xq), yuva444p10le, BT.709
//     limited range, 16-bit alpha as coded: what Resolve, Premiere, After Effects and
//     Final Cut import;
//   - a numbered picture sequence, name_%05d.png: PNG (png), 8-bit RGBA, each picture named
//     by its video frame number;
//   - .webm: VP9 (libvpx-vp9) yuva420p, BT.709 limited, the alpha in its own coded plane;
//   - --encoder qtrle into .mov: QuickTime Animation, 8-bit ARGB, lossless run lengths;
//   - --encoder prores_aw: ProRes 4444 as above from FFmpeg's faster encoder.
//
// Alpha is straight (unassociated) in all four, as FFmpeg, PNG and the editors' importers
// take it. The layer's colours are the overlay's R'G'B', whatever the source's matrix and
// range: the Y'CbCr formats carry them in BT.709 at limited range, and say so in the
// stream's colour tags.
//
// Nothing is copied from the source but the video stream's metadata (its timecode, which
// editors line the layer up by, included); no audio.

// layerFormat is one way of writing a layer: the encoder, the pixel format it codes, and
// the conversion from the drawn layer into that format's planes.
type layerFormat struct {
	encoder string
	codec   astiav.CodecID
	pix     astiav.PixelFormat
	yuv     bool // BT.709 limited-range Y'CbCr (else R'G'B')
	words   string
	fill    func(l *composite.RGBA, planes [4][]byte, strides [4]int)
}

// layerFormats are the layer's formats, the containers' defaults first.
var layerFormats = []layerFormat{
	{"prores_ks", astiav.CodecIDProres, astiav.PixelFormatYuva444P10Le, true, "ProRes 4444 with alpha",
		func(l *composite.RGBA, p [4][]byte, s [4]int) { l.YUVA444P10(p[0], p[1], p[2], p[3], s) }},
	{"png", astiav.CodecIDPng, astiav.PixelFormatRgba, false, "PNG RGBA",
		func(l *composite.RGBA, p [4][]byte, s [4]int) { l.StraightRGBA(p[0], s[0]) }},
	{"libvpx-vp9", astiav.CodecIDVp9, astiav.PixelFormatYuva420P, true, "VP9 with alpha",
		func(l *composite.RGBA, p [4][]byte, s [4]int) { l.YUVA420P(p[0], p[1], p[2], p[3], s) }},
	{"qtrle", astiav.CodecIDQtrle, astiav.PixelFormatArgb, false, "QuickTime Animation ARGB",
		func(l *composite.RGBA, p [4][]byte, s [4]int) { l.StraightARGB(p[0], s[0]) }},
	// FFmpeg's other ProRes encoder: a fixed quantiser per profile, no search, so 2.6× as
	// fast as prores_ks on vtest.avi with 100 tracks, at 48–51 dB PSNR against its 60–67
	// (alpha alike: lossless in both).
	{"prores_aw", astiav.CodecIDProres, astiav.PixelFormatYuva444P10Le, true, "ProRes 4444 with alpha (prores_aw)",
		func(l *composite.RGBA, p [4][]byte, s [4]int) { l.YUVA444P10(p[0], p[1], p[2], p[3], s) }},
}

// LayerEncoders are the encoders a layer-only render takes, for help texts.
func LayerEncoders() []string {
	var names []string
	for _, f := range layerFormats {
		names = append(names, f.encoder)
	}
	return names
}

// layerProfiles are prores_ks's profiles that code alpha, the default first.
var layerProfiles = []string{"4444", "4444xq"}

// layerVP9CRF is VP9's quality when Options.CRF is 0: overlay graphics on a transparent
// ground code small at it, with no visible loss at the edges.
const layerVP9CRF = 24

// maxVP9CRF is the top of libvpx's quality scale.
const maxVP9CRF = 63

// layerFormatFor picks the layer's format: the one encoder names, or for auto the output
// name's: a numbered sequence of .png pictures, .webm, .mov or .mkv. Errors are
// *field.Errors naming the option.
func layerFormatFor(encoder, output string) (layerFormat, error) {
	enc := encoder
	if enc == "" || enc == "auto" {
		switch ext := strings.ToLower(filepath.Ext(output)); {
		case isSequencePattern(output) && ext == ".png":
			enc = "png"
		case ext == ".webm":
			enc = "libvpx-vp9"
		case ext == ".mov" || ext == ".mkv":
			enc = "prores_ks"
		default:
			return layerFormat{}, field.Errorf("video.Options.Output", output,
				"a layer with alpha is written as .mov or .mkv (ProRes 4444), .webm (VP9) or a numbered .png sequence (name_%%05d.png), not %s", cmpOr(ext, "a name without extension"))
		}
	}
	i := slices.IndexFunc(layerFormats, func(f layerFormat) bool { return f.encoder == enc })
	if i < 0 {
		return layerFormat{}, field.Errorf("video.Options.Encoder", encoder, "codes no alpha: a layer takes %s", strings.Join(LayerEncoders(), ", "))
	}
	return layerFormats[i], nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// validateLayer checks the options of a layer-only render: the format, the container, and
// the encoder options that format takes.
func (o Options) validateLayer() error {
	lf, err := layerFormatFor(o.Encoder, o.Output)
	if err != nil {
		return err
	}
	seq := isSequencePattern(o.Output)
	switch {
	case o.Segment != nil:
		return field.Errorf("video.Options.Segment", o.Segment.Index, "a layer-only render is not split in segments (the join writes H.264, which has no alpha)")
	case seq && lf.encoder != "png":
		return field.Errorf("video.Options.Encoder", o.Encoder, "a numbered picture sequence is written as PNG: choose png or a .mov/.webm output")
	case !seq && lf.encoder == "png" && !strings.EqualFold(filepath.Ext(o.Output), ".mov"):
		return field.Errorf("video.Options.Output", o.Output, "png writes a numbered sequence: name it like layer_%%05d.png")
	case o.Profile != "" && lf.codec != astiav.CodecIDProres:
		return field.Errorf("video.Options.Profile", o.Profile, "is for prores_ks and prores_aw, not %s", lf.encoder)
	case o.Profile != "" && !slices.Contains(layerProfiles, o.Profile):
		return field.Errorf("video.Options.Profile", o.Profile, "codes no alpha: a layer takes ProRes %s", strings.Join(layerProfiles, " or "))
	case o.Preset != "":
		return field.Errorf("video.Options.Preset", o.Preset, "%s has no presets", lf.encoder)
	case o.Lossless:
		return field.Errorf("video.Options.Lossless", o.Lossless, "lossless coding is libx264's and libx265's; png and qtrle layers are lossless, and a VP9 layer takes a CRF of 1..%d", maxVP9CRF)
	case o.Bitrate > 0 && lf.encoder != "libvpx-vp9":
		return field.Errorf("video.Options.Bitrate", o.Bitrate, "%s codes at its own quality; CRF and bitrate are for libvpx-vp9", lf.encoder)
	case o.CRF > 0 && lf.encoder != "libvpx-vp9":
		return field.Errorf("video.Options.CRF", o.CRF, "%s codes at its own quality; CRF and bitrate are for libvpx-vp9", lf.encoder)
	case o.CRF > maxVP9CRF:
		return field.Errorf("video.Options.CRF", o.CRF, "is outside 1..%d, VP9's quality scale", maxVP9CRF)
	}
	if seq {
		return nil
	}
	return checkMuxer(o.Output, lf.codec)
}

// isSequencePattern reports whether path holds a printf-style frame number (%d, %05d) and
// so names a numbered picture sequence to write.
func isSequencePattern(path string) bool {
	_, err := sequenceName(path, 1)
	return err == nil && strings.Contains(path, "%")
}

// renderLayer is Transcode for Options.Layer (normalized already): open the input, the
// output (a container, or a sequence's partial directory), the decoder and the layer's
// encoder; run decode → draw on a transparent layer → encode → mux on one goroutine; commit.
func renderLayer(ctx context.Context, opts Options, draw DrawFunc) (Stats, error) {
	lf, err := layerFormatFor(opts.Encoder, opts.Output)
	if err != nil {
		return Stats{}, err
	}
	started := time.Now()
	sink, detach := attachFFmpegLog(opts.FFmpegLog)
	defer detach()
	rep := &report{log: opts.Log}
	var c closer
	defer c.close()
	stats := Stats{Input: opts.Input, Output: opts.Output, Encoder: lf.encoder, Color: "rgb"}
	if lf.yuv {
		stats.Color = "bt709/limited"
	}
	settle := func() {
		stats.Wall, stats.Warnings, stats.PeakRSS = time.Since(started), rep.warnings, PeakRSS()
		if stats.Wall > 0 {
			stats.FPS = float64(stats.Frames) / stats.Wall.Seconds()
		}
	}
	fail := func(err error) (Stats, error) {
		settle()
		if err != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%w%s", err, because(sink.unshown()))
		}
		return stats, err
	}

	in, info, err := openSource(ctx, opts, &c)
	if err != nil {
		return fail(err)
	}
	stats.Width, stats.Height, stats.PixelFormat = info.Width, info.Height, info.PixelFormat
	w, h := info.Width, info.Height
	if opts.Orientation == Displayed {
		if info.RotationProblem != "" {
			rep.warn(info.RotationProblem)
		}
		w, h = info.DisplayWidth, info.DisplayHeight
	}
	if lf.encoder == "prores_aw" && w%2 == 1 {
		return fail(field.Errorf("video.Options.Encoder", nil, "prores_aw codes frames of an even width only, and this video is %d wide: use prores_ks, the default for .mov", w))
	}
	out, seq, err := createLayerOutput(in, opts, lf)
	if err != nil {
		return fail(err)
	}
	if seq != nil {
		c.add(seq.discard)
	} else {
		c.add(out.close)
	}
	dec, err := openDecoder(in, opts.HWAccel, opts.Log, sink)
	if err != nil {
		return fail(err)
	}
	c.add(dec.close)
	stats.HWAccel = dec.name
	enc, err := openLayerEncoder(in, out, lf, opts, w, h, sink)
	if err != nil {
		return fail(fmt.Errorf("video: encoder %s: %w", lf.encoder, err))
	}
	c.add(enc.close)
	if err := out.describeLayer(in, enc, opts.Orientation == Stored); err != nil {
		return fail(err)
	}
	if opts.Orientation == Stored && info.Rotation != 0 && !out.holdsTurn() {
		what := "a " + strings.ToLower(filepath.Ext(opts.Output)) + " file"
		if seq != nil {
			what = "a picture sequence"
		}
		rep.warn(LayerTurnLost(what, ".mov, or "))
	}
	if err := out.shiftTimecodes(in.vs, startOffset(opts.Start, timecodeRate(in.vs)), rep.warn); err != nil {
		return fail(err)
	}
	if err := out.writeLayerHeader(); err != nil {
		return fail(err)
	}
	opts.Log(fmt.Sprintf("layer only: %s, %dx%d, straight alpha%s", lf.words, w, h, map[bool]string{true: ", BT.709 limited range"}[lf.yuv]))
	layer, err := newLayerDrawer(lf, w, h)
	if err != nil {
		return fail(err)
	}
	c.add(layer.pool.close)
	win := newWindow(opts.Start, opts.End, in, 0)
	c.add(win.free)
	packets, frames := packetSpares(), frameSpares()
	c.add(packets.close)
	c.add(frames.close)
	layer.frames = frames
	p := &pipeline{
		decode: decodeStage{in: in, dec: dec, conv: &converter{width: info.Width, height: info.Height, timingOnly: true},
			win: win, rep: rep, lastPts: astiav.NoPtsValue, packets: packets},
		draw:   drawStage{draw: draw, frameOffset: opts.FrameOffset, layer: layer},
		encode: encodeStage{enc: enc, video: out.video, lastPts: astiav.NoPtsValue, packets: packets, frames: frames},
		mux:    muxStage{out: out, progress: newProgress(opts.Progress, expectedTotal(in, opts), started), packets: packets},
	}
	p.decode.drawOn = func(int) bool { return false }
	err = p.run(ctx)
	stats.Decode, stats.Overlay, stats.Encode = p.decode.busy, p.draw.busy, p.encode.busy
	stats.Overlaid, stats.Frames, stats.Decoded = p.draw.overlaid, p.mux.frames, p.decode.decoded
	stats.Preroll = p.decode.preroll
	switch {
	case err == nil && stats.Frames == 0 && rep.damaged > 0:
		err = damagedBeforeRange(opts, stats.Decoded, rep)
	case err == nil && stats.Frames == 0 && win.ended:
		err = fmt.Errorf("%w: the range %s ends before its first frame", ErrNothingToRender, describeRange(opts.Start, opts.End))
	case err == nil && stats.Frames == 0:
		err = nothingIn(opts.Start, opts.End, p.decode.length())
	}
	var partners []*outfile.PartialFile
	if err == nil && opts.Partners != nil {
		stats.Mux = p.mux.busy
		settle()
		partners, err = opts.Partners(stats)
		for _, f := range partners {
			c.add(f.Discard) // a no-op once committed
		}
	}
	if err == nil {
		t0 := time.Now()
		if seq != nil {
			// The sequence is placed on its own, so the old partners go first, as CommitAll
			// removes them before a main output: never new pictures beside old tracks.
			if opts.Overwrite && len(partners) > 0 {
				err = outfile.RemoveReplaced(partners...)
			}
			if err == nil {
				err = seq.commit(ctx, out, opts.Overwrite, layer.firstV, stats.Frames)
			}
			if err == nil && len(partners) > 0 {
				err = outfile.CommitAll(opts.Overwrite, partners...)
			}
		} else {
			err = out.commit(ctx, opts.Overwrite, partners...)
		}
		p.mux.busy += time.Since(t0)
	}
	stats.Mux = p.mux.busy
	if err == nil {
		p.mux.progress.report(stats.Frames, true)
		if rep.damaged > 0 {
			err = fmt.Errorf("%w: %d frames rendered; see warnings", ErrInputDamaged, stats.Frames)
		}
	}
	return fail(err)
}

// createLayerOutput creates the layer's muxer, with one video stream: into a partial file
// beside the target (createOutput), or for a picture sequence image2 into a partial
// directory (seq, which holds the pictures until commit).
func createLayerOutput(in *input, opts Options, lf layerFormat) (*output, *sequenceOutput, error) {
	if !isSequencePattern(opts.Output) {
		out, err := createOutput(in, opts.Input, opts.Output, opts.Overwrite, false, nil)
		return out, nil, err
	}
	seq, err := createSequence(opts.Output, opts.Overwrite)
	if err != nil {
		return nil, nil, err
	}
	fc, err := astiav.AllocOutputFormatContext(nil, "image2", seq.pattern())
	if err != nil || fc == nil {
		seq.discard()
		return nil, nil, fmt.Errorf("video: no image2 muxer for %s: %v", opts.Output, err)
	}
	out := &output{fc: fc, final: opts.Output, copied: map[int]*astiav.Stream{}}
	if out.video = fc.NewStream(nil); out.video == nil {
		fc.Free()
		seq.discard()
		return nil, nil, errors.New("video: adding the output video stream failed")
	}
	seq.fc = fc
	return out, seq, nil
}

// describeLayer describes the layer's video stream: its codec parameters, the source's time
// base, frame rates and metadata, and with keepTurn the source's display matrix (a layer
// drawn on stored frames turns as the source does; one drawn as displayed is upright).
func (o *output) describeLayer(in *input, enc *encoder, keepTurn bool) error {
	s := o.video
	if err := s.CodecParameters().FromCodecContext(enc.cc); err != nil {
		return fmt.Errorf("video: setting output video parameters: %w", err)
	}
	s.SetTimeBase(enc.cc.TimeBase())
	s.SetAvgFrameRate(in.vs.AvgFrameRate())
	s.SetRFrameRate(in.vs.RFrameRate())
	s.SetSampleAspectRatio(s.CodecParameters().SampleAspectRatio())
	var err error
	if keepTurn {
		err = copyStreamMeta(s, in.vs)
	} else {
		err = copyStreamTags(s, in.vs)
	}
	if err != nil {
		return err
	}
	return setEncoderTag(s, enc.name)
}

// LayerTurnLost is the warning for a layer drawn on the frame as stored of a video shown
// turned, written where what (a container, a picture) cannot say so; instead is what else
// keeps the turn ("" where nothing does).
func LayerTurnLost(what, instead string) string {
	return "the video is shown turned a quarter or half (its display matrix), and " + what + " cannot say so: the layer is the frame as stored, " +
		"which lies turned over the video as shown; use " + instead + "--orientation display for an upright layer"
}

// holdsTurn reports whether the output's container stores a display matrix (FFmpeg 5.1's
// MP4 and QuickTime muxers do; Matroska, WebM and image sequences do not).
func (o *output) holdsTurn() bool {
	name := o.fc.OutputFormat().Name()
	return name == "mov" || name == "mp4"
}

// writeLayerHeader writes the container's header; a QuickTime file gets its colour atom
// (colr), which editors read the layer's matrix and range from.
func (o *output) writeLayerHeader() error {
	d := astiav.NewDictionary()
	defer d.Free()
	if o.fc.OutputFormat().Name() == "mov" {
		_ = d.Set("movflags", "write_colr", 0) // av_dict_set fails only on allocation
	}
	if err := o.fc.WriteHeader(d); err != nil {
		return fmt.Errorf("video: writing the %s header: %w", filepath.Ext(o.final), err)
	}
	return nil
}

// openLayerEncoder opens the layer's encoder for w × h frames in the source stream's time
// base, with BT.709 limited-range tags for the Y'CbCr formats.
func openLayerEncoder(in *input, out *output, lf layerFormat, opts Options, w, h int, sink *logSink) (*encoder, error) {
	codec := astiav.FindEncoderByName(lf.encoder)
	if codec == nil {
		return nil, errors.New("not built into this FFmpeg")
	}
	cc := astiav.AllocCodecContext(codec)
	if cc == nil {
		return nil, errors.New("allocating the encoder context failed")
	}
	cc.SetWidth(w)
	cc.SetHeight(h)
	cc.SetPixelFormat(lf.pix)
	cc.SetTimeBase(in.vs.TimeBase())
	cc.SetFramerate(in.frameRate())
	cc.SetSampleAspectRatio(in.fc.GuessSampleAspectRatio(in.vs, nil))
	setLayerColor(cc, lf.yuv)
	cc.SetThreadCount(encoderThreads(lf.encoder, opts.Threads))
	if out.fc.OutputFormat().Flags().Has(astiav.IOFormatFlagGlobalheader) {
		cc.SetFlags(cc.Flags().Add(astiav.CodecContextFlagGlobalHeader))
	}
	d := astiav.NewDictionary()
	switch lf.encoder {
	case "prores_ks", "prores_aw":
		profile := cmpOr(opts.Profile, layerProfiles[0])
		if lf.encoder == "prores_aw" { // it names its profiles by number: 4 is 4444, 5 4444 XQ
			profile = strconv.Itoa(4 + slices.Index(layerProfiles, profile))
		}
		_ = d.Set("profile", profile, 0) // av_dict_set fails only on allocation
		// The vendor code Apple's own encoders write in each frame, as FFmpeg's documentation
		// suggests for files bound for Apple's tools.
		_ = d.Set("vendor", "apl0", 0)
	case "png":
		// zlib's level 3 instead of its default 6: on vtest.avi's 100 tracks 40 % less
		// encoding time for pictures 5 % larger.
		_ = d.Set("compression_level", "3", 0)
	case "libvpx-vp9":
		if opts.Bitrate > 0 {
			cc.SetBitRate(opts.Bitrate)
		} else {
			crf := opts.CRF
			if crf == 0 {
				crf = layerVP9CRF
			}
			_ = d.Set("crf", strconv.Itoa(crf), 0)
			_ = d.Set("b", "0", 0) // constant quality
		}
		// libvpx's fastest setting: "good" at cpu-used 4 took 8× as long (470 ms a frame of
		// vtest.avi's 768×576 with 100 tracks, against 40) for files a third smaller.
		_ = d.Set("deadline", "realtime", 0)
		_ = d.Set("cpu-used", "8", 0)
		_ = d.Set("row-mt", "1", 0)
	}
	if err := openCodec(cc, codec, d, sink); err != nil {
		cc.Free()
		return nil, err
	}
	return &encoder{cc: cc, name: lf.encoder, coded: lf.pix, durations: map[int64]int64{}}, nil
}

// layerDrawer makes each layer frame: it hands the DrawFunc a transparent composite.RGBA
// and converts what was drawn into a pooled frame of the encoder's format, which leaves the
// RGBA transparent again.
type layerDrawer struct {
	format layerFormat
	rgba   *composite.RGBA
	pool   *framePool
	frames *spares[*astiav.Frame]
	firstV int // the first frame's video frame number (a sequence's first picture's)
}

func newLayerDrawer(lf layerFormat, w, h int) (*layerDrawer, error) {
	pool, err := newFramePool(lf.pix, w, h)
	if err != nil {
		return nil, err
	}
	return &layerDrawer{format: lf, pool: pool, rgba: &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}}, nil
}

// layerFrame returns item it with its frame (the decoded picture, or none) replaced by the
// layer drawn for track frame n; draw nil leaves it transparent.
func (l *layerDrawer) layerFrame(it item, n int, draw DrawFunc) (item, error) {
	if it.frame != nil {
		it.frame.Free()
	}
	it.frame = nil
	if l.firstV == 0 {
		l.firstV = it.v
	}
	if draw != nil {
		if err := draw(n, l.rgba); err != nil {
			l.rgba.Transparent()
			return it, fmt.Errorf("video: drawing tracks frame %d on layer frame %d: %w", n, it.v, err)
		}
	}
	f := l.frames.get(astiav.AllocFrame)
	if err := l.pool.get(f); err != nil {
		f.Free()
		return it, fmt.Errorf("video: taking a layer frame from the pool: %w", err)
	}
	var planes [4][]byte
	var strides [4]int
	w, h := l.rgba.W, l.rgba.H
	for i, p := range layerPlanes(l.format.pix, w, h) {
		var err error
		if planes[i], strides[i], err = plane(f, i, p[0], p[1]); err != nil {
			f.Free()
			return it, err
		}
	}
	l.format.fill(l.rgba, planes, strides)
	setLayerFrameColor(f, l.format.yuv)
	it.frame = f
	return it, nil
}

// layerPlanes gives the row bytes and rows of each plane of a w × h frame of format pix.
func layerPlanes(pix astiav.PixelFormat, w, h int) [][2]int {
	switch pix {
	case astiav.PixelFormatYuva444P10Le:
		return [][2]int{{2 * w, h}, {2 * w, h}, {2 * w, h}, {2 * w, h}}
	case astiav.PixelFormatYuva420P:
		return [][2]int{{w, h}, {(w + 1) / 2, (h + 1) / 2}, {(w + 1) / 2, (h + 1) / 2}, {w, h}}
	}
	return [][2]int{{4 * w, h}}
}
