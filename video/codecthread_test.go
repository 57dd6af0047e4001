package video

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"
)

// threadsNamed counts this process's threads named name.
func threadsNamed(t *testing.T, name string) int {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/comm")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, comm := range tasks {
		if b, err := os.ReadFile(comm); err == nil && strings.TrimSpace(string(b)) == name {
			n++
		}
	}
	return n
}

// openTestCodec opens libx264 (ultrafast) or the H.264 decoder (frame threads) for 64 × 48
// YUV420P and starts its codec thread.
func openTestCodec(t *testing.T, encoder bool) (*astiav.CodecContext, *codecThread) {
	t.Helper()
	codec, name := astiav.FindDecoder(astiav.CodecIDH264), decodeThreadName
	if encoder {
		codec, name = astiav.FindEncoderByName("libx264"), encodeThreadName
	}
	cc := astiav.AllocCodecContext(codec)
	cc.SetWidth(64)
	cc.SetHeight(48)
	cc.SetPixelFormat(astiav.PixelFormatYuv420P)
	cc.SetTimeBase(astiav.NewRational(1, 25))
	cc.SetThreadCount(2)
	d := astiav.NewDictionary()
	defer d.Free()
	if encoder {
		d.Set("preset", "ultrafast", 0)
	} else {
		cc.SetThreadType(astiav.ThreadTypeFrame)
	}
	if err := cc.Open(codec, d); err != nil {
		t.Fatal(err)
	}
	th, err := newCodecThread(cc, name)
	if err != nil {
		t.Fatal(err)
	}
	return cc, th
}

// A codec driven through its thread codes (or decodes) every frame, drains, reports the
// codec's errors as the direct calls do, and leaves no thread behind.
func TestCodecThread(t *testing.T) {
	const frames = 30
	_, detach := attachFFmpegLog(nil) // x264's statistics, kept quiet as in a render
	defer detach()
	for round := range 2 {
		enc, encThread := openTestCodec(t, true)
		dec, decThread := openTestCodec(t, false)
		for _, name := range []string{encodeThreadName, decodeThreadName} {
			if n := threadsNamed(t, name); n != 1 {
				t.Errorf("round %d: %d threads named %s with one running, want 1", round, n, name)
			}
		}
		f := astiav.AllocFrame()
		f.SetWidth(64)
		f.SetHeight(48)
		f.SetPixelFormat(astiav.PixelFormatYuv420P)
		if err := f.AllocBuffer(0); err != nil {
			t.Fatal(err)
		}
		if err := f.ImageFillBlack(); err != nil {
			t.Fatal(err)
		}
		pkt := astiav.AllocPacket()
		decoded := 0
		// decode sends pkt (nil: the end) to the decoder and counts the frames out.
		decode := func(pkt *astiav.Packet) {
			if err := decThread.sendPacket(dec, pkt); err != nil {
				t.Fatal(err)
			}
			out := astiav.AllocFrame()
			defer out.Free()
			for {
				err := decThread.receiveFrame(dec, out)
				if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				decoded++
				out.Unref()
			}
		}
		coded := 0
		// receive takes the encoder's packets (through its thread once it drains) and
		// decodes them.
		receive := func() {
			for {
				err := encThread.receivePacket(enc, pkt)
				if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				coded++
				decode(pkt)
				pkt.Unref()
			}
		}
		for i := range frames {
			f.SetPts(int64(i))
			if err := encThread.sendFrame(enc, f); err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			receive()
		}
		if err := encThread.sendFrame(enc, nil); err != nil {
			t.Fatal(err)
		}
		receive()
		decode(nil)
		if coded != frames || decoded != frames {
			t.Errorf("round %d: %d packets and %d frames decoded for %d frames", round, coded, decoded, frames)
		}
		// A frame or packet after the end is refused, as the direct calls refuse it.
		if err := encThread.sendFrame(enc, f); !errors.Is(err, astiav.ErrEof) {
			t.Errorf("round %d: a frame after draining: %v, want %v", round, err, astiav.ErrEof)
		}
		if err := decThread.sendPacket(dec, nil); !errors.Is(err, astiav.ErrEof) {
			t.Errorf("round %d: draining twice: %v, want %v", round, err, astiav.ErrEof)
		}
		encThread.free()
		decThread.free()
		pkt.Free()
		f.Free()
		enc.Free()
		dec.Free()
	}
	for _, name := range []string{encodeThreadName, decodeThreadName} {
		if n := threadsNamed(t, name); n != 0 {
			t.Errorf("%d threads named %s after the codecs closed, want 0", n, name)
		}
	}
}

// Only a decoder that runs frame threads gets a thread for its calls: one without returns
// at once.
func TestFrameThreaded(t *testing.T) {
	for _, c := range []struct {
		threads    int
		threadType astiav.ThreadType
		want       bool
	}{
		{2, astiav.ThreadTypeFrame, true},
		{2, astiav.ThreadTypeSlice, false},
		{1, astiav.ThreadTypeFrame, false},
	} {
		codec := astiav.FindDecoder(astiav.CodecIDH264)
		cc := astiav.AllocCodecContext(codec)
		cc.SetThreadCount(c.threads)
		cc.SetThreadType(c.threadType)
		if err := cc.Open(codec, nil); err != nil {
			t.Fatal(err)
		}
		if got := frameThreaded(cc); got != c.want {
			t.Errorf("%d threads of type %v: frame threaded %v, want %v", c.threads, c.threadType, got, c.want)
		}
		cc.Free()
	}
}
