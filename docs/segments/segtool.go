//go:build ignore

// segtool is the experiment behind docs/segments.md (issue #15): not project code, not built
// by go build ./... (build tag ignore). Run it with docs/segments/experiment.sh, or
// go run docs/segments/segtool.go ARGS from the repository root.
//
//	segtool probe IN                      frame table from packets (demux only)
//	segtool render IN OUT A B [x264opts]  frames [A,B) (1-based, presentation order; B=0: to the end)
//	                                      A=1,B=0 and "noseek": decode from the start, number by count
//	segtool join OUT SRC SEG...           concatenate segments' video packets + SRC's other streams
//
// Every rendered frame gets its frame number v painted into the top-left 64x8 luma block (one
// bit per 8x8 cell), standing in for the overlay: a wrong frame number shows in framemd5.
package main

/*
#cgo pkg-config: libavcodec libavformat libavutil
#include <libavutil/frame.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
static int mark(AVFrame *f, int v) {
	int r = av_frame_make_writable(f);
	if (r < 0) return r;
	for (int y = 0; y < 8 && y < f->height; y++)
		for (int x = 0; x < 64 && x < f->width; x++)
			f->data[0][y*f->linesize[0]+x] = ((v >> (x/8)) & 1) ? 235 : 16;
	return 0;
}
static int compare_ts(int64_t a, int an, int ad, int64_t b, int bn, int bd) { return av_compare_ts(a, (AVRational){an, ad}, b, (AVRational){bn, bd}); }
static int64_t frame_dur(AVFrame *f) { return f->pkt_duration; }
static int64_t best_effort(AVFrame *f) { return f->best_effort_timestamp; }
static int set_meta(AVFormatContext *fc, const char *k, const char *v) { return av_dict_set(&fc->metadata, k, v, 0); }
static const char *get_meta(AVFormatContext *fc, const char *k) {
	AVDictionaryEntry *e = av_dict_get(fc->metadata, k, NULL, 0);
	return e ? e->value : NULL;
}
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/asticode/go-astiav"
)

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "segtool: %s: %v\n", what, err)
		os.Exit(1)
	}
}

// fcPtr is the C AVFormatContext behind astiav's FormatContext (its only field), as
// video/avshim.go does it.
func fcPtr(fc *astiav.FormatContext) *C.AVFormatContext {
	return *(**C.AVFormatContext)(unsafe.Pointer(fc))
}

type keyframe struct{ pts, dts int64 }

type table struct {
	pts  []int64 // sorted presentation timestamps of the frames (frame v is pts[v-1])
	keys []keyframe
	tb   astiav.Rational
}

func openIn(path string) (*astiav.FormatContext, *astiav.Stream) {
	fc := astiav.AllocFormatContext()
	must(fc.OpenInput(path, nil, nil), "open "+path)
	must(fc.FindStreamInfo(nil), "stream info")
	for _, s := range fc.Streams() {
		if s.CodecParameters().MediaType() == astiav.MediaTypeVideo {
			return fc, s
		}
	}
	must(errors.New("no video"), path)
	return nil, nil
}

// probe reads every video packet (no decoding): the frame table is the sorted pts of the
// packets the decoder will output (DISCARD-flagged ones, before an MP4 edit list, excluded).
func probe(path string) table {
	fc, vs := openIn(path)
	defer fc.CloseInput()
	t := table{tb: vs.TimeBase()}
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	for {
		err := fc.ReadFrame(pkt)
		if errors.Is(err, astiav.ErrEof) {
			break
		}
		must(err, "read")
		if pkt.StreamIndex() == vs.Index() && !pkt.Flags().Has(astiav.PacketFlagDiscard) {
			if pkt.Pts() == astiav.NoPtsValue {
				must(errors.New("packet without pts: not seekable by pts; decode from the start"), "probe")
			}
			t.pts = append(t.pts, pkt.Pts())
			if pkt.Flags().Has(astiav.PacketFlagKey) {
				t.keys = append(t.keys, keyframe{pkt.Pts(), pkt.Dts()})
			}
		}
		pkt.Unref()
	}
	slices.Sort(t.pts)
	for i := 1; i < len(t.pts); i++ {
		if t.pts[i] == t.pts[i-1] {
			must(fmt.Errorf("duplicate pts %d", t.pts[i]), "probe")
		}
	}
	return t
}

func movTimescale(tb astiav.Rational) int {
	ts := tb.Den()
	for ts < 10000 {
		ts *= 2
	}
	return ts
}

func render(in, out string, a, b int, x264 string, noseek bool) {
	t := probe(in)
	n := len(t.pts)
	if b == 0 {
		b = n + 1
	}
	if a < 1 || b > n+1 || a >= b {
		must(fmt.Errorf("range [%d,%d) outside 1..%d", a, b, n), "render")
	}
	startPts := t.pts[a-1]
	endPts := int64(1 << 62)
	if b <= n {
		endPts = t.pts[b-1]
	}
	fc, vs := openIn(in)
	defer fc.CloseInput()
	if !noseek {
		// The last keyframe whose pts is at or before frame a; seek by its dts (what the mov
		// index holds), backward.
		k := -1
		for i, kf := range t.keys {
			if kf.pts <= startPts {
				k = i
			}
		}
		if k < 0 {
			must(errors.New("no keyframe at or before the first frame"), "seek")
		}
		target := t.keys[k].pts
		if os.Getenv("SEEKMODE") == "dts" {
			target = t.keys[k].dts
		}
		if os.Getenv("SEEKMODE") == "pts" {
			target = startPts // the naive way: seek to the first frame's own pts
		}
		must(fc.SeekFrame(vs.Index(), target, astiav.NewSeekFlags(astiav.SeekFlagBackward)), "seek")
		fmt.Fprintf(os.Stderr, "segtool: frames [%d,%d): seek to keyframe pts %d (dts %d), target %d, for first pts %d\n", a, b, t.keys[k].pts, t.keys[k].dts, target, startPts)
	}
	par := vs.CodecParameters()
	dc := astiav.AllocCodecContext(astiav.FindDecoder(par.CodecID()))
	must(par.ToCodecContext(dc), "dec par")
	dc.SetThreadCount(0)
	must(dc.Open(astiav.FindDecoder(par.CodecID()), nil), "open decoder")

	ofc, err := astiav.AllocOutputFormatContext(nil, "", out)
	must(err, "alloc output")
	encName := "libx264"
	if e := os.Getenv("ENC"); e != "" {
		encName = e
	}
	ec := astiav.AllocCodecContext(astiav.FindEncoderByName(encName))
	ec.SetWidth(par.Width())
	ec.SetHeight(par.Height())
	ec.SetPixelFormat(astiav.PixelFormatYuv420P)
	ec.SetTimeBase(vs.TimeBase())
	rate := vs.AvgFrameRate()
	ec.SetFramerate(rate)
	if ofc.OutputFormat().Flags().Has(astiav.IOFormatFlagGlobalheader) {
		ec.SetFlags(ec.Flags().Add(astiav.CodecContextFlagGlobalHeader))
	}
	opts := astiav.NewDictionary()
	must(opts.Set("forced-idr", "1", 0), "opt")
	for _, kv := range strings.Split(x264, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			must(opts.Set(k, v, 0), "opt")
		}
	}
	must(ec.Open(astiav.FindEncoderByName(encName), opts), "open encoder")
	ost := ofc.NewStream(nil)
	must(ost.CodecParameters().FromCodecContext(ec), "par")
	ost.SetTimeBase(ec.TimeBase())
	pb, err := astiav.OpenIOContext(out, astiav.NewIOContextFlags(astiav.IOContextFlagWrite))
	must(err, "open out")
	ofc.SetPb(pb)
	mo := astiav.NewDictionary()
	if strings.HasSuffix(out, ".mp4") {
		ts := strconv.Itoa(movTimescale(vs.TimeBase()))
		must(mo.Set("movie_timescale", ts, 0), "opt")
		must(mo.Set("video_track_timescale", ts, 0), "opt")
		must(mo.Set("movflags", "use_metadata_tags", 0), "opt")
	}
	for _, kv := range strings.Split(os.Getenv("SEGMP4OPTS"), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			must(mo.Set(k, v, 0), "opt")
		}
	}
	lastD := int64(0)
	if b <= n {
		lastD = t.pts[b-1] - t.pts[b-2]
	} else if n > 1 {
		lastD = t.pts[n-1] - t.pts[n-2] // whole-render rule for the final frame, as in render below
	}
	cs := C.CString(fmt.Sprintf("frames=%d-%d;first_pts=%d;last_pts=%d;last_duration=%d", a, b, startPts, t.pts[b-2], lastD))
	ck := C.CString("trackink_segment")
	C.set_meta(fcPtr(ofc), ck, cs)
	must(ofc.WriteHeader(mo), "header")

	pkt := astiav.AllocPacket()
	fr := astiav.AllocFrame()
	opkt := astiav.AllocPacket()
	first, count, done := true, 0, false
	durs := map[int64]int64{}
	v := 0 // frame number (noseek: by count)
	drain := func() {
		for {
			err := ec.ReceivePacket(opkt)
			if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
				return
			}
			must(err, "receive packet")
			if d, ok := durs[opkt.Pts()]; ok && opkt.Duration() <= 0 {
				opkt.SetDuration(d)
				delete(durs, opkt.Pts())
			}
			opkt.SetStreamIndex(ost.Index())
			opkt.RescaleTs(ec.TimeBase(), ost.TimeBase())
			must(ofc.WriteInterleavedFrame(opkt), "write")
		}
	}
	receive := func() {
		for !done {
			err := dc.ReceiveFrame(fr)
			if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
				return
			}
			must(err, "decode")
			pts := int64(C.best_effort((*C.AVFrame)(fr.UnsafePointer())))
			if noseek {
				v++
			} else {
				i, ok := slices.BinarySearch(t.pts, pts)
				if !ok {
					must(fmt.Errorf("decoded pts %d not in the frame table", pts), "decode")
				}
				v = i + 1
			}
			if count == 0 && first && os.Getenv("SEEKDEBUG") != "" {
				fmt.Fprintf(os.Stderr, "segtool: decoded pts %d (frame %d)\n", pts, v)
				os.Setenv("SEEKDEBUG", "")
			}
			if pts < startPts || (noseek && v < a) {
				fr.Unref()
				continue
			}
			if pts >= endPts {
				done = true
				fr.Unref()
				return
			}
			if first && pts != startPts {
				must(fmt.Errorf("first frame decoded has pts %d, want %d (seek landed too late)", pts, startPts), "decode")
			}
			if C.mark((*C.AVFrame)(fr.UnsafePointer()), C.int(v)) < 0 {
				must(errors.New("make writable"), "mark")
			}
			fr.SetPts(pts)
			d := int64(C.frame_dur((*C.AVFrame)(fr.UnsafePointer())))
			if v < n {
				d = t.pts[v] - pts // exact: the gap to the next frame, from the frame table
			} else if d <= 0 && v > 1 {
				d = pts - t.pts[v-2] // the last frame: as long as the one before it
			}
			durs[pts] = d
			if first {
				fr.SetPictureType(astiav.PictureTypeI) // with forced-idr=1: an IDR
			} else {
				fr.SetPictureType(astiav.PictureTypeNone)
			}
			first = false
			count++
			must(ec.SendFrame(fr), "encode")
			fr.Unref()
			drain()
		}
	}
	fed := noseek // whether the decoder has had a packet since the seek
	for !done {
		err := fc.ReadFrame(pkt)
		if errors.Is(err, astiav.ErrEof) {
			break
		}
		must(err, "read")
		if pkt.StreamIndex() == vs.Index() && !fed {
			// After a seek the first packet fed must be a keyframe of the table at or before
			// the first frame: packets before a keyframe are skipped; a keyframe after it
			// means the seek landed too late (demuxers without an index): start over.
			if !pkt.Flags().Has(astiav.PacketFlagKey) {
				pkt.Unref()
				continue
			}
			if pkt.Pts() > startPts {
				fmt.Fprintf(os.Stderr, "segtool: seek landed at keyframe pts %d, after the first frame (pts %d): decoding from the start\n", pkt.Pts(), startPts)
				pkt.Unref()
				fc, vs = openIn(in) // (the scratch tool leaks the first one)
				fed = true
				continue
			}
			fmt.Fprintf(os.Stderr, "segtool: decoding from keyframe pts %d\n", pkt.Pts())
			fed = true
		}
		if pkt.StreamIndex() == vs.Index() {
			must(dc.SendPacket(pkt), "send packet")
			receive()
		}
		pkt.Unref()
	}
	if !done {
		must(dc.SendPacket(nil), "flush decoder")
		receive()
	}
	must(ec.SendFrame(nil), "flush encoder")
	drain()
	must(ofc.WriteTrailer(), "trailer")
	pb.Close()
	if count != b-a {
		must(fmt.Errorf("encoded %d frames, want %d", count, b-a), "render")
	}
	fmt.Fprintf(os.Stderr, "segtool: wrote %s: frames [%d,%d), %d frames\n", out, a, b, count)
}

type seg struct {
	fc *astiav.FormatContext
	vs *astiav.Stream
}

func join(out, src string, segs []string) {
	var ss []seg
	var lastDur, lastPts int64
	for i, p := range segs {
		fc, vs := openIn(p)
		if i > 0 {
			a, b := ss[0].vs.CodecParameters(), vs.CodecParameters()
			if !bytes.Equal(a.ExtraData(), b.ExtraData()) || a.Width() != b.Width() || a.Height() != b.Height() || a.CodecID() != b.CodecID() {
				must(fmt.Errorf("%s: codec parameters (extradata %d bytes vs %d) differ from %s: foreign segment", p, len(b.ExtraData()), len(a.ExtraData()), segs[0]), "join")
			}
		}
		if m := C.get_meta(fcPtr(fc), C.CString("trackink_segment")); m != nil {
			fmt.Fprintf(os.Stderr, "segtool: %s: %s\n", p, C.GoString(m))
			for _, kv := range strings.Split(C.GoString(m), ";") {
				if k, v, ok := strings.Cut(kv, "="); ok && k == "last_duration" {
					lastDur, _ = strconv.ParseInt(v, 10, 64)
				} else if ok && k == "last_pts" {
					lastPts, _ = strconv.ParseInt(v, 10, 64)
				}
			}
		}
		ss = append(ss, seg{fc, vs})
	}
	sfc, svs := openIn(src)
	ofc, err := astiav.AllocOutputFormatContext(nil, "", out)
	must(err, "alloc")
	// Output streams in the source's order: the video from the segments, the rest copied.
	oidx := map[int]*astiav.Stream{}
	var ovs *astiav.Stream
	for _, s := range sfc.Streams() {
		o := ofc.NewStream(nil)
		if s.Index() == svs.Index() {
			must(ss[0].vs.CodecParameters().Copy(o.CodecParameters()), "copy par")
			o.SetTimeBase(ss[0].vs.TimeBase())
			ovs = o
		} else {
			must(s.CodecParameters().Copy(o.CodecParameters()), "copy par")
			o.SetTimeBase(s.TimeBase())
			oidx[s.Index()] = o
		}
		o.CodecParameters().SetCodecTag(0)
	}
	pb, err := astiav.OpenIOContext(out, astiav.NewIOContextFlags(astiav.IOContextFlagWrite))
	must(err, "open")
	ofc.SetPb(pb)
	must(ofc.WriteHeader(nil), "header")
	vtb := ss[0].vs.TimeBase()
	// The segment record's numbers are in the source video stream's time base.
	lastPts = astiav.RescaleQ(lastPts, svs.TimeBase(), vtb)
	lastDur = astiav.RescaleQ(lastDur, svs.TimeBase(), vtb)

	// Video packets from the segments in order, each segment's timestamps as they are; dts is
	// nudged to stay strictly increasing across a join (it never passes the packet's pts).
	nextVideo := func() func() *astiav.Packet {
		i := 0
		lastDts, maxPts := int64(astiav.NoPtsValue), int64(astiav.NoPtsValue)
		firstOfSeg := true
		return func() *astiav.Packet {
			for i < len(ss) {
				p := astiav.AllocPacket()
				err := ss[i].fc.ReadFrame(p)
				if errors.Is(err, astiav.ErrEof) {
					p.Free()
					i++
					firstOfSeg = true
					continue
				}
				must(err, "read segment")
				if p.StreamIndex() != ss[i].vs.Index() {
					p.Free()
					continue
				}
				if ss[i].vs.TimeBase() != vtb {
					p.RescaleTs(ss[i].vs.TimeBase(), vtb)
				}
				if firstOfSeg {
					if !p.Flags().Has(astiav.PacketFlagKey) {
						must(fmt.Errorf("%s does not start with a keyframe", segs[i]), "join")
					}
					if maxPts != astiav.NoPtsValue && p.Pts() <= maxPts {
						must(fmt.Errorf("%s starts at pts %d, not after the previous segment's last frame (%d)", segs[i], p.Pts(), maxPts), "join")
					}
					firstOfSeg = false
				}
				if lastDts != astiav.NoPtsValue && p.Dts() <= lastDts {
					nd := lastDts + 1
					fmt.Fprintf(os.Stderr, "segtool: %s: dts %d -> %d (pts %d)\n", segs[i], p.Dts(), nd, p.Pts())
					if nd > p.Pts() {
						must(fmt.Errorf("dts cannot be made increasing at pts %d", p.Pts()), "join")
					}
					p.SetDts(nd)
				}
				lastDts = p.Dts()
				maxPts = max(maxPts, p.Pts())
				return p
			}
			return nil
		}
	}()
	nextOther := func() *astiav.Packet {
		for {
			p := astiav.AllocPacket()
			err := sfc.ReadFrame(p)
			if errors.Is(err, astiav.ErrEof) {
				p.Free()
				return nil
			}
			must(err, "read source")
			if _, ok := oidx[p.StreamIndex()]; !ok {
				p.Free()
				continue
			}
			return p
		}
	}
	vp, op := nextVideo(), nextOther()
	pending := vp
	vp = nextVideo()
	nv, no := 0, 0
	for pending != nil || op != nil {
		if pending != nil && pending.Pts() == lastPts && lastDur > 0 {
			// The final frame in presentation order (not the last packet: B-frames): the MP4
			// muxer ends the edit list at max(pts + duration).
			pending.SetDuration(lastDur)
		}
		useVideo := op == nil
		if pending != nil && op != nil {
			ist := sfc.Streams()[op.StreamIndex()]
			itb := ist.TimeBase()
			useVideo = C.compare_ts(C.int64_t(pending.Dts()), C.int(vtb.Num()), C.int(vtb.Den()), C.int64_t(op.Dts()), C.int(itb.Num()), C.int(itb.Den())) <= 0
		}
		if useVideo {
			pending.SetStreamIndex(ovs.Index())
			pending.RescaleTs(vtb, ovs.TimeBase())
			pending.SetPos(-1)
			must(ofc.WriteInterleavedFrame(pending), "write video")
			pending.Free()
			nv++
			pending = vp
			if vp != nil {
				vp = nextVideo()
			}
		} else {
			ist := sfc.Streams()[op.StreamIndex()]
			o := oidx[op.StreamIndex()]
			op.SetStreamIndex(o.Index())
			op.RescaleTs(ist.TimeBase(), o.TimeBase())
			op.SetPos(-1)
			must(ofc.WriteInterleavedFrame(op), "write other")
			op.Free()
			no++
			op = nextOther()
		}
	}
	must(ofc.WriteTrailer(), "trailer")
	pb.Close()
	fmt.Fprintf(os.Stderr, "segtool: joined %d segments: %d video packets, %d others -> %s\n", len(ss), nv, no, out)
}

func main() {
	astiav.SetLogLevel(astiav.LogLevelError)
	args := os.Args[1:]
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: segtool probe IN | render IN OUT A B [opts] [noseek] | join OUT SRC SEG...")
		os.Exit(2)
	}
	switch args[0] {
	case "probe":
		t := probe(args[1])
		fmt.Printf("frames %d, tb %s, keyframes:", len(t.pts), t.tb)
		for _, k := range t.keys {
			i, _ := slices.BinarySearch(t.pts, k.pts)
			fmt.Printf(" v%d(pts %d dts %d)", i+1, k.pts, k.dts)
		}
		fmt.Println()
	case "render":
		a, _ := strconv.Atoi(args[3])
		b, _ := strconv.Atoi(args[4])
		x, noseek := "", false
		for _, s := range args[5:] {
			if s == "noseek" {
				noseek = true
			} else {
				x = s
			}
		}
		render(args[1], args[2], a, b, x, noseek)
	case "join":
		join(args[1], args[2], args[3:])
	}
}
