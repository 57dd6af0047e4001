package video

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/internal/mediatest"

	"github.com/asticode/go-astiav"
)

// render transcodes in to a new file in a temp dir with the test overlay and returns its path.
func render(t *testing.T, in, ext string, opts Options) (string, Stats, map[string]int, error) {
	t.Helper()
	return renderWith(t, in, ext, opts, fillRect)
}

// renderWith is render with draw as the DrawFunc's body: it draws on each frame and counts
// the frame kinds it saw.
func renderWith(t *testing.T, in, ext string, opts Options, draw func(composite.Surface, map[string]int) error) (string, Stats, map[string]int, error) {
	t.Helper()
	opts.Input = in
	if opts.Output == "" {
		opts.Output = filepath.Join(t.TempDir(), "out"+ext)
	}
	if opts.Preset == "" {
		opts.Preset = "ultrafast"
	}
	if opts.Log == nil {
		opts.Log = func(s string) { t.Log(s) }
	}
	var mu sync.Mutex
	kinds := map[string]int{}
	st, err := Transcode(t.Context(), opts, func(n int, f composite.Surface) error {
		mu.Lock()
		defer mu.Unlock()
		return draw(f, kinds)
	})
	return opts.Output, st, kinds, err
}

// checkFaithful asserts out has the same streams, frame count, frame timestamps and audio
// packets as in.
func checkFaithful(t *testing.T, in, out string) {
	t.Helper()
	is, os := probeStreams(t, in), probeStreams(t, out)
	if len(is) != len(os) {
		t.Fatalf("output has %d streams, input %d", len(os), len(is))
	}
	for i := range is {
		if is[i].CodecType != os[i].CodecType {
			t.Errorf("stream %d: %s in output, %s in input", i, os[i].CodecType, is[i].CodecType)
		}
		if is[i].CodecType == "audio" && is[i].CodecName != os[i].CodecName {
			t.Errorf("audio stream %d re-encoded: %s → %s", i, is[i].CodecName, os[i].CodecName)
		}
		if is[i].CodecType == "video" && (os[i].CodecName != "h264" || os[i].Width != is[i].Width || os[i].Height != is[i].Height) {
			t.Errorf("video stream %d: %s %dx%d, want h264 %dx%d", i, os[i].CodecName, os[i].Width, os[i].Height, is[i].Width, is[i].Height)
		}
	}
	ip, op := videoPTS(t, in), videoPTS(t, out)
	if !slices.Equal(ip, op) {
		t.Errorf("frame timestamps differ:\n in  %v\n out %v", ip, op)
	}
	if ia, oa := mediatest.Packets(t, in, "0:a"), mediatest.Packets(t, out, "0:a"); !slices.Equal(ia, oa) {
		t.Errorf("audio packets differ (%d in, %d out); first in %q, first out %q", len(ia), len(oa), first(ia), first(oa))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func TestTranscodeMP4(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.mp4")
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	var ticks []Progress
	out, st, kinds, err := render(t, in, ".mp4", Options{Progress: func(p Progress) { ticks = append(ticks, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Frames != clipFrames || st.Overlaid != clipFrames || kinds["yuv420p"] != clipFrames {
		t.Errorf("frames %d, overlaid %d, kinds %v; want %d yuv420p", st.Frames, st.Overlaid, kinds, clipFrames)
	}
	if st.Encoder != "libx264" || st.HWAccel != "none" || st.Color != "bt601/limited" {
		t.Errorf("encoder %q hwaccel %q colour %q", st.Encoder, st.HWAccel, st.Color)
	}
	checkFaithful(t, in, out)
	checkRect(t, in, out, 0, true)
	checkRect(t, in, out, 37, true)
	if len(ticks) == 0 || ticks[len(ticks)-1].Frames != clipFrames || ticks[len(ticks)-1].Total != clipFrames {
		t.Errorf("last progress %+v, want %d of %d frames", ticks, clipFrames, clipFrames)
	}
	b, err := json.Marshal(st.JSON())
	if err != nil || !strings.Contains(string(b), `"encoder":"libx264"`) || !strings.Contains(string(b), `"decode_s":`) {
		t.Errorf("stats JSON %s, %v", b, err)
	}
}

// NV12 input: raw NV12 in Matroska decodes to NV12 frames, which reach the overlay as
// composite.NV12 and libx264 encodes directly. PCM audio travels too.
func TestTranscodeNV12(t *testing.T) {
	in := ffmpegClip(t, "nv12.mkv", "-c:v", "rawvideo", "-pix_fmt", "nv12", "-c:a", "pcm_s16le")
	out, st, kinds, err := render(t, in, ".mkv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kinds["nv12"] != clipFrames || st.PixelFormat != "nv12" {
		t.Errorf("overlay saw %v, pixel format %s; want %d nv12 frames", kinds, st.PixelFormat, clipFrames)
	}
	checkFaithful(t, in, out)
	checkRect(t, in, out, 10, true)
}

// Variable frame rate: irregular gaps between frames must come out unchanged.
func TestTranscodeVFR(t *testing.T) {
	in := ffmpegClip(t, "vfr.mkv", "-vf", "select='not(eq(mod(n\\,5)\\,2))*not(eq(mod(n\\,7)\\,3))'", "-fps_mode", "vfr",
		"-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	pts := videoPTS(t, in)
	if last, _ := strconv.ParseFloat(pts[len(pts)-1], 64); len(pts) != clipFrames || last <= 2 {
		t.Fatalf("VFR clip has %d frames ending at %s; want gaps that make 50 frames last over 2 s", len(pts), pts[len(pts)-1])
	}
	out, _, _, err := render(t, in, ".mkv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkFaithful(t, in, out)
}

// Rotation (display matrix side data) and language tags survive; so does a copy into .mov.
func TestTranscodeKeepsMetadata(t *testing.T) {
	// ffmpeg 5.1 turns the rotate tag into a display matrix only when stream-copying.
	plain := ffmpegClip(t, "plain.mp4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	in := filepath.Join(t.TempDir(), "rot.mp4")
	if err := runFFmpeg(t.Context(), "-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=90",
		"-metadata:s:a:0", "language=fra", "-metadata", "title=trackink test", in); err != nil {
		t.Fatal(err)
	}
	out, _, _, err := render(t, in, ".mov", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkFaithful(t, in, out)
	ss := probeStreams(t, out)
	rot := 0
	for _, sd := range ss[0].SideData {
		if sd.Type == "Display Matrix" {
			rot = sd.Rotation
		}
	}
	if rot != 90 && rot != -90 {
		t.Errorf("video rotation %d, want ±90 (side data %+v)", rot, ss[0].SideData)
	}
	if ss[1].Tags["language"] != "fra" {
		t.Errorf("audio language %q, want fra", ss[1].Tags["language"])
	}
	var f struct {
		Format struct{ Tags map[string]string }
	}
	probeJSON(t, &f, "-show_format", out)
	if f.Format.Tags["title"] != "trackink test" {
		t.Errorf("container title %q", f.Format.Tags["title"])
	}
}

// FrameOffset: video frame v is track frame v − offset; earlier frames are left alone.
func TestFrameOffset(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.mkv")
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	var got []int
	out := filepath.Join(t.TempDir(), "out.mkv")
	st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", FrameOffset: 10},
		func(n int, f composite.Surface) error {
			got = append(got, n)
			return fillRect(f, map[string]int{})
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 40 || got[0] != 1 || got[39] != 40 || st.Overlaid != 40 {
		t.Errorf("overlay got track frames %v (overlaid %d), want 1…40", got, st.Overlaid)
	}
	checkRect(t, in, out, 5, false)
	checkRect(t, in, out, 20, true)
}

// Start/End as frame numbers and as times select the same 20 frames; output starts at 0.
func TestStartEnd(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.mkv")
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]string{{"11", "30"}, {"0.4s", "00:00:01.2"}} {
		start, err1 := ParsePosition(r[0])
		end, err2 := ParsePosition(r[1])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		var ns []int
		out := filepath.Join(t.TempDir(), "out.mkv")
		st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", Start: start, End: end},
			func(n int, f composite.Surface) error { ns = append(ns, n); return nil })
		if err != nil {
			t.Fatal(err)
		}
		pts := videoPTS(t, out)
		if st.Frames != 20 || len(ns) != 20 || ns[0] != 11 || ns[19] != 30 || len(pts) != 20 || pts[0] != "0.000000" {
			t.Errorf("%v: %d frames, overlay %v, pts %v; want 20 frames, track frames 11…30, starting at 0", r, st.Frames, ns, pts)
		}
		if a := mediatest.Packets(t, out, "0:a"); len(a) < 30 || len(a) > 42 { // 0.8 s of 1024-sample AAC frames at 48 kHz ≈ 37.5
			t.Errorf("%v: %d audio packets, want about 37", r, len(a))
		}
	}
}

// 4:2:2 input is converted to 4:2:0 with a warning, the overlay drawn and the rest kept
// (every other kind of source: TestSources).
func TestPixelFormats(t *testing.T) {
	in := ffmpegClip(t, "422.mkv", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv422p", "-c:a", "aac")
	out, st, kinds, err := render(t, in, ".mkv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kinds["yuv420p"] != clipFrames || len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "yuv422p") {
		t.Errorf("kinds %v, warnings %q; want yuv420p frames and one conversion warning", kinds, st.Warnings)
	}
	if ss := probeStreams(t, out); ss[0].PixFmt != "yuv420p" {
		t.Errorf("output pixel format %s", ss[0].PixFmt)
	}
	checkRect(t, in, out, 3, true)
}

func TestBenchE2E(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mp4")
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		twin         DrawFunc
		wantTwinSame bool
	}{
		{"the twin draws what the render draws", movingMark(0), true},
		{"the twin draws elsewhere", movingMark(40), false},
	} {
		b, err := BenchE2E(t.Context(), Options{Input: in, Output: filepath.Join(t.TempDir(), "out.mp4"), Preset: "ultrafast", CRF: 23},
			movingMark(0), c.twin)
		if err != nil {
			t.Fatal(err)
		}
		if b.Ours.Frames != clipFrames || b.Plain <= 0 || b.Ratio <= 0 || b.Ours.PeakRSS <= 0 || b.PlainPeakRSS <= 0 ||
			b.AgainCPU <= 0 || b.AgainPeakRSS <= 0 || b.AgainCPURatio <= 0 || b.TwinCPU <= 0 || b.TwinPeakRSS <= 0 ||
			b.TwinCPURatio != b.OursCPU.Seconds()/b.TwinCPU.Seconds() {
			t.Errorf("%s: bench %+v", c.name, b)
		}
		// With nothing drawn the render writes what ffmpeg writes, every stream's packets.
		if !b.BareSame || b.Bare.Frames != clipFrames || b.Bare.Overlaid != 0 || b.BareRatio <= 0 || b.BareCPURatio <= 0 {
			t.Errorf("nothing drawn: same packets %v, %d frames, %d overlaid, ratios %.2f %.2f; want the same packets, %d frames, none overlaid",
				b.BareSame, b.Bare.Frames, b.Bare.Overlaid, b.BareRatio, b.BareCPURatio, clipFrames)
		}
		// The twin codes the render's frames afresh: the same packets, unless it was given
		// other frames.
		if b.TwinSame != c.wantTwinSame {
			t.Errorf("%s: twin wrote the render's packets: %v, want %v", c.name, b.TwinSame, c.wantTwinSame)
		}
	}
}

// movingMark draws a 16 × 16 white square dy rows down that moves 4 px right a frame.
func movingMark(dy int) DrawFunc {
	return func(n int, f composite.Surface) error {
		p, ok := f.(*composite.YUV420P)
		if !ok {
			return fmt.Errorf("frame %d is %T, want *composite.YUV420P", n, f)
		}
		x0 := n * 4 % (clipW - 16)
		for y := 8 + dy; y < 24+dy; y++ {
			for x := x0; x < x0+16; x++ {
				p.Y[y*p.StrideY+x] = 235
			}
		}
		return nil
	}
}

func TestParsePosition(t *testing.T) {
	for s, want := range map[string]Position{
		"": {}, "120": {Frame: 120}, "1.5s": {Time: 1500e6, IsTime: true},
		"00:00:01.5": {Time: 1500e6, IsTime: true}, "1:02.5": {Time: 62500e6, IsTime: true},
		"1:00:00": {Time: 3600e9, IsTime: true},
		// The longest time a Duration holds, in whole seconds.
		"9223372036s": {Time: 9223372036e9, IsTime: true}, "0x1p3s": {Time: 8e9, IsTime: true},
	} {
		if got, err := ParsePosition(s); err != nil || got != want {
			t.Errorf("ParsePosition(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	// NaN, Inf and times past a Duration's range were taken as "from the start".
	for _, s := range []string{"0", "-3", "abc", "1:60", "x s", "1:2:3:4",
		"NaNs", "Infs", "+Infs", "-Infs", "1e10s", "9223372037s", "1e30s",
		"00:00:NaN", "NaN:00", "00:00:Inf", "99999999999:00:00", "153722867281:00"} {
		if _, err := ParsePosition(s); err == nil {
			t.Errorf("ParsePosition(%q) accepted", s)
		}
	}
}

// Audio an output container cannot hold is refused before any work, naming containers that
// hold it (a camera's PCM into .mp4 was once dropped with a warning, the render exiting 0
// with a silent video); the same source into .mov keeps it.
func TestTranscodeRefusesDroppingAudio(t *testing.T) {
	in := ffmpegClip(t, "pcm.mov", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le")
	out := filepath.Join(t.TempDir(), "out.mp4")
	_, _, _, err := render(t, in, ".mp4", Options{Output: out})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Field != "video.Options.Output" || !strings.Contains(err.Error(), "write .mov or .mkv") {
		t.Errorf("PCM audio into .mp4: %v, want a field error on the output naming .mov and .mkv", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*")); len(left) > 0 {
		t.Errorf("files left: %v", left)
	}
	mov, _, _, err := render(t, in, ".mov", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := probeStreams(t, mov); len(s) != 2 || s[1].CodecName != "pcm_s16le" {
		t.Errorf(".mov streams %+v, want the video and the PCM audio", s)
	}
}

// A local file whose name has a colon in it (an ISO timestamp) is a file, not a URL of the
// protocol named before the colon: read and written by a relative name (once "Protocol not
// found").
func TestTranscodeNamesWithAColon(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := Synthesize("2024-01-01T12:30:00.mp4", 320, 240, 5, 10); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"2024-01-01T12:30:00.mp4", "file:2024-01-01T12:30:00.mp4"} {
		out := "out:" + strings.TrimPrefix(in, "file:")
		_, st, _, err := render(t, in, ".mp4", Options{Output: out, Overwrite: true})
		if err != nil || st.Frames != 5 {
			t.Errorf("%s into %s: %d frames, %v", in, out, st.Frames, err)
		}
		if _, err := os.Stat(filepath.Join(dir, out)); err != nil {
			t.Errorf("%s: %v", out, err)
		}
	}
}

// Options.Threads is a cap: one above what an encoder takes opens it with all it takes
// (x265's 16 frames at once, FFmpeg's frame threads' 64, x264's 128), where it failed to
// open ("Invalid argument", or x265's own error leaking out), exit 1.
func TestThreadsAboveWhatEncodersTake(t *testing.T) {
	in := demoClip(t, ".mp4")
	for _, tc := range []struct{ encoder, ext string }{
		{"libx264", ".mp4"}, {"libx265", ".mp4"}, {"prores_ks", ".mov"}, {"dnxhd", ".mov"},
	} {
		t.Run(tc.encoder, func(t *testing.T) {
			if astiav.FindEncoderByName(tc.encoder) == nil {
				t.Skipf("this FFmpeg has no %s", tc.encoder)
			}
			o := Options{Input: in, Output: filepath.Join(t.TempDir(), "out"+tc.ext), Encoder: tc.encoder, Threads: 200}
			if st, err := Transcode(t.Context(), o, paintNumber); err != nil || st.Frames != clipFrames {
				t.Errorf("--threads 200: %d frames, %v", st.Frames, err)
			}
		})
	}
}
