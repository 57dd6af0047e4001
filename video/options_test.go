package video

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/internal/testdir"
)

// Validate names the field of every option that cannot work, before any file is opened;
// what can work passes.
func TestValidate(t *testing.T) {
	ok := Options{Input: "in.mp4", Output: "out.mp4"}
	for _, tc := range []struct {
		change func(*Options)
		field  string
	}{
		{func(o *Options) { o.Encoder = "libvpx" }, "video.Options.Encoder"},
		{func(o *Options) { o.HWAccel = "vulkan" }, "video.Options.HWAccel"},
		{func(o *Options) { o.Preset = "bogus" }, "video.Options.Preset"},
		{func(o *Options) { o.Encoder, o.Preset = "libx264", "p4" }, "video.Options.Preset"},
		{func(o *Options) { o.Preset = "placebo" }, "video.Options.Preset"}, // auto may be NVENC
		{func(o *Options) { o.CRF = 52 }, "video.Options.CRF"},
		{func(o *Options) { o.Encoder, o.CRF = "hevc_nvenc", 60 }, "video.Options.CRF"},
		{func(o *Options) { o.Bitrate = -1 }, "video.Options.Bitrate"},
		// Below 1 kbit/s x264 and x265 get no bitrate; NVENC takes 32 bits.
		{func(o *Options) { o.Bitrate = 1 }, "video.Options.Bitrate"},
		{func(o *Options) { o.Bitrate = 999 }, "video.Options.Bitrate"},
		{func(o *Options) { o.Encoder, o.Bitrate = "libx265", 100 }, "video.Options.Bitrate"},
		{func(o *Options) { o.Bitrate = 1 << 32 }, "video.Options.Bitrate"},
		{func(o *Options) { o.Bitrate = 99999999999999 }, "video.Options.Bitrate"},
		{func(o *Options) { o.Layer, o.Output, o.Bitrate = true, "out.webm", 1 }, "video.Options.Bitrate"},
		{func(o *Options) { o.VideoStream = -1 }, "video.Options.VideoStream"},
		{func(o *Options) { o.Start, o.End = Position{Frame: 30}, Position{Frame: 10} }, "video.Options.End"},
		{func(o *Options) { o.Output = "out.xyz" }, "video.Options.Output"},
		{func(o *Options) { o.Output = "out.mp3" }, "video.Options.Output"},
		{func(o *Options) { o.Output = "out.gif" }, "video.Options.Output"},
		{func(o *Options) { o.Encoder, o.Output = "libx265", "out.flv" }, "video.Options.Output"},
		{func(o *Options) { o.OddSize = 7 }, "video.Options.OddSize"},
	} {
		o := ok
		tc.change(&o)
		var fe *field.Error
		if err := o.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: %v, want a field error for %s", o, err, tc.field)
		}
	}
	for _, change := range []func(*Options){
		func(o *Options) {},
		func(o *Options) { o.Encoder, o.Preset, o.CRF = "h264_nvenc", "p7", 51 },
		func(o *Options) { o.Encoder, o.Preset = "libx265", "placebo" },
		func(o *Options) { o.Output = "out.ts" },
		func(o *Options) { o.Output = "out.mkv" },
		func(o *Options) { o.Bitrate = 1000 },
		func(o *Options) { o.Encoder, o.Bitrate = "h264_nvenc", 1<<32-1 },
	} {
		o := ok
		change(&o)
		if err := o.Validate(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// A range that holds no frame is an error that names the video's length: before any work
// where the container says how long the video is, at the end otherwise; and no file is left.
func TestNothingToRender(t *testing.T) {
	in := demoClip(t, ".mp4")
	for _, start := range []string{"51", "2.5s"} {
		dir := t.TempDir()
		pos, _ := ParsePosition(start)
		called := false
		_, err := Transcode(t.Context(), Options{Input: in, Output: filepath.Join(dir, "out.mp4"), Start: pos},
			func(int, composite.Surface) error { called = true; return nil })
		if !errors.Is(err, ErrNothingToRender) || !strings.Contains(err.Error(), "50 frames, 2.00 s") || called {
			t.Errorf("--start %s: %v (drawn: %v); want ErrNothingToRender naming 50 frames, 2.00 s, before any work", start, err, called)
		}
		testdir.Holds(t, dir)
	}
	info, err := Probe(t.Context(), in, 0)
	if err != nil || info.CheckStart(Position{Frame: 50}) != nil {
		t.Errorf("the last frame is refused as a start: %v, %+v", err, info)
	}
	// Matroska gives no frame count: a frame start past the end is found out at the end.
	mkv := ffmpegClip(t, "in.mkv", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	dir := t.TempDir()
	_, err = Transcode(t.Context(), Options{Input: mkv, Output: filepath.Join(dir, "out.mp4"), Preset: "ultrafast",
		Start: Position{Frame: 60}}, nil)
	if !errors.Is(err, ErrNothingToRender) || !strings.Contains(err.Error(), "50 frames, 2.00 s") {
		t.Errorf("frame 60 of a Matroska file: %v, want ErrNothingToRender naming the length", err)
	}
	// A frame start with a time end before it selects nothing either.
	_, err = Transcode(t.Context(), Options{Input: in, Output: filepath.Join(dir, "out.mp4"), Preset: "ultrafast",
		Start: Position{Frame: 40}, End: Position{Time: 1e9, IsTime: true}}, nil)
	if !errors.Is(err, ErrNothingToRender) || !strings.Contains(err.Error(), "ends before") {
		t.Errorf("frame 40 to 1s: %v, want ErrNothingToRender saying the range ends before it starts", err)
	}
	testdir.Holds(t, dir)
}

// With two video streams, VideoStream picks the one drawn on; the other is copied, and
// Probe says which is which.
func TestVideoStream(t *testing.T) {
	in := filepath.Join(t.TempDir(), "two.mkv")
	if err := runFFmpeg(t.Context(), "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=0.4", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=0.4",
		"-map", "0", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", in); err != nil {
		t.Fatal(err)
	}
	info, err := Probe(t.Context(), in, 2)
	if err != nil || info.VideoStreams != 2 || info.VideoStream != 2 || info.StreamIndex != 1 || info.Width != 160 {
		t.Errorf("Probe(2) = %+v, %v; want the second of two video streams, 160 wide", info, err)
	}
	if _, err := Probe(t.Context(), in, 3); err == nil {
		t.Error("a third video stream was found")
	}
	var widths []int
	out := filepath.Join(t.TempDir(), "out.mkv")
	_, err = Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", VideoStream: 2},
		func(n int, f composite.Surface) error {
			w, _ := f.Size()
			widths = append(widths, w)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(widths) != 10 || widths[0] != 160 {
		t.Errorf("drew on frames %v wide, want 10 of 160", widths)
	}
	ss := probeStreams(t, out)
	if len(ss) != 2 || ss[0].Width != 320 || ss[1].Width != 160 {
		t.Errorf("output streams %+v, want 320 then 160 wide", ss)
	}
}

// NVENC's failures, said in plain words from what FFmpeg 5.1's nvenc.c logs.
func TestNVENCProblem(t *testing.T) {
	for lines, want := range map[string]string{
		"h264_nvenc: Cannot load libnvidia-encode.so.1|h264_nvenc: The minimum required Nvidia driver for nvenc is 470.57.02 or newer": "libnvidia-encode.so.1",
		"h264_nvenc: OpenEncodeSessionEx failed: unsupported device (2): (no details)|h264_nvenc: No capable devices found":            "this GPU/driver has no NVENC",
		"h264_nvenc: No CUDA capable devices found": "no NVIDIA GPU",
		"h264_nvenc: Cannot load libcuda.so.1":      "no NVIDIA driver",
		"h264_nvenc: something else":                "",
	} {
		if got := nvencProblem(strings.Split(lines, "|")); !strings.Contains(got, want) || (want == "") != (got == "") {
			t.Errorf("%q: %q, want %q", lines, got, want)
		}
	}
}

// CheckEncoder: libx264 is there; h264_nvenc opens only where a GPU has NVENC, and says
// why not elsewhere.
func TestCheckEncoder(t *testing.T) {
	if err := CheckEncoder("libx264"); err != nil {
		t.Error(err)
	}
	err := CheckEncoder("h264_nvenc")
	t.Logf("h264_nvenc: %v", err)
	var fe *field.Error
	if err != nil && (!errors.As(err, &fe) || fe.Field != "video.Options.Encoder" || !strings.Contains(fe.Msg, "NV")) {
		t.Errorf("h264_nvenc: %v, want a field error saying what is missing", err)
	}
	if _, err := os.Stat("/dev/nvidia0"); err != nil && CheckEncoder("h264_nvenc") == nil {
		t.Error("h264_nvenc opened on a machine without an NVIDIA device")
	}
}
