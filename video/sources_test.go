package video

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// sourceFrames is the length of the sources TestSources makes.
const sourceFrames = 6

// The conversions of docs/guide.md's "Sources trackink reads", as the ffmpeg CLI's scale
// filter makes them: what render(source) is compared with render(reference) for.
// FFV1 has no yuvj420p: full range is yuv420p with the range in the stream's color_range.
const (
	rgbScale    = "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
	rgbScale10  = "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p10le"
	fullScale   = "scale=out_range=pc,format=yuv420p"
	fullScale10 = "scale=out_range=pc,format=yuv420p10le"
)

// TestSources renders a short clip of each kind of source FFmpeg decodes to a pixel format
// other than the overlay's own, losslessly, and checks that the render keeps the frame count
// and timestamps, says in its one note what it changed, draws the overlay where it belongs
// in the colour the work format's matrix and range give it, and matches within one code
// value, sample for sample, the render of the reference: the source converted to the work
// format by the ffmpeg CLI in the documented way. trackink track's reading (Frames) visits
// every frame in the same work format.
func TestSources(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		args       []string // ffmpeg's output options making the source from testsrc2
		work       string   // the pixel format frames are drawn on
		color      string   // Stats.Color: matrix/range
		ref        string   // the filter converting the source to the work format; "": format=work
		tags       []string // -colorspace, -color_range of the reference, for a source that had none
		note       string   // the render's one note, "" for none
	}{
		// Every other frame left out: AVI holds an empty chunk for each, which gives no frame.
		{"rgb24 cinepak, variable rate, as OpenCV's tree.avi", "src.avi", []string{"-vf", `select=not(mod(n\,2))`, "-fps_mode", "passthrough", "-c:v", "cinepak"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"rgb24 source: converted to yuv420p (BT.709 limited) for the overlay and the encoder"},
		{"bgr24 raw", "src.avi", []string{"-c:v", "rawvideo", "-pix_fmt", "bgr24"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"bgr24 source: converted to yuv420p (BT.709 limited)"},
		{"rgba png", "src.mov", []string{"-c:v", "png", "-pix_fmt", "rgba"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"rgba source: converted to yuv420p (BT.709 limited; alpha dropped)"},
		{"gbrp utvideo", "src.avi", []string{"-c:v", "utvideo", "-pix_fmt", "gbrp"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"gbrp source: converted to yuv420p (BT.709 limited)"},
		{"gbrp10 ffv1", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "gbrp10le"}, "yuv420p10le", "bt709/limited", rgbScale10, []string{"bt709", "tv"},
			"gbrp10le source: converted to yuv420p10le (BT.709 limited)"},
		{"gbrp12 ffv1", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "gbrp12le"}, "yuv420p10le", "bt709/limited", rgbScale10, []string{"bt709", "tv"},
			"gbrp12le source: converted to yuv420p10le (BT.709 limited; 12-bit rounded to 10-bit)"},
		{"gbrp16 ffv1", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "gbrp16le"}, "yuv420p10le", "bt709/limited", rgbScale10, []string{"bt709", "tv"},
			"gbrp16le source: converted to yuv420p10le (BT.709 limited; 16-bit rounded to 10-bit)"},
		{"pal8 png", "src.mov", []string{"-c:v", "png", "-pix_fmt", "pal8"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"pal8 source: converted to yuv420p (BT.709 limited; alpha dropped)"},
		{"animated gif", "src.gif", nil, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"bgra source: converted to yuv420p (BT.709 limited; alpha dropped)"},
		{"png image sequence", "frames_%04d.png", []string{"-start_number", "1"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"rgb24 source: converted to yuv420p (BT.709 limited)"},
		{"gray ffv1", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "gray"}, "yuvj420p", "bt709/full", fullScale, []string{"bt709", "pc"},
			"gray source: converted to yuvj420p (grey as Y', full range)"},
		{"gray16 ffv1", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "gray16le"}, "yuv420p10le", "bt709/full", fullScale10, []string{"bt709", "pc"},
			"gray16le source: converted to yuv420p10le (grey as Y', full range; 16-bit rounded to 10-bit)"},
		{"yuv420p", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv420p"}, "yuv420p", "bt601/limited", "", nil, ""},
		{"yuv422p", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv422p"}, "yuv420p", "bt601/limited", "", nil,
			"yuv422p source: converted to yuv420p (chroma resampled to 4:2:0)"},
		{"yuv444p", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv444p"}, "yuv420p", "bt601/limited", "", nil,
			"yuv444p source: converted to yuv420p (chroma resampled to 4:2:0)"},
		{"yuv420p10", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv420p10le"}, "yuv420p10le", "bt601/limited", "", nil, ""},
		{"yuv422p10", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv422p10le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv422p10le source: converted to yuv420p10le (chroma resampled to 4:2:0)"},
		{"yuv444p10", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv444p10le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv444p10le source: converted to yuv420p10le (chroma resampled to 4:2:0)"},
		{"yuv420p12", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv420p12le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv420p12le source: converted to yuv420p10le (12-bit rounded to 10-bit)"},
		{"yuv422p12", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv422p12le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv422p12le source: converted to yuv420p10le (chroma resampled to 4:2:0; 12-bit rounded to 10-bit)"},
		{"yuv444p12", "src.mkv", []string{"-c:v", "ffv1", "-pix_fmt", "yuv444p12le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv444p12le source: converted to yuv420p10le (chroma resampled to 4:2:0; 12-bit rounded to 10-bit)"},
		{"yuvj422p mjpeg", "src.avi", []string{"-c:v", "mjpeg", "-pix_fmt", "yuvj422p"}, "yuvj420p", "bt601/full", fullScale, []string{"bt470bg", "pc"},
			"yuvj422p source: converted to yuvj420p (chroma resampled to 4:2:0)"},
		{"yuvj420p mjpeg", "src.avi", []string{"-c:v", "mjpeg", "-pix_fmt", "yuvj420p"}, "yuvj420p", "bt601/full", fullScale, []string{"bt470bg", "pc"}, ""},
		{"nv12 raw", "src.nut", []string{"-c:v", "rawvideo", "-pix_fmt", "nv12"}, "nv12", "bt601/limited", "", nil, ""},
		{"prores 422 hq", "src.mov", []string{"-c:v", "prores_ks", "-profile:v", "hq", "-pix_fmt", "yuv422p10le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuv422p10le source: converted to yuv420p10le (chroma resampled to 4:2:0)"},
		{"prores 4444, alpha", "src.mov", []string{"-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"}, "yuv420p10le", "bt601/limited", "", nil,
			"yuva444p12le source: converted to yuv420p10le (chroma resampled to 4:2:0; 12-bit rounded to 10-bit; alpha dropped)"},
		{"dnxhr hq", "src.mov", []string{"-c:v", "dnxhd", "-profile:v", "dnxhr_hq", "-pix_fmt", "yuv422p"}, "yuv420p", "bt709/limited", "", nil,
			"yuv422p source: converted to yuv420p (chroma resampled to 4:2:0)"},
		{"dnxhr 444 rgb", "src.mov", []string{"-c:v", "dnxhd", "-profile:v", "dnxhr_444", "-pix_fmt", "gbrp10le"}, "yuv420p10le", "bt709/limited", rgbScale10, []string{"bt709", "tv"},
			"gbrp10le source: converted to yuv420p10le (BT.709 limited)"},
		{"webp picture with alpha", "src.webp", []string{"-c:v", "libwebp", "-lossless", "1", "-frames:v", "1"}, "yuv420p", "bt709/limited", rgbScale, []string{"bt709", "tv"},
			"argb source: converted to yuv420p (BT.709 limited; alpha dropped)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, tc.file)
			makeSource(t, append(append([]string{"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=25", clipW, clipH),
				"-frames:v", fmt.Sprint(sourceFrames)}, tc.args...), "-y", src)...)
			filter := cmp.Or(tc.ref, "format="+tc.work)
			ref := filepath.Join(dir, "ref.mkv")
			refArgs := []string{"-i", src, "-vf", filter, "-fps_mode", "passthrough", "-c:v", "ffv1"}
			if tc.tags != nil {
				refArgs = append(refArgs, "-colorspace", tc.tags[0], "-color_range", tc.tags[1])
			}
			if err := runFFmpeg(t.Context(), append(refArgs, "-y", ref)...); err != nil {
				t.Fatal(err)
			}

			out, st, kinds, err := renderWith(t, src, ".mkv", Options{Lossless: true}, overRect)
			if err != nil {
				t.Fatal(err)
			}
			refOut, refSt, _, err := renderWith(t, ref, ".mkv", Options{Lossless: true}, overRect)
			if err != nil {
				t.Fatal(err)
			}
			if st.Color != tc.color || refSt.Color != tc.color {
				t.Errorf("drawn in %s, the reference in %s; want %s", st.Color, refSt.Color, tc.color)
			}
			var notes []string
			if tc.note != "" {
				notes = []string{tc.note}
			}
			if len(st.Warnings) != len(notes) || len(notes) == 1 && !strings.HasPrefix(st.Warnings[0], tc.note) {
				t.Errorf("warnings %q; want %q", st.Warnings, notes)
			}
			if want, got := videoPTS(t, src), videoPTS(t, out); !slices.Equal(got, want) || st.Frames != len(want) {
				t.Errorf("rendered %d frames at %v; want the source's %v", st.Frames, got, want)
			}

			size := frameBytes(tc.work)
			got, want, before := decodeAll(t, out, size), decodeAll(t, refOut, size), decodeAll(t, ref, size)
			if len(got) != len(want) || len(got) != len(before) || len(got) != st.Frames {
				t.Fatalf("%d frames decoded, the reference's render %d, the reference %d; want %d", len(got), len(want), len(before), st.Frames)
			}
			for i := range got {
				if d, at := worstDifference(got[i], want[i], size); d > 1 {
					t.Errorf("frame %d: sample %d differs from the reference's render by %d code values", i, at, d)
				}
				checkOverlay(t, got[i], before[i], tc.color, i)
			}

			// trackink track reads the same frames (Frames), in the same layout.
			var visited int
			fst, err := Frames(t.Context(), Options{Input: src}, func(n int, s composite.Surface) error {
				visited++
				if want := fmt.Sprintf("%T", mustSurface(t, kinds)); fmt.Sprintf("%T", s) != want {
					t.Errorf("frame %d read as %T, rendered as %s", n, s, want)
				}
				return nil
			})
			if err != nil || visited != st.Frames || fst.Frames != st.Frames {
				t.Errorf("track read %d frames (stats %d), err %v; want %d", visited, fst.Frames, err, st.Frames)
			}
		})
	}
}

// mustSurface returns a surface of the one kind overRect recorded (kinds counts frames by
// Go type), to compare Frames' surfaces with.
func mustSurface(t *testing.T, kinds map[string]int) composite.Surface {
	t.Helper()
	for _, s := range []composite.Surface{&composite.YUV420P{}, &composite.NV12{}, &composite.YUV420P10{}, &composite.P010{}} {
		if kinds[fmt.Sprintf("%T", s)] > 0 && len(kinds) == 1 {
			return s
		}
	}
	t.Fatalf("frames drawn on %v; want one kind", kinds)
	return nil
}

// frameBytes is the size of a 320×240 frame of a 4:2:0 work format (nv12 included).
func frameBytes(work string) int {
	n := clipW * clipH * 3 / 2
	if strings.Contains(work, "10") {
		return 2 * n
	}
	return n
}

// decodeAll decodes every frame of path's video as it comes from the decoder, each size
// bytes of raw planes.
func decodeAll(t *testing.T, path string, size int) [][]byte {
	t.Helper()
	raw := filepath.Join(t.TempDir(), "all.raw")
	if err := runFFmpeg(t.Context(), "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "rawvideo", "-y", raw); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(b)%size != 0 {
		t.Fatalf("%s decodes to %d bytes, not frames of %d", path, len(b), size)
	}
	return slices.Collect(slices.Chunk(b, size))
}

// samplesOf reads a frame's samples: bytes, or little-endian 16-bit words for a 10-bit one.
func samplesOf(b []byte, size int) []int {
	if size == clipW*clipH*3/2 {
		s := make([]int, len(b))
		for i, v := range b {
			s[i] = int(v)
		}
		return s
	}
	s := make([]int, len(b)/2)
	for i := range s {
		s[i] = int(b[2*i]) | int(b[2*i+1])<<8
	}
	return s
}

// worstDifference is the largest difference between two frames' samples and where it is.
func worstDifference(a, b []byte, size int) (worst, at int) {
	sa, sb := samplesOf(a, size), samplesOf(b, size)
	for i := range sa {
		if d := max(sa[i]-sb[i], sb[i]-sa[i]); d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

// checkOverlay checks frame i of a render (got) against the frame it was drawn on (before,
// the reference), both decoded to planar 4:2:0: under the test rectangle, tenBitPaint composited in the work format's
// matrix, range and depth, within one code value; elsewhere the frame as it was.
func checkOverlay(t *testing.T, got, before []byte, color string, i int) {
	t.Helper()
	size := len(got)
	g, b := samplesOf(got, size), samplesOf(before, size)
	depth := 8
	if len(g) != len(got) {
		depth = 10
	}
	m, r := parseColor(t, color)
	sp := composite.YCbCrSpaceDepth(m, r, depth)
	c := sp.Color(tenBitPaint[0], tenBitPaint[1], tenBitPaint[2], tenBitPaint[3])
	top := float64(int(1)<<depth - 1)
	n, cw := clipW*clipH, clipW/2
	var bad []string
	check := func(k, ch int, inside bool) {
		want := float64(b[k])
		if inside {
			want = math.Min(math.Max(math.Floor(float64(c[ch])+(1-float64(c[composite.Alpha]))*want+0.5), 0), top)
		}
		if math.Abs(float64(g[k])-want) > 1 && len(bad) < 3 {
			bad = append(bad, fmt.Sprintf("channel %d sample %d: %d, want %.0f (inside %v)", ch, k, g[k], want, inside))
		}
	}
	for y := range clipH {
		for x := range clipW {
			check(y*clipW+x, 0, x >= rectX0 && x < rectX1 && y >= rectY0 && y < rectY1)
		}
	}
	for y := range clipH / 2 {
		for x := range cw {
			inside := 2*x >= rectX0 && 2*x < rectX1 && 2*y >= rectY0 && 2*y < rectY1
			check(n+y*cw+x, 1, inside)
			check(n+n/4+y*cw+x, 2, inside)
		}
	}
	if len(bad) > 0 {
		t.Errorf("frame %d: the overlay is not where or what it should be: %s", i, strings.Join(bad, "; "))
	}
}

// parseColor reads Stats.Color ("bt709/limited").
func parseColor(t *testing.T, color string) (composite.Matrix, composite.Range) {
	t.Helper()
	m, r, ok := strings.Cut(color, "/")
	if !ok {
		t.Fatalf("colour %q", color)
	}
	matrix := map[string]composite.Matrix{"bt601": composite.BT601, "bt709": composite.BT709, "bt2020": composite.BT2020}[m]
	rng := composite.Limited
	if r == "full" {
		rng = composite.Full
	}
	return matrix, rng
}

// TestChooseWorkFormat covers the pixel formats no test clip carries: each decoder's format
// is drawn in a 4:2:0 work format of its depth, with the note the render prints, and what
// cannot be converted is refused.
func TestChooseWorkFormat(t *testing.T) {
	x264 := astiav.FindEncoderByName("libx264")
	if x264 == nil {
		t.Skip("this FFmpeg has no libx264")
	}
	takesX264 := func(pf astiav.PixelFormat) bool { return slices.Contains(x264.PixelFormats(), pf) }
	eightBit := func(pf astiav.PixelFormat) bool { // h264_nvenc's 4:2:0 formats
		return pf == astiav.PixelFormatYuv420P || pf == astiav.PixelFormatNv12
	}
	for _, tc := range []struct {
		pf    astiav.PixelFormat
		takes func(astiav.PixelFormat) bool
		work  astiav.PixelFormat
		color string
		note  string // "" for none; for an error, what it says
		err   error
	}{
		{astiav.PixelFormatYuv420P, takesX264, astiav.PixelFormatYuv420P, "bt601/limited", "", nil},
		{astiav.PixelFormatNv12, takesX264, astiav.PixelFormatNv12, "bt601/limited", "", nil},
		{astiav.PixelFormatNv21, takesX264, astiav.PixelFormatYuv420P, "bt601/limited", "", nil},
		{astiav.PixelFormatP010Le, takesX264, astiav.PixelFormatYuv420P10Le, "bt601/limited", "", nil},
		{astiav.PixelFormatYuv420P10Le, eightBit, 0, "", "yuv420p10le is 10-bit and this encoder", ErrUnsupportedFormat},
		{astiav.PixelFormatYuv420P9Le, takesX264, astiav.PixelFormatYuv420P10Le, "bt601/limited",
			"yuv420p9le source: converted to yuv420p10le (9-bit as 10-bit) for the overlay and the encoder", nil},
		{astiav.PixelFormatYuv420P16Le, takesX264, astiav.PixelFormatYuv420P10Le, "bt601/limited",
			"yuv420p16le source: converted to yuv420p10le (16-bit rounded to 10-bit) for the overlay and the encoder", nil},
		{astiav.PixelFormatRgb48Le, takesX264, astiav.PixelFormatYuv420P10Le, "bt709/limited",
			"rgb48le source: converted to yuv420p10le (BT.709 limited; 16-bit rounded to 10-bit) for the overlay and the encoder", nil},
		{astiav.PixelFormatRgb565Le, eightBit, astiav.PixelFormatYuv420P, "bt709/limited",
			"rgb565le source: converted to yuv420p (BT.709 limited) for the overlay and the encoder", nil},
		{astiav.PixelFormatBayerRggb8, takesX264, astiav.PixelFormatYuv420P, "bt709/limited",
			"bayer_rggb8 source: converted to yuv420p (BT.709 limited) for the overlay and the encoder", nil},
		{astiav.PixelFormatXyz12Le, takesX264, astiav.PixelFormatYuv420P10Le, "bt709/limited",
			"xyz12le source: converted to yuv420p10le (BT.709 limited; 12-bit rounded to 10-bit) for the overlay and the encoder", nil},
		{astiav.PixelFormatYa8, takesX264, astiav.PixelFormatYuvj420P, "bt709/full",
			"ya8 source: converted to yuvj420p (grey as Y', full range; alpha dropped) for the overlay and the encoder", nil},
		{astiav.PixelFormatMonoblack, eightBit, astiav.PixelFormatYuvj420P, "bt709/full",
			"monob source: converted to yuvj420p (grey as Y', full range) for the overlay and the encoder", nil},
		{astiav.PixelFormatGbrp10Le, eightBit, 0, "", "gbrp10le is 10-bit and this encoder", ErrUnsupportedFormat},
		{astiav.PixelFormatUyyvyy411, takesX264, 0, "", "uyyvyy411, which FFmpeg's swscale cannot convert", ErrUnsupportedFormat},
		{astiav.PixelFormatCuda, takesX264, 0, "", "cuda is a hardware surface format", ErrUnsupportedFormat},
		{astiav.PixelFormatNone, takesX264, 0, "", "the video stream gives no picture", ErrNoPicture},
	} {
		par := astiav.AllocCodecParameters()
		par.SetWidth(clipW)
		par.SetHeight(clipH)
		par.SetPixelFormat(tc.pf)
		w, note, err := chooseWorkFormat(par, tc.pf, tc.takes)
		par.Free()
		switch {
		case tc.err != nil && (!errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.note)):
			t.Errorf("%s: error %v; want %v saying %q", tc.pf, err, tc.err, tc.note)
		case tc.err == nil && (err != nil || w.pix != tc.work || w.String() != tc.color || note != tc.note):
			t.Errorf("%s: %s %s, note %q, error %v; want %s %s, note %q", tc.pf, w.pix, w, note, err, tc.work, tc.color, tc.note)
		}
	}
}

// TestConvertLayouts: NV12 that the encoder takes goes to the overlay as decoded, its
// buffer moved, not copied; P010 (what NVDEC decodes 10-bit video to, and what no file
// holds) is repacked into yuv420p10le for an encoder without P010, every sample kept.
func TestConvertLayouts(t *testing.T) {
	const w, h = 64, 32
	nv12 := poolFrame(t, astiav.PixelFormatNv12, w, h)
	data := cFrame(nv12).data[0]
	c, err := newConverter(workFormat{pix: astiav.PixelFormatNv12}, w, h)
	if err != nil {
		t.Fatal(err)
	}
	c.frames = frameSpares()
	defer c.close()
	it, err := c.normalize(nv12, frameInfo{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if cFrame(it.frame).data[0] != data {
		t.Error("a writable NV12 frame was copied")
	}
	it.frame.Free()

	p010 := poolFrame(t, astiav.PixelFormatP010Le, w, h)
	y, sy, _ := plane(p010, 0, 2*w, h)
	uv, suv, _ := plane(p010, 1, 2*w, h/2)
	for r := range h {
		for x := range w {
			binary.LittleEndian.PutUint16(y[r*sy+2*x:], uint16((r*w+x)%1024)<<6)
		}
	}
	for r := range h / 2 {
		for x := range w {
			binary.LittleEndian.PutUint16(uv[r*suv+2*x:], uint16(1023-(r*w+x)%1024)<<6)
		}
	}
	c10, err := newConverter(workFormat{pix: astiav.PixelFormatYuv420P10Le}, w, h)
	if err != nil {
		t.Fatal(err)
	}
	c10.frames = frameSpares()
	defer c10.close()
	it, err = c10.normalize(p010, frameInfo{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer it.frame.Free()
	yo, syo, _ := plane(it.frame, 0, 2*w, h)
	uo, suo, _ := plane(it.frame, 1, w, h/2)
	vo, svo, _ := plane(it.frame, 2, w, h/2)
	sample := func(p []byte, i int) int { return int(binary.LittleEndian.Uint16(p[i:])) }
	for r := range h {
		for x := range w {
			if got, want := sample(yo, r*syo+2*x), (r*w+x)%1024; got != want {
				t.Fatalf("Y'(%d,%d) = %d, want %d", x, r, got, want)
			}
		}
	}
	for r := range h / 2 {
		for x := range w / 2 {
			cb, cr := 1023-(r*w+2*x)%1024, 1023-(r*w+2*x+1)%1024
			if gu, gv := sample(uo, r*suo+2*x), sample(vo, r*svo+2*x); gu != cb || gv != cr {
				t.Fatalf("CbCr(%d,%d) = %d, %d, want %d, %d", x, r, gu, gv, cb, cr)
			}
		}
	}
}

// What still cannot be read is refused before any work, naming the file: animated WebP,
// which FFmpeg 5.1 does not decode; a pixel format swscale cannot convert (uyyvyy411, by
// an AVI's fourcc); an image sequence without its first file.
func TestSourcesRefused(t *testing.T) {
	dir := t.TempDir()
	webp := filepath.Join(dir, "anim.webp")
	makeSource(t, "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-frames:v", "5", "-c:v", "libwebp_anim", "-y", webp)
	nv12 := filepath.Join(dir, "nv12.avi")
	makeSource(t, "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-frames:v", "2", "-c:v", "rawvideo", "-pix_fmt", "nv12", "-y", nv12)
	b, err := os.ReadFile(nv12)
	if err != nil {
		t.Fatal(err)
	}
	y411 := filepath.Join(dir, "y411.avi") // uyyvyy411 takes 12 bits a pixel, as NV12 does
	if err := os.WriteFile(y411, bytes.ReplaceAll(b, []byte("NV12"), []byte("Y411")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		err  error
		says string
	}{
		{webp, ErrNoPicture, webp + ": the video stream gives no picture"},
		{y411, ErrUnsupportedFormat, y411 + ": video: unsupported pixel format: uyyvyy411, which FFmpeg's swscale cannot convert"},
		{filepath.Join(dir, "frames_%04d.png"), fs.ErrNotExist, "frames_0000.png … " + filepath.Join(dir, "frames_0004.png")},
	} {
		_, err := Open(t.Context(), tc.path, 0)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Open(%s): %v; want %v saying %q", tc.path, err, tc.err, tc.says)
		}
		_, _, _, err = render(t, tc.path, ".mkv", Options{})
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("render %s: %v; want %v saying %q", tc.path, err, tc.err, tc.says)
		}
	}
}
