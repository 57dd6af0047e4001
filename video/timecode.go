package video

//#cgo pkg-config: libavutil libavformat
//#include <stdlib.h>
//#include <libavformat/avformat.h>
//#include <libavutil/timecode.h>
//
// // tk_timecode_add writes to out the timecode frames frames after tc (HH:MM:SS:FF, or
// // HH:MM:SS;FF drop-frame) at rate: av_timecode_make_string counts drop-frame timecodes
// // and wraps at 24 hours as FFmpeg's muxers do.
// static int tk_timecode_add(const char *tc, AVRational rate, int frames, char *out) {
//     AVTimecode t;
//     int ret = av_timecode_init_from_string(&t, rate, tc, NULL);
//     if (ret < 0) return ret;
//     av_timecode_make_string(&t, out, frames);
//     return 0;
// }
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// addToTimecode returns timecode tc (as FFmpeg's "timecode" tag holds it) moved on by frames
// frames of a video of frame rate rate.
func addToTimecode(tc string, rate astiav.Rational, frames int) (string, error) {
	if rate.Num() <= 0 || rate.Den() <= 0 {
		return "", fmt.Errorf("the video has no frame rate to count timecode %s by", tc)
	}
	c := C.CString(tc)
	defer C.free(unsafe.Pointer(c))
	var out [C.AV_TIMECODE_STR_SIZE]C.char
	r := C.AVRational{num: C.int(rate.Num()), den: C.int(rate.Den())}
	if err := avError(C.tk_timecode_add(c, r, C.int(frames), &out[0])); err != nil {
		return "", fmt.Errorf("timecode %s at %d/%d frames a second: %w", tc, rate.Num(), rate.Den(), err)
	}
	return C.GoString(&out[0]), nil
}

// timecodeRate is the rate a video's timecode counts frames at: its average frame rate, as
// FFmpeg's MOV muxer counts it, or its base rate where that is unknown.
func timecodeRate(vs *astiav.Stream) astiav.Rational {
	if r := vs.AvgFrameRate(); r.Num() > 0 && r.Den() > 0 {
		return r
	}
	return vs.RFrameRate()
}

// startOffset is the number of frames before the first frame start selects: for a time, the
// frames of a constant rate rate that come before it (the window's first frame is the first
// at or after the time).
func startOffset(start Position, rate astiav.Rational) int {
	switch {
	case start.IsZero():
		return 0
	case !start.IsTime:
		return start.Frame - 1
	case rate.Num() <= 0 || rate.Den() <= 0:
		return 0
	}
	// A nanosecond's slack: a time given as a frame's own (1.2 s at 10 fps) starts there.
	return max(int(math.Ceil(start.Time.Seconds()*rate.Float64()-1e-9)), 0)
}

// shiftTimecodes moves the output's timecode tags (the container's and each stream's, which
// MOV's timecode track is written from), copied from the source, on by frames frames of the
// source's video stream vs: the output begins frames frames into the source, and an editor
// lines a layer or a render up with the source by them. A tag that cannot be counted is
// dropped, with a warning: kept, it would place the output early. Called before the header
// is written, which carries them.
func (o *output) shiftTimecodes(vs *astiav.Stream, frames int, warn func(string)) error {
	if frames == 0 {
		return nil
	}
	rate := timecodeRate(vs)
	dicts := []**C.AVDictionary{&cFormat(o.fc).metadata}
	for _, s := range o.fc.Streams() {
		dicts = append(dicts, &cStream(s).metadata)
	}
	key := C.CString("timecode")
	defer C.free(unsafe.Pointer(key))
	for _, d := range dicts {
		e := C.av_dict_get(*d, key, nil, 0)
		if e == nil {
			continue
		}
		tc := C.GoString(e.value)
		shifted, err := addToTimecode(tc, rate, frames)
		var v *C.char // NULL deletes the entry
		if err != nil {
			warn(fmt.Sprintf("timecode %s dropped: it cannot be moved on to the output's first frame, %d frames in (%v)", tc, frames, err))
		} else {
			v = C.CString(shifted)
		}
		err = avError(C.av_dict_set(d, key, v, 0))
		C.free(unsafe.Pointer(v))
		if err != nil {
			return fmt.Errorf("video: setting the timecode: %w", err)
		}
	}
	return nil
}
