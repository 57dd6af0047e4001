package video

// A codec's blocking calls run on a thread of its own, waited for in slices of a few
// milliseconds.
//
// Why: x264 with frame threads blocks avcodec_send_frame until one of its threads is free,
// tens of milliseconds a frame at 1080p, a frame-threaded decoder blocks
// avcodec_send_packet the same way, and so do the calls that drain them at the end. A
// goroutine in a cgo call that long, or one that has run 10 ms without being rescheduled,
// has its P taken by Go's sysmon, and each time sysmon takes one it polls again every 20 µs
// for a millisecond before backing off: on vtest.avi it doubled the render's thread
// switches, each one a switch away from x264 on a two-core machine. A wait that returns
// within the slice is a new call each time, and the goroutine is rescheduled before each,
// so sysmon takes nothing and backs off to its 10 ms sleep.

//#define _GNU_SOURCE
//#include <errno.h>
//#include <pthread.h>
//#include <stdlib.h>
//#include <time.h>
//#include <libavcodec/avcodec.h>
//
// static int tk_frame_threaded(AVCodecContext *cc) { return (cc->active_thread_type & FF_THREAD_FRAME) != 0; }
//
// enum { TK_SEND_FRAME, TK_RECEIVE_PACKET, TK_SEND_PACKET, TK_RECEIVE_FRAME };
//
// typedef struct tk_codec_thread {
//     pthread_t thread;
//     pthread_mutex_t mu;
//     pthread_cond_t work, done;
//     AVCodecContext *cc;
//     AVFrame *frame;   // the frame to send (NULL: drain) or receive into
//     AVPacket *packet; // the packet to send (NULL: drain) or receive into
//     int op, busy, ret, quit;
// } tk_codec_thread;
//
// static int tk_codec_call(tk_codec_thread *s) {
//     switch (s->op) {
//     case TK_SEND_FRAME: return avcodec_send_frame(s->cc, s->frame);
//     case TK_RECEIVE_PACKET: return avcodec_receive_packet(s->cc, s->packet);
//     case TK_SEND_PACKET: return avcodec_send_packet(s->cc, s->packet);
//     default: return avcodec_receive_frame(s->cc, s->frame);
//     }
// }
//
// static void *tk_codec_thread_main(void *arg) {
//     tk_codec_thread *s = arg;
//     pthread_mutex_lock(&s->mu);
//     for (;;) {
//         while (!s->busy && !s->quit) pthread_cond_wait(&s->work, &s->mu);
//         if (!s->busy) break;
//         pthread_mutex_unlock(&s->mu);
//         int ret = tk_codec_call(s);
//         pthread_mutex_lock(&s->mu);
//         s->ret = ret;
//         s->busy = 0;
//         pthread_cond_signal(&s->done);
//     }
//     pthread_mutex_unlock(&s->mu);
//     return NULL;
// }
//
// static tk_codec_thread *tk_codec_thread_new(AVCodecContext *cc, const char *name) {
//     tk_codec_thread *s = calloc(1, sizeof *s);
//     if (!s) return NULL;
//     pthread_condattr_t attr;
//     pthread_condattr_init(&attr);
//     pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
//     pthread_mutex_init(&s->mu, NULL);
//     pthread_cond_init(&s->work, NULL);
//     pthread_cond_init(&s->done, &attr);
//     pthread_condattr_destroy(&attr);
//     s->cc = cc;
//     if (pthread_create(&s->thread, NULL, tk_codec_thread_main, s) != 0) {
//         pthread_cond_destroy(&s->done);
//         pthread_cond_destroy(&s->work);
//         pthread_mutex_destroy(&s->mu);
//         free(s);
//         return NULL;
//     }
//     pthread_setname_np(s->thread, name); // before the caller goes on
//     return s;
// }
//
// static void tk_codec_thread_start(tk_codec_thread *s, int op, AVFrame *f, AVPacket *p) {
//     pthread_mutex_lock(&s->mu);
//     s->op = op;
//     s->frame = f;
//     s->packet = p;
//     s->busy = 1;
//     pthread_cond_signal(&s->work);
//     pthread_mutex_unlock(&s->mu);
// }
//
// // tk_codec_thread_wait waits at most usec microseconds for the call to return: 1 when it has
// // (its result is then tk_codec_thread_result's), else 0.
// static int tk_codec_thread_wait(tk_codec_thread *s, long usec) {
//     struct timespec t;
//     clock_gettime(CLOCK_MONOTONIC, &t);
//     t.tv_nsec += usec * 1000;
//     t.tv_sec += t.tv_nsec / 1000000000;
//     t.tv_nsec %= 1000000000;
//     pthread_mutex_lock(&s->mu);
//     while (s->busy && pthread_cond_timedwait(&s->done, &s->mu, &t) != ETIMEDOUT) {
//     }
//     int finished = !s->busy;
//     pthread_mutex_unlock(&s->mu);
//     return finished;
// }
//
// static int tk_codec_thread_result(tk_codec_thread *s) {
//     pthread_mutex_lock(&s->mu);
//     int ret = s->ret;
//     pthread_mutex_unlock(&s->mu);
//     return ret;
// }
//
// static void tk_codec_thread_free(tk_codec_thread *s) {
//     pthread_mutex_lock(&s->mu);
//     s->quit = 1;
//     pthread_cond_signal(&s->work);
//     pthread_mutex_unlock(&s->mu);
//     pthread_join(s->thread, NULL);
//     pthread_cond_destroy(&s->done);
//     pthread_cond_destroy(&s->work);
//     pthread_mutex_destroy(&s->mu);
//     free(s);
// }
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// The names of the codec threads, as top -H and /proc show them.
const (
	encodeThreadName = "trackink-encode"
	decodeThreadName = "trackink-decode"
)

// codecSlice is the longest a wait for a codec thread stays in one cgo call, in
// microseconds: under sysmon's 10 ms.
const codecSlice = 8000

// codecThread runs a codec's calls that block on a thread of its own (see the file's
// comment), one at a time; the thread ends at free. Its methods make the call directly on
// a nil codecThread, and a receive directly until the codec drains: until then it returns
// at once.
type codecThread struct {
	t        *C.tk_codec_thread
	draining bool // the end was sent, so that receiving blocks too
}

// newCodecThread starts a thread for cc's calls, named name (at most 15 bytes).
func newCodecThread(cc *astiav.CodecContext, name string) (*codecThread, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	t := C.tk_codec_thread_new(cCodec(cc), cname)
	if t == nil {
		return nil, fmt.Errorf("video: starting thread %s failed", name)
	}
	return &codecThread{t: t}, nil
}

// call runs op (a TK_ value) with frame f and packet p on the thread and returns its result.
func (c *codecThread) call(op C.int, f *C.AVFrame, p *C.AVPacket) C.int {
	C.tk_codec_thread_start(c.t, op, f, p)
	for {
		// Rescheduled before each wait: sysmon also takes the P of a goroutine that has
		// run for 10 ms without being rescheduled, cgo calls or not.
		runtime.Gosched()
		if C.tk_codec_thread_wait(c.t, codecSlice) != 0 {
			return C.tk_codec_thread_result(c.t)
		}
	}
}

// sendFrame is avcodec_send_frame on cc; a nil f drains the encoder.
func (c *codecThread) sendFrame(cc *astiav.CodecContext, f *astiav.Frame) error {
	if c == nil {
		return cc.SendFrame(f)
	}
	var cf *C.AVFrame
	if f != nil {
		cf = cFrame(f)
	} else {
		c.draining = true
	}
	return avError(c.call(C.TK_SEND_FRAME, cf, nil))
}

// receivePacket is the package's receivePacket on cc.
func (c *codecThread) receivePacket(cc *astiav.CodecContext, pkt *astiav.Packet) error {
	if c == nil || !c.draining {
		return receivePacket(cc, pkt)
	}
	return codecResult(c.call(C.TK_RECEIVE_PACKET, nil, cPacket(pkt)))
}

// sendPacket is avcodec_send_packet on cc; a nil pkt drains the decoder.
func (c *codecThread) sendPacket(cc *astiav.CodecContext, pkt *astiav.Packet) error {
	if c == nil {
		return cc.SendPacket(pkt)
	}
	var cp *C.AVPacket
	if pkt != nil {
		cp = cPacket(pkt)
	} else {
		c.draining = true
	}
	return avError(c.call(C.TK_SEND_PACKET, nil, cp))
}

// receiveFrame is the package's receiveFrame on cc.
func (c *codecThread) receiveFrame(cc *astiav.CodecContext, f *astiav.Frame) error {
	if c == nil || !c.draining {
		return receiveFrame(cc, f)
	}
	return codecResult(c.call(C.TK_RECEIVE_FRAME, cFrame(f), nil))
}

// free ends the thread, if there is one.
func (c *codecThread) free() {
	if c != nil {
		C.tk_codec_thread_free(c.t)
	}
}

// frameThreaded says whether the opened codec cc runs frame threads, which make its calls
// block until one is free; a decoder without them returns at once.
func frameThreaded(cc *astiav.CodecContext) bool { return C.tk_frame_threaded(cCodec(cc)) != 0 }
