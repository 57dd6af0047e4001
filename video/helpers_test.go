package video

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trackink/composite"
)

// Test clips are 320×240, 2 s at 25 fps, with audio, made by the ffmpeg CLI.
const (
	clipW, clipH, clipFrames, clipFPS = 320, 240, 50, 25
)

// ffmpegClip runs ffmpeg with a testsrc2 video input and a sine audio input, then args.
func ffmpegClip(t *testing.T, out string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), out)
	base := []string{"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
		"-map", "0:v", "-map", "1:a", "-frames:v", "50"}
	if err := runFFmpeg(t.Context(), append(append(base, args...), "-y", path)...); err != nil {
		t.Fatal(err)
	}
	return path
}

type probeStream struct {
	Index     int    `json:"index"`
	CodecType string `json:"codec_type"`
	CodecName string `json:"codec_name"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	PixFmt    string `json:"pix_fmt"`
	Duration  string `json:"duration"`
	Profile   string `json:"profile"`
	// The colour description: matrix, transfer, primaries, range.
	ColorSpace     string            `json:"color_space"`
	ColorTransfer  string            `json:"color_transfer"`
	ColorPrimaries string            `json:"color_primaries"`
	ColorRange     string            `json:"color_range"`
	Tags           map[string]string `json:"tags"`
	SideData       []struct {
		Type     string `json:"side_data_type"`
		Rotation int    `json:"rotation"`
	} `json:"side_data_list"`
}

func probeStreams(t *testing.T, path string) []probeStream {
	t.Helper()
	var out struct{ Streams []probeStream }
	probeJSON(t, &out, "-show_streams", path)
	return out.Streams
}

func probeJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	cmd := exec.Command("ffprobe", append([]string{"-v", "error", "-of", "json"}, args...)...)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe %v: %v", args, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// videoPTS lists the presentation times of the decoded video frames, in seconds as ffprobe
// prints them.
func videoPTS(t *testing.T, path string) []string {
	t.Helper()
	b, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe frames of %s: %v", path, err)
	}
	// A frame with side data (x264's SEI) gets a trailing comma in csv.
	f := strings.Fields(string(b))
	for i := range f {
		f[i] = strings.TrimSuffix(f[i], ",")
	}
	return f
}

// decodeYUV decodes frame i (0-based) of path to 8-bit yuv420p planes.
func decodeYUV(t *testing.T, path string, i int) (y, u, v []byte) {
	t.Helper()
	n := clipW * clipH
	b := decodeRaw(t, path, i, "yuv420p", n*3/2)
	return b[:n], b[n : n+n/4], b[n+n/4:]
}

// decodeRaw decodes frame i (0-based) of path as players show it (turned by its display
// matrix, as ffmpeg does by default; inputArgs -noautorotate for the stored frame) to raw
// pixels of format pixFmt, which must come to size bytes.
func decodeRaw(t *testing.T, path string, i int, pixFmt string, size int, inputArgs ...string) []byte {
	t.Helper()
	raw := filepath.Join(t.TempDir(), "f.raw")
	if err := runFFmpeg(t.Context(), append(inputArgs, "-i", path, "-vf", "select=eq(n\\,"+strconv.Itoa(i)+")", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixFmt, "-y", raw)...); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != size {
		t.Fatalf("decoded frame %d of %s has %d bytes, want %d", i, path, len(b), size)
	}
	return b
}

// The test overlay fills a rectangle with one colour, straight into the planes.
const (
	rectX0, rectY0, rectX1, rectY1 = 32, 48, 128, 144 // even, so chroma covers it exactly
	rectY, rectU, rectV            = 81, 90, 240      // BT.601 limited-range red
)

// fillRect draws the test rectangle onto either frame layout and records which it got.
func fillRect(f composite.Surface, kinds map[string]int) error {
	switch f := f.(type) {
	case *composite.YUV420P:
		kinds["yuv420p"]++
		for y := rectY0; y < rectY1; y++ {
			for x := rectX0; x < rectX1; x++ {
				f.Y[y*f.StrideY+x] = rectY
			}
		}
		for y := rectY0 / 2; y < rectY1/2; y++ {
			for x := rectX0 / 2; x < rectX1/2; x++ {
				f.U[y*f.StrideU+x] = rectU
				f.V[y*f.StrideV+x] = rectV
			}
		}
	case *composite.NV12:
		kinds["nv12"]++
		for y := rectY0; y < rectY1; y++ {
			for x := rectX0; x < rectX1; x++ {
				f.Y[y*f.StrideY+x] = rectY
			}
		}
		for y := rectY0 / 2; y < rectY1/2; y++ {
			for x := rectX0 / 2; x < rectX1/2; x++ {
				f.UV[y*f.StrideUV+2*x] = rectU
				f.UV[y*f.StrideUV+2*x+1] = rectV
			}
		}
	default:
		kinds["other"]++
	}
	return nil
}

// checkRect asserts frame i of out shows the rectangle (or not, if want is false) and matches
// frame i of in elsewhere within codec tolerance.
func checkRect(t *testing.T, in, out string, i int, want bool) {
	t.Helper()
	iy, _, _ := decodeYUV(t, in, i)
	oy, ou, ov := decodeYUV(t, out, i)
	var inside, insideU, insideV, outsideErr float64
	var nIn, nOut int
	for y := 0; y < clipH; y++ {
		for x := 0; x < clipW; x++ {
			p := y*clipW + x
			if x >= rectX0 && x < rectX1 && y >= rectY0 && y < rectY1 {
				inside += float64(oy[p])
				c := (y/2)*(clipW/2) + x/2
				insideU += float64(ou[c])
				insideV += float64(ov[c])
				nIn++
				continue
			}
			// Skip a 4-pixel border round the rectangle, where the codec blurs the edge.
			if x >= rectX0-4 && x < rectX1+4 && y >= rectY0-4 && y < rectY1+4 {
				continue
			}
			d := float64(oy[p]) - float64(iy[p])
			outsideErr += d * d
			nOut++
		}
	}
	inside, insideU, insideV = inside/float64(nIn), insideU/float64(nIn), insideV/float64(nIn)
	if rms := outsideErr / float64(nOut); rms > 16 { // mean squared error ≤ 16 → RMS ≤ 4 levels
		t.Errorf("frame %d: picture outside the rectangle differs from the input, MSE %.1f", i, rms)
	}
	near := func(a float64, b int) bool { return a > float64(b)-4 && a < float64(b)+4 }
	got := near(inside, rectY) && near(insideU, rectU) && near(insideV, rectV)
	if got != want {
		t.Errorf("frame %d: rectangle present = %v, want %v (mean Y'CbCr inside %.1f %.1f %.1f)", i, got, want, inside, insideU, insideV)
	}
}

// makeSource runs the ffmpeg program to make a test's source. A source this ffmpeg cannot
// make skips the test, saying why: the portable build's ffmpeg, which the GPU kit runs the
// tests with, carries few encoders and muxers (docs/gpu.md).
func makeSource(t *testing.T, args ...string) {
	t.Helper()
	err := runFFmpeg(t.Context(), args...)
	if err == nil {
		return
	}
	for _, missing := range []string{"Unknown encoder", "Unable to find a suitable output format", "Unrecognized option", "Encoder not found", "No such filter", "Bitstream filter not found"} {
		if strings.Contains(err.Error(), missing) {
			t.Skipf("this ffmpeg cannot make the source (%s): %v", missing, err)
		}
	}
	t.Fatal(err)
}
