package video

// The FFmpeg calls that go-astiav v0.16.0 does not wrap (it is the last tag that builds against
// FFmpeg 5.1): writable frames from a buffer pool, plane pointers, per-frame decode flags,
// colour fields on an encoder, stream disposition, metadata and side data copies, format
// metadata on an output, discarding a stream in the demuxer, skipping non-reference frames
// in the decoder, and av_find_best_stream. They take astiav's objects and reach the C
// struct through cptr.

//#cgo pkg-config: libavcodec libavformat libavutil
//#include <errno.h>
//#include <stdlib.h>
//#include <libavcodec/avcodec.h>
//#include <libavformat/avformat.h>
//#include <libavutil/buffer.h>
//#include <libavutil/frame.h>
//#include <libavutil/imgutils.h>
//
// // Linesizes of pooled frames are multiples of 64 bytes so SIMD code in swscale and the
// // encoders reads aligned rows; the tail padding covers their over-reads.
// static int tk_pool_size(int fmt, int w, int h) {
//     int n = av_image_get_buffer_size(fmt, w, h, 64);
//     return n < 0 ? n : n + AV_INPUT_BUFFER_PADDING_SIZE;
// }
//
// static int tk_frame_from_pool(AVBufferPool *pool, AVFrame *dst, int fmt, int w, int h) {
//     AVBufferRef *buf = av_buffer_pool_get(pool);
//     if (!buf) return AVERROR(ENOMEM);
//     int ret = av_image_fill_arrays(dst->data, dst->linesize, buf->data, fmt, w, h, 64);
//     if (ret < 0) { av_buffer_unref(&buf); return ret; }
//     dst->buf[0] = buf;
//     dst->format = fmt;
//     dst->width = w;
//     dst->height = h;
//     return 0;
// }
//
// static int tk_copy_side_data(AVStream *dst, const AVStream *src) {
//     for (int i = 0; i < src->nb_side_data; i++) {
//         const AVPacketSideData *sd = &src->side_data[i];
//         // Bitrate and buffer sizes of the source encoder describe a stream we replace.
//         if (sd->type == AV_PKT_DATA_CPB_PROPERTIES) continue;
//         uint8_t *p = av_stream_new_side_data(dst, sd->type, sd->size);
//         if (!p) return AVERROR(ENOMEM);
//         memcpy(p, sd->data, sd->size);
//     }
//     return 0;
// }
//
// // tk_layer_color sets a layer's colour description on its encoder and on each frame
// // (prores_ks and png read the frame's): BT.709 Y'CbCr (yuv) or sRGB R'G'B'.
// static void tk_layer_color(AVCodecContext *c, AVFrame *f, int yuv) {
//     enum AVColorRange rng = yuv ? AVCOL_RANGE_MPEG : AVCOL_RANGE_JPEG;
//     enum AVColorTransferCharacteristic trc = yuv ? AVCOL_TRC_BT709 : AVCOL_TRC_IEC61966_2_1;
//     enum AVColorSpace spc = yuv ? AVCOL_SPC_BT709 : AVCOL_SPC_RGB;
//     if (c) {
//         c->color_primaries = AVCOL_PRI_BT709;
//         c->color_range = rng; c->color_trc = trc; c->colorspace = spc;
//     }
//     if (f) {
//         f->color_primaries = AVCOL_PRI_BT709;
//         f->color_range = rng; f->color_trc = trc; f->colorspace = spc;
//     }
// }
//
// // tk_muxer_takes_video writes a header for one video stream of codec_id (64×64, 25 fps)
// // into a memory buffer: whether the muxer takes that codec, for the muxers that cannot
// // say so beforehand (avformat_query_codec's AVERROR_PATCHWELCOME).
// static int tk_muxer_takes_video(const AVOutputFormat *of, int codec_id) {
//     AVFormatContext *fc = NULL;
//     int ret = avformat_alloc_output_context2(&fc, (AVOutputFormat *)of, NULL, NULL);
//     if (ret < 0) return ret;
//     AVStream *st = avformat_new_stream(fc, NULL);
//     if (!st) { avformat_free_context(fc); return AVERROR(ENOMEM); }
//     st->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
//     st->codecpar->codec_id = codec_id;
//     st->codecpar->width = 64;
//     st->codecpar->height = 64;
//     st->codecpar->format = AV_PIX_FMT_YUV420P;
//     st->time_base = (AVRational){1, 25};
//     if (!(of->flags & AVFMT_NOFILE) && (ret = avio_open_dyn_buf(&fc->pb)) < 0) {
//         avformat_free_context(fc);
//         return ret;
//     }
//     ret = avformat_write_header(fc, NULL);
//     if (fc->pb) {
//         uint8_t *buf;
//         avio_close_dyn_buf(fc->pb, &buf);
//         av_free(buf);
//         fc->pb = NULL;
//     }
//     avformat_free_context(fc);
//     return ret;
// }
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/internal/prose"
)

// cptr returns the C struct behind an astiav object. In v0.16.0 each of FormatContext, Stream,
// CodecContext and Packet is a struct whose first field is the C pointer; the module is pinned
// in go.mod, and checkLayout verifies the assumption on every input opened.
func cptr[T any](o *T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(o)) }

func cFormat(fc *astiav.FormatContext) *C.AVFormatContext {
	return (*C.AVFormatContext)(cptr(fc))
}
func cStream(s *astiav.Stream) *C.AVStream             { return (*C.AVStream)(cptr(s)) }
func cCodec(cc *astiav.CodecContext) *C.AVCodecContext { return (*C.AVCodecContext)(cptr(cc)) }
func cFrame(f *astiav.Frame) *C.AVFrame                { return (*C.AVFrame)(f.UnsafePointer()) }
func cPacket(p *astiav.Packet) *C.AVPacket             { return (*C.AVPacket)(cptr(p)) }

// checkLayout compares what cptr reads with astiav's own accessors, so a go-astiav upgrade that
// changes its structs fails with an error instead of corrupting memory.
func checkLayout(fc *astiav.FormatContext) error {
	c := cFormat(fc)
	ok := int(c.nb_streams) == fc.NbStreams()
	for i, s := range fc.Streams() {
		ok = ok && int(cStream(s).index) == i && cStream(s) == *(**C.AVStream)(unsafe.Add(unsafe.Pointer(c.streams), i*int(unsafe.Sizeof(c.streams))))
	}
	if !ok {
		return errors.New("video: go-astiav's struct layout is not the one this package was written for (v0.16.0)")
	}
	return nil
}

// avError turns an FFmpeg return code into astiav's error type (which matches astiav.ErrEof etc.).
func avError(ret C.int) error {
	if ret >= 0 {
		return nil
	}
	return astiav.Error(ret)
}

// The codecs' "again" and "end of stream", boxed once: astiav boxes each return code it
// turns into an error, an allocation at every call.
var (
	errAgain error = astiav.ErrEagain
	errEOF   error = astiav.ErrEof
)

// receivePacket is CodecContext.ReceivePacket without an allocation for "again" or "end of
// stream" (errors.Is matches them with astiav.ErrEagain and astiav.ErrEof as before).
func receivePacket(cc *astiav.CodecContext, pkt *astiav.Packet) error {
	return codecResult(C.avcodec_receive_packet(cCodec(cc), cPacket(pkt)))
}

// receiveFrame is CodecContext.ReceiveFrame without an allocation for "again" or "end of
// stream", as receivePacket.
func receiveFrame(cc *astiav.CodecContext, f *astiav.Frame) error {
	return codecResult(C.avcodec_receive_frame(cCodec(cc), cFrame(f)))
}

// codecResult is avError with "again" and "end of stream" boxed once.
func codecResult(ret C.int) error {
	switch {
	case ret >= 0:
		return nil
	case astiav.Error(ret) == astiav.ErrEagain:
		return errAgain
	case astiav.Error(ret) == astiav.ErrEof:
		return errEOF
	}
	return avError(ret)
}

// framePool hands out frames whose single buffer comes from an AVBufferPool, so copies and
// conversions reuse a fixed set of allocations: a buffer goes back to the pool when its last
// reference (ours, or the encoder's) is dropped, which keeps memory flat over any length.
type framePool struct {
	pool          *C.AVBufferPool
	fmt           astiav.PixelFormat
	width, height int
}

func newFramePool(pf astiav.PixelFormat, w, h int) (*framePool, error) {
	size := C.tk_pool_size(C.int(pf), C.int(w), C.int(h))
	if size < 0 {
		return nil, fmt.Errorf("video: sizing a %s %dx%d frame: %w", pf, w, h, avError(size))
	}
	p := C.av_buffer_pool_init(C.size_t(size), nil)
	if p == nil {
		return nil, errors.New("video: allocating a frame pool failed")
	}
	return &framePool{pool: p, fmt: pf, width: w, height: h}, nil
}

// get gives dst (which must hold no buffers) a pooled picture buffer.
func (p *framePool) get(dst *astiav.Frame) error {
	ret := C.tk_frame_from_pool(p.pool, cFrame(dst), C.int(p.fmt), C.int(p.width), C.int(p.height))
	return avError(ret)
}

// close marks the pool for freeing; FFmpeg frees it when the last outstanding buffer returns.
func (p *framePool) close() {
	if p != nil && p.pool != nil {
		C.av_buffer_pool_uninit(&p.pool)
	}
}

// copyFrame copies the picture and the properties (pts, colour, side data) of src into dst.
func copyFrame(dst, src *astiav.Frame) error {
	if err := avError(C.av_frame_copy(cFrame(dst), cFrame(src))); err != nil {
		return fmt.Errorf("video: copying frame: %w", err)
	}
	if err := avError(C.av_frame_copy_props(cFrame(dst), cFrame(src))); err != nil {
		return fmt.Errorf("video: copying frame properties: %w", err)
	}
	return nil
}

// copyProps copies pts, colour fields and side data of src into dst.
func copyProps(dst, src *astiav.Frame) error {
	return avError(C.av_frame_copy_props(cFrame(dst), cFrame(src)))
}

func frameWritable(f *astiav.Frame) bool { return C.av_frame_is_writable(cFrame(f)) != 0 }

// plane returns plane i of f as a slice over the frame's own buffer, rows × linesize long
// (the last row cut to rowBytes). Valid only while f holds its reference.
func plane(f *astiav.Frame, i, rowBytes, rows int) ([]byte, int, error) {
	c := cFrame(f)
	ls := int(c.linesize[i])
	if c.data[i] == nil || ls < rowBytes {
		return nil, 0, fmt.Errorf("video: plane %d has linesize %d for rows of %d bytes", i, ls, rowBytes)
	}
	n := 0
	if rows > 0 {
		n = ls*(rows-1) + rowBytes
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(c.data[i])), n), ls, nil
}

// frameInfo is what the pipeline reads from a decoded frame beyond astiav's accessors.
type frameInfo struct {
	pts      int64 // best-effort presentation timestamp, stream time base
	duration int64
	pos      int64 // byte position of the packet it came from, -1 if unknown
	damaged  bool  // the decoder concealed errors in it
}

func readFrameInfo(f *astiav.Frame) frameInfo {
	c := cFrame(f)
	return frameInfo{
		pts:      int64(c.best_effort_timestamp),
		duration: int64(c.pkt_duration),
		pos:      int64(c.pkt_pos),
		damaged:  c.decode_error_flags != 0 || c.flags&C.AV_FRAME_FLAG_CORRUPT != 0,
	}
}

// setPktTimebase tells a decoder the time base of the packets it receives (FFmpeg's CLI does the
// same; some decoders use it to derive frame durations).
func setPktTimebase(cc *astiav.CodecContext, tb astiav.Rational) {
	c := cCodec(cc)
	c.pkt_timebase.num = C.int(tb.Num())
	c.pkt_timebase.den = C.int(tb.Den())
}

// copyColor carries the colour description of the input stream to the encoder, so players
// decode the output with the same matrix, range, primaries and transfer as the input; the
// matrix, range and chroma siting are the work format's, which are the input's unless its
// frames are converted.
func copyColor(enc *astiav.CodecContext, par *astiav.CodecParameters, w workFormat) {
	c := cCodec(enc)
	c.color_range = C.AVCOL_RANGE_MPEG
	if w.rng == composite.Full {
		c.color_range = C.AVCOL_RANGE_JPEG
	}
	c.colorspace = C.enum_AVColorSpace(w.space)
	c.color_primaries = C.enum_AVColorPrimaries(par.ColorPrimaries())
	c.color_trc = C.enum_AVColorTransferCharacteristic(par.ColorTransferCharacteristic())
	c.chroma_sample_location = C.enum_AVChromaLocation(w.siting)
}

// copyStreamMeta copies disposition (default, forced, attached picture…), metadata (language,
// title, handler) and side data (display matrix, i.e. rotation) from one stream to another.
func copyStreamMeta(dst, src *astiav.Stream) error {
	d, s := cStream(dst), cStream(src)
	d.disposition = s.disposition
	if err := avError(C.av_dict_copy(&d.metadata, s.metadata, 0)); err != nil {
		return fmt.Errorf("video: copying stream %d metadata: %w", src.Index(), err)
	}
	if err := avError(C.tk_copy_side_data(d, s)); err != nil {
		return fmt.Errorf("video: copying stream %d side data: %w", src.Index(), err)
	}
	return nil
}

// copyStreamTags copies disposition and metadata from one stream to another, and no side
// data (a layer drawn upright drops the display matrix).
func copyStreamTags(dst, src *astiav.Stream) error {
	d, s := cStream(dst), cStream(src)
	d.disposition = s.disposition
	if err := avError(C.av_dict_copy(&d.metadata, s.metadata, 0)); err != nil {
		return fmt.Errorf("video: copying stream %d metadata: %w", src.Index(), err)
	}
	return nil
}

// setEncoderTag names the encoder in the stream's "encoder" tag as the ffmpeg CLI does
// ("Lavc59.37.100 prores_ks"), in place of the source's, which a copy of its metadata
// carries.
func setEncoderTag(st *astiav.Stream, encoder string) error {
	v := C.CString(C.LIBAVCODEC_IDENT + " " + encoder)
	defer C.free(unsafe.Pointer(v))
	k := C.CString("encoder")
	defer C.free(unsafe.Pointer(k))
	if err := avError(C.av_dict_set(&cStream(st).metadata, k, v, 0)); err != nil {
		return fmt.Errorf("video: setting the encoder tag: %w", err)
	}
	return nil
}

// setLayerColor tags a layer's encoder: BT.709 Y'CbCr at limited range with BT.709's
// primaries and transfer (yuv), or full-range R'G'B' tagged sRGB (BT.709 primaries, the
// sRGB transfer: PNG's sRGB chunk).
func setLayerColor(cc *astiav.CodecContext, yuv bool) {
	C.tk_layer_color(cCodec(cc), nil, cBool(yuv))
}

// setLayerFrameColor is setLayerColor for one frame.
func setLayerFrameColor(f *astiav.Frame, yuv bool) {
	C.tk_layer_color(nil, cFrame(f), cBool(yuv))
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// copyContainerMeta copies the global metadata (title, creation time, encoder tags…).
func copyContainerMeta(dst, src *astiav.FormatContext) error {
	d, s := cFormat(dst), cFormat(src)
	if err := avError(C.av_dict_copy(&d.metadata, s.metadata, 0)); err != nil {
		return fmt.Errorf("video: copying container metadata: %w", err)
	}
	return nil
}

// setFormatMetadata sets a container metadata entry of an output (go-astiav's Metadata is
// nil on an output until something is set, and it has no setter).
func setFormatMetadata(fc *astiav.FormatContext, key, value string) error {
	k, v := C.CString(key), C.CString(value)
	defer C.free(unsafe.Pointer(k))
	defer C.free(unsafe.Pointer(v))
	if err := avError(C.av_dict_set(&cFormat(fc).metadata, k, v, 0)); err != nil {
		return fmt.Errorf("video: setting the container's %s tag: %w", key, err)
	}
	return nil
}

// skipNonReference makes the decoder skip, from the next packet on, the frames that no
// other frame refers to (AVDISCARD_NONREF: H.264's and HEVC's non-reference pictures), or
// decode every frame again; frame threads take the setting with each packet.
func skipNonReference(cc *astiav.CodecContext, skip bool) {
	c := cCodec(cc)
	c.skip_frame = C.AVDISCARD_DEFAULT
	if skip {
		c.skip_frame = C.AVDISCARD_NONREF
	}
}

// discardStream makes the demuxer skip a stream's packets: ReadFrame no longer returns them,
// and the MP4 demuxer does not even read their bytes.
func discardStream(s *astiav.Stream) { cStream(s).discard = C.AVDISCARD_ALL }

// reordersFrames reports whether a video stream's decoder may hold frames back to put them
// in presentation order (B-frames): its codec parameters' video_delay (ffprobe's
// has_b_frames), as the demuxer's probing found it.
func reordersFrames(s *astiav.Stream) bool { return cStream(s).codecpar.video_delay > 0 }

// isAttachedPic reports whether a stream is cover art rather than video.
func isAttachedPic(s *astiav.Stream) bool {
	return cStream(s).disposition&C.AV_DISPOSITION_ATTACHED_PIC != 0
}

// bestVideoStream returns the index of the stream FFmpeg's own heuristics pick as the main video.
func bestVideoStream(fc *astiav.FormatContext) (int, error) {
	ret := C.av_find_best_stream(cFormat(fc), C.AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
	if ret < 0 {
		return -1, avError(ret)
	}
	return int(ret), nil
}

// muxerAccepts reports whether the output format can store the codec of a copied stream;
// FFmpeg answers "don't know" (negative) for some muxers, which counts as yes: writing the
// header will tell.
func muxerAccepts(fc *astiav.FormatContext, id astiav.CodecID) bool {
	return C.avformat_query_codec(cFormat(fc).oformat, C.enum_AVCodecID(id), C.FF_COMPLIANCE_NORMAL) != 0
}

// checkMuxer finds the muxer FFmpeg would choose for path's name (as ffmpeg does, by the
// extension) and checks that it can hold video of codec (muxerTakes); otherwise a
// *field.Error for Options.Output naming the codec and the containers that hold it.
func checkMuxer(path string, codec astiav.CodecID) error {
	if path == "" {
		return field.Errorf("video.Options.Output", path, "no output file given")
	}
	of := guessFormat(path)
	if of == nil {
		return field.Errorf("video.Options.Output", path, "no container format is known by this name's extension (use %s)", holders(codec))
	}
	if takes, why := muxerTakes(of, codec); !takes {
		name, also := C.GoString(of.name), ""
		if name == "image2" {
			also = "; a numbered picture sequence is written by a layer-only render"
		}
		return field.Errorf("video.Options.Output", path, "the %s container cannot hold %s video (use %s)%s%s", name, codecWords(codec), holders(codec), also, because(why))
	}
	return nil
}

// guessFormat is the muxer FFmpeg picks for path's name, or nil.
func guessFormat(path string) *C.AVOutputFormat {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	return C.av_guess_format(nil, cs, nil)
}

// muxerTakes reports whether muxer of can hold video of codec, and what FFmpeg said if not.
// The muxer is asked first; where it says yes, or cannot say (AVERROR_PATCHWELCOME), a
// header is written into memory, which checks what its answer does not: MOV's codec list
// has VP9, which its header refuses outside MP4, saying so. A yes stands against a header
// that fails without a word: Matroska's fails on the test stream's missing H.264 and HEVC
// parameter sets, which the encoder gives a real one.
func muxerTakes(of *C.AVOutputFormat, codec astiav.CodecID) (bool, []string) {
	takes := C.avformat_query_codec(of, C.enum_AVCodecID(codec), C.FF_COMPLIANCE_NORMAL)
	if takes != 1 && takes != C.AVERROR_PATCHWELCOME {
		return false, nil
	}
	sink, detach := attachFFmpegLog(nil)
	defer detach()
	sink.capture()
	ret := C.tk_muxer_takes_video(of, C.int(codec))
	why := sink.release()
	if takes == 1 && len(why) == 0 {
		return true, nil
	}
	return ret >= 0, why
}

// holders names the containers, of those a render writes, that hold video of codec, for
// messages: ".mov or .mkv".
func holders(codec astiav.CodecID) string {
	var ok []string
	for _, ext := range []string{".mp4", ".mov", ".mkv", ".webm"} {
		if takes, _ := muxerTakes(guessFormat("x"+ext), codec); takes {
			ok = append(ok, ext)
		}
	}
	if len(ok) == 0 {
		return "another encoder: no container trackink writes holds " + codecWords(codec)
	}
	return prose.List(ok, " or ")
}

// codecWords names a video codec in messages.
func codecWords(id astiav.CodecID) string {
	switch id {
	case astiav.CodecIDH264:
		return "H.264"
	case astiav.CodecIDHevc:
		return "HEVC"
	case astiav.CodecIDProres:
		return "ProRes"
	case astiav.CodecIDDnxhd:
		return "DNxHR"
	case astiav.CodecIDVp9:
		return "VP9"
	case astiav.CodecIDQtrle:
		return "QuickTime Animation (qtrle)"
	case astiav.CodecIDPng:
		return "PNG"
	}
	return id.Name()
}

// indexEntries is the number of entries in the demuxer's index of stream s.
func indexEntries(s *astiav.Stream) int { return int(C.avformat_index_get_entries_count(cStream(s))) }

// indexEntry is entry i (0 ≤ i < indexEntries) of the demuxer's index of stream s: its
// timestamp and byte position.
func indexEntry(s *astiav.Stream, i int) (ts, pos int64) {
	e := C.avformat_index_get_entry(cStream(s), C.int(i))
	return int64(e.timestamp), int64(e.pos)
}
