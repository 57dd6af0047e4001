package video

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/testdir"
	"trackink/outfile"
)

// demoClip makes the standard test clip once per test.
func demoClip(t *testing.T, ext string) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "in"+ext)
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	return in
}

// A file cut in half: every frame that decodes is rendered, the output is kept, and the error
// is ErrInputDamaged with the place of the damage in the warnings. MP4 (faststart, so the
// index survives) fails with a partial sample; Matroska just ends early, before the end its
// DURATION tag gives, which in FFmpeg's files is where the stream ends: one whose clock
// starts at 10 s, whole, is no damage (it was, the start counted twice).
func TestTruncatedInput(t *testing.T) {
	for _, tc := range []struct {
		name, ext string
		start     []string
	}{
		{"mp4", ".mp4", nil},
		{"mkv", ".mkv", nil},
		{"mkv from 10 s", ".mkv", []string{"-output_ts_offset", "10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ext := tc.ext
			whole := ffmpegClip(t, "whole"+ext, append([]string{"-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-movflags", "+faststart"}, tc.start...)...)
			if _, st, _, err := render(t, whole, ".mp4", Options{}); err != nil || st.Frames != clipFrames {
				t.Fatalf("the whole file: %d frames, error %v, warnings %q; want %d frames and no error", st.Frames, err, st.Warnings, clipFrames)
			}
			b, err := os.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}
			in := filepath.Join(t.TempDir(), "cut"+ext)
			if err := os.WriteFile(in, b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			out, st, _, err := render(t, in, ".mp4", Options{})
			if !errors.Is(err, ErrInputDamaged) {
				t.Fatalf("error %v, want ErrInputDamaged", err)
			}
			if st.Frames < 10 || st.Frames >= clipFrames {
				t.Errorf("%d frames rendered, want some but not all", st.Frames)
			}
			if n := len(videoPTS(t, out)); n != st.Frames {
				t.Errorf("output has %d frames, stats say %d", n, st.Frames)
			}
			if len(st.Warnings) == 0 || !strings.Contains(strings.Join(st.Warnings, "\n"), "damaged") {
				t.Errorf("warnings %q, want the damage described", st.Warnings)
			}
		})
	}
}

// An AVI with a whole index is held to it: frames lost mid-file (a run of chunks zeroed, as
// a bad sector or a copy error leaves) are damage, named at the first packet after the
// loss, with the count the index promises. The demuxer skipped the lost chunks and numbered
// every later frame by counting, so each was drawn that many frames early, and the render
// ended 0 with no warning: the header's count, which counts the empty chunks that repeat a
// frame, was only checked against the video's duration. Whole AVIs, those with empty
// chunks (OpenCV's tree.avi among them) included, are no damage.
func TestAVIHeldToItsIndex(t *testing.T) {
	if astiav.FindOutputFormat("avi") == nil || astiav.FindEncoderByName("mpeg4") == nil || astiav.FindEncoderByName("mp2") == nil {
		t.Skip("this FFmpeg cannot write AVI with MPEG-4 and MP2: the clips are made with it") // the kit's
	}
	whole := ffmpegClip(t, "whole.avi", "-c:v", "mpeg4", "-q:v", "4", "-g", "10", "-c:a", "mp2")
	// 20 frames dropped, at their times: the muxer writes an empty chunk for each (the
	// header counts 70 chunks).
	gaps := ffmpegClip(t, "gaps.avi", "-c:v", "mpeg4", "-q:v", "4", "-an", "-vf", "select='not(between(n\\,10\\,29))'", "-fps_mode", "passthrough")
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	zeroed := filepath.Join(t.TempDir(), "zeroed.avi")
	// A tenth of the file at its middle: some frames' chunks, headers and all.
	clear(b[len(b)/2 : len(b)/2+len(b)/10])
	if err := os.WriteFile(zeroed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in string
		frames   int // rendered; 0: damaged, fewer than clipFrames
	}{
		{"whole", whole, clipFrames},
		{"empty chunks", gaps, clipFrames},
		{"tree.avi", "/usr/share/doc/opencv-doc/examples/data/tree.avi", 68},
		{"chunks zeroed", zeroed, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.in); err != nil {
				t.Skipf("%v (Debian's opencv-doc has it)", err)
			}
			_, st, _, err := render(t, tc.in, ".mp4", Options{})
			warnings := strings.Join(st.Warnings, "\n")
			if tc.frames > 0 {
				if err != nil || tc.frames != st.Frames {
					t.Errorf("%d frames, error %v, warnings %q; want %d frames and no error", st.Frames, err, warnings, tc.frames)
				}
				return
			}
			if !errors.Is(err, ErrInputDamaged) || st.Frames >= clipFrames {
				t.Fatalf("%d frames, error %v; want fewer than %d and ErrInputDamaged", st.Frames, err, clipFrames)
			}
			lost := clipFrames - st.Frames
			for _, want := range []string{
				fmt.Sprintf("by the container's index: %d frames lost before it, and from it on every frame comes %d frames early", lost, lost),
				fmt.Sprintf("the container promises %d frames, only %d decoded (lost at pts ", clipFrames, st.Frames),
			} {
				if !strings.Contains(warnings, want) {
					t.Errorf("warnings %q do not say %q", warnings, want)
				}
			}
		})
	}
}

// A range that starts past the damage that ends a file (a transport stream cut mid-frame)
// is refused saying so, with the damage in the error: a preview (--frame), which logs no
// warnings, said "no frame could be decoded; see warnings" and showed none.
func TestRangePastDamage(t *testing.T) {
	whole := ffmpegClip(t, "whole.ts", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "cut.ts")
	if err := os.WriteFile(in, b[:len(b)/3], 0o644); err != nil { // a third: mid-frame (half is between frames)
		t.Fatal(err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{}); !errors.Is(err, ErrInputDamaged) {
		t.Fatalf("rendering all of the cut file: %v, want ErrInputDamaged", err)
	}
	at := Position{Frame: clipFrames - 1}
	for _, c := range []struct {
		name  string
		opts  Options
		where string
	}{
		{"one frame", Options{Start: at, End: at}, "before frame 49"},
		{"from a frame", Options{Start: at}, "before the range from frame 49"},
		{"layer", Options{Layer: true, Encoder: "qtrle", Start: at}, "before the range from frame 49"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.Input, o.Output = in, filepath.Join(t.TempDir(), "out.mov")
			if o.Layer {
				skipUnlessLayerBuilt(t, o.Output, o.Encoder)
			}
			st, err := Transcode(t.Context(), o, func(int, composite.Surface) error { return nil })
			if err == nil || errors.Is(err, ErrInputDamaged) || errors.Is(err, ErrNothingToRender) {
				t.Fatalf("error %v, want one saying the damaged file ends before the range", err)
			}
			for _, want := range []string{"cut.ts is damaged", fmt.Sprintf("ends after %d frames", st.Decoded), c.where, "byte"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if st.Decoded == 0 || st.Decoded >= clipFrames-1 {
				t.Errorf("%d frames decoded, want some, before frame %d", st.Decoded, at.Frame)
			}
		})
	}
}

func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	_, _, _, err := render(t, filepath.Join(dir, "missing.mp4"), ".mp4", Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing input: %v, want fs.ErrNotExist", err)
	}
	audio := filepath.Join(dir, "audio.m4a")
	if err := runFFmpeg(t.Context(), "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", audio); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = render(t, audio, ".mp4", Options{})
	if !errors.Is(err, ErrNoVideo) {
		t.Errorf("audio-only input: %v, want ErrNoVideo", err)
	}
	junk := filepath.Join(dir, "junk.mp4")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a video ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err = render(t, junk, ".mp4", Options{}); err == nil || !strings.Contains(err.Error(), "junk.mp4") {
		t.Errorf("junk input: %v, want an error naming the file", err)
	}
	// A tracks file given as the video: FFmpeg's tty demuxer takes a .txt of some size for
	// ANSI art, which was rendered as a video of its characters. Random bytes named .bin,
	// which only the bin demuxer takes, are refused too, but not as text (they were).
	// A size the bin demuxer takes a picture width and height from, as the trial's 1 MB.
	random := make([]byte, 1_000_000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for _, tc := range []struct {
		name, demuxer string
		body          []byte
		says, not     string
	}{
		{"gt.txt", "tty", []byte(strings.Repeat("1,1,499,158,31.03,75.17,1,-4.1554,-7.3591,0\n", 2000)), " is text, not a video", ""},
		{"rnd.bin", "bin", random, " is not a video FFmpeg recognises: only its bin demuxer takes it", "text,"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.body, 0o644); err != nil {
			t.Fatal(err)
		}
		want := path + tc.says
		if astiav.FindInputFormat(tc.demuxer) == nil {
			want = path // the portable build has no such demuxer: FFmpeg reads no video in it
		}
		_, _, _, err = render(t, path, ".mp4", Options{})
		if err == nil || !strings.Contains(err.Error(), want) || tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("%s as the video: %v, want it refused saying %q", tc.name, err, want)
		}
	}
}

func TestOutputErrors(t *testing.T) {
	in := demoClip(t, ".mp4")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.mp4")
	if err := os.WriteFile(out, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: out}); !errors.Is(err, outfile.ErrExists) {
		t.Errorf("existing output: %v, want outfile.ErrExists", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep me" {
		t.Error("existing output was modified")
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: out, Overwrite: true}); err != nil {
		t.Errorf("overwrite: %v", err)
	}
	if n := len(videoPTS(t, out)); n != clipFrames {
		t.Errorf("overwritten output has %d frames", n)
	}
	testdir.Holds(t, dir, "out.mp4")

	// A directory that is not there (its parent is a file).
	if _, _, _, err := render(t, in, ".mp4", Options{Output: filepath.Join(out, "sub", "x.mp4")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing directory: %v", err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: filepath.Join(dir, "x.nosuchformat")}); err == nil || !strings.Contains(err.Error(), "container") {
		t.Errorf("unknown extension: %v", err)
	}
	testdir.Holds(t, dir, "out.mp4")
}

func TestOptionErrors(t *testing.T) {
	in := demoClip(t, ".mp4")
	for _, o := range []Options{{Encoder: "libx999"}, {HWAccel: "vulkan"}, {CRF: 60}, {Start: Position{Frame: 20}, End: Position{Frame: 10}}} {
		if _, _, _, err := render(t, in, ".mp4", o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// On this machine (no GPU) an explicit CUDA decode or NVENC encode fails with the reason; auto
// falls back with exactly one line. On a machine with a GPU they must simply work.
func TestHardwareFallback(t *testing.T) {
	in := demoClip(t, ".mp4")
	_, st, _, err := render(t, in, ".mp4", Options{HWAccel: "cuda"})
	if err != nil && !strings.Contains(err.Error(), "cuda") {
		t.Errorf("explicit cuda: error %q does not name cuda", err)
	}
	if err == nil && st.HWAccel != "cuda" {
		t.Errorf("explicit cuda succeeded without CUDA: %+v", st)
	}
	cudaWorks := err == nil

	var lines []string
	_, st, _, err = render(t, in, ".mp4", Options{HWAccel: "auto", Log: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatalf("auto: %v", err)
	}
	var fallbacks int
	for _, l := range lines {
		if strings.Contains(strings.ToLower(l), "cuda") {
			fallbacks++
		}
	}
	if !cudaWorks && (fallbacks != 1 || !strings.HasPrefix(lines[0], "hwaccel auto:") || st.HWAccel != "none") {
		t.Errorf("auto without CUDA: hwaccel %q, log %q; want one fallback line", st.HWAccel, lines)
	}

	_, st, _, err = render(t, in, ".mp4", Options{Encoder: "h264_nvenc"})
	if err != nil && !strings.Contains(err.Error(), "h264_nvenc") {
		t.Errorf("explicit nvenc: error %q does not name the encoder", err)
	}
	if err == nil && st.Encoder != "h264_nvenc" {
		t.Errorf("explicit nvenc reported encoder %q", st.Encoder)
	}
}

// Cancelling mid-render stops promptly, returns the context's error and leaves no file.
func TestCancel(t *testing.T) {
	in := demoClip(t, ".mp4")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err := Transcode(ctx, Options{Input: in, Output: filepath.Join(dir, "out.mp4")}, func(n int, f composite.Surface) error {
		if n == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	testdir.Holds(t, dir)

	// An overlay error stops the render the same way and is reported with the frame number.
	boom := errors.New("boom")
	_, err = Transcode(t.Context(), Options{Input: in, Output: filepath.Join(dir, "out.mp4")}, func(n int, f composite.Surface) error {
		if n == 7 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "frame 7") {
		t.Errorf("overlay failure: %v", err)
	}
	testdir.Holds(t, dir)
}

// A cancel that comes once every frame is drawn (in the encoder's flush, before the commit)
// still stops the render: it returns the context's error and nothing is written. It was
// ignored: the flush checked ctx only on entry and a flush that ended well committed, so a
// stop signal during x264's flush (most of a short clip's time) wrote the file, exit 0.
func TestCancelAfterLastFrame(t *testing.T) {
	in := demoClip(t, ".mp4")
	const frames = 20 // fewer than x264's lookahead at its default preset (40): no packet before the flush
	for _, c := range []struct {
		name, ext string
		written   int // frames written when it stopped: a flush stops at the packet it was in
		// where returns the options that cancel; drawn is the frames drawn so far.
		where func(cancel func(), drawn *int) Options
	}{
		{"in the flush", ".mp4", 1, func(cancel func(), drawn *int) Options {
			return Options{Preset: "medium", Progress: func(Progress) {
				// The first packet comes out of the flush (asserted): cancel between its packets.
				if *drawn != frames {
					t.Errorf("first packet written with %d frames drawn, want all %d (the cancel would not be in the flush)", *drawn, frames)
				}
				cancel()
			}}
		}},
		{"before the commit", ".mp4", frames, func(cancel func(), _ *int) Options {
			return Options{Partners: func(Stats) ([]*outfile.PartialFile, error) { cancel(); return nil, nil }}
		}},
		{"layer before the commit", ".mov", frames, func(cancel func(), _ *int) Options {
			return Options{Layer: true, Encoder: "qtrle", Partners: func(Stats) ([]*outfile.PartialFile, error) { cancel(); return nil, nil }}
		}},
		{"layer sequence before the commit", "_%03d.png", frames, func(cancel func(), _ *int) Options {
			return Options{Layer: true, Partners: func(Stats) ([]*outfile.PartialFile, error) { cancel(); return nil, nil }}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			drawn := 0
			opts := c.where(cancel, &drawn)
			dir := t.TempDir()
			opts.Input, opts.Output, opts.End = in, filepath.Join(dir, "out"+c.ext), Position{Frame: frames}
			if opts.Layer {
				skipUnlessLayerBuilt(t, opts.Output, opts.Encoder)
			}
			st, err := Transcode(ctx, opts, func(int, composite.Surface) error { drawn++; return nil })
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want context.Canceled", err)
			}
			if drawn != frames {
				t.Errorf("%d frames drawn, want %d", drawn, frames)
			}
			if st.Frames != c.written {
				t.Errorf("%d frames written when stopped, want %d", st.Frames, c.written)
			}
			testdir.Holds(t, dir)
		})
	}
}

// With DeviceFrames, NVDEC frames reach the overlay in GPU memory, every one of them, and
// the render still produces every frame; without CUDA (this machine) the decoder falls back
// to software and the overlay gets host frames, which a device backend also draws on.
func TestDeviceFrames(t *testing.T) {
	in := demoClip(t, ".mp4")
	types := map[string]int{}
	st, err := Transcode(t.Context(), Options{Input: in, Output: filepath.Join(t.TempDir(), "out.mp4"), Preset: "ultrafast",
		HWAccel: "auto", DeviceFrames: true, Log: func(s string) { t.Log(s) }},
		func(n int, f composite.Surface) error { types[fmt.Sprintf("%T", f)]++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hwaccel %s, overlay frame types %v", st.HWAccel, types)
	if st.Frames != clipFrames || st.Overlaid != clipFrames {
		t.Errorf("%d frames encoded, %d overlaid; want %d", st.Frames, st.Overlaid, clipFrames)
	}
	want := "*composite.YUV420P"
	if st.HWAccel == "cuda" {
		want = "*composite.DeviceNV12"
	}
	if types[want] != clipFrames || len(types) != 1 {
		t.Errorf("hwaccel %s: overlay got %v, want %d × %s", st.HWAccel, types, clipFrames, want)
	}
	if onDevice := types["*composite.DeviceNV12"]; st.DeviceOverlay != onDevice {
		t.Errorf("Stats.DeviceOverlay %d, overlay saw %d device frames", st.DeviceOverlay, onDevice)
	}
}
