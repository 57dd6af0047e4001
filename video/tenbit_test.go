package video

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"trackink/composite"
)

// The 10-bit test overlay: a translucent saturated orange over the test rectangle, composited
// through the frame's own Space and Over. Saturated, so that a wrong matrix (BT.709's for
// BT.2020) or depth shows by tens of code values.
var tenBitPaint = [4]float32{0.75 * 1, 0.75 * 0.4, 0.75 * 0.1, 0.75} // premultiplied r, g, b, α

// overRect composites tenBitPaint over the test rectangle of f, tile by tile, and records the
// frame's type in kinds.
func overRect(f composite.Surface, kinds map[string]int) error {
	hs := f.(composite.HostSurface)
	kinds[fmt.Sprintf("%T", f)]++
	w, h := f.Size()
	sp := hs.Space()
	c := sp.Color(tenBitPaint[0], tenBitPaint[1], tenBitPaint[2], tenBitPaint[3])
	var t composite.Tile
	for ty := 0; ty < h; ty += composite.TileSize {
		for tx := 0; tx < w; tx += composite.TileSize {
			t.Reset(tx, ty, min(composite.TileSize, w-tx), min(composite.TileSize, h-ty))
			for y := max(rectY0, ty); y < min(rectY1, ty+t.H); y++ {
				x0, x1 := max(rectX0, tx), min(rectX1, tx+t.W)
				if x0 >= x1 {
					continue
				}
				for x := x0; x < x1; x++ {
					t.SetPixel(x-tx, y-ty, c)
				}
				t.Touch(y-ty, x0-tx, x1-tx)
			}
			hs.Over(&t)
		}
	}
	return nil
}

// decode10 decodes frame i of path to yuv420p10le samples: Y, then Cb, then Cr.
func decode10(t *testing.T, path string, i int) []uint16 {
	t.Helper()
	n := clipW * clipH * 3 / 2
	b := decodeRaw(t, path, i, "yuv420p10le", 2*n)
	s := make([]uint16, n)
	for k := range s {
		s[k] = binary.LittleEndian.Uint16(b[2*k:])
	}
	return s
}

// tenBitReference is what compositing tenBitPaint onto 10-bit limited-range BT.2020 samples
// (y, cb, cr) gives, computed in float64 from BT.2020's Kr and Kb and BT.2100's 10-bit
// quantisation, independently of package composite.
func tenBitReference(y, cb, cr float64) (float64, float64, float64) {
	const kr, kb = 0.2627, 0.0593
	r, g, b, a := float64(tenBitPaint[0]), float64(tenBitPaint[1]), float64(tenBitPaint[2]), float64(tenBitPaint[3])
	luma := kr*r + (1-kr-kb)*g + kb*b
	return a*64 + 876*luma + (1-a)*y,
		a*512 + 896*(b-luma)/(2*(1-kb)) + (1-a)*cb,
		a*512 + 896*(r-luma)/(2*(1-kr)) + (1-a)*cr
}

// TestTenBit renders 10-bit clips end to end: HEVC Main10 tagged BT.2020 PQ (as phones
// record HDR) and 10-bit 4:2:2 FFV1 (as cameras' intermediates). The output is 10-bit
// (yuv420p10le, HEVC Main 10 by default), keeps the colour description, and under the
// overlay holds the float reference of compositing in BT.2020 at 10-bit code values, within
// one code value (lossless coding); elsewhere the input's samples, exactly. Where this
// FFmpeg's libx265 codes 8-bit only (the portable build's, in the GPU kit) there is no HEVC
// Main10 clip to read, and a render codes H.264 High 10 (High 4:4:4 Predictive, lossless).
func TestTenBit(t *testing.T) {
	hevc := x265TenBit()
	codec, profile, losslessProfile := "hevc", "Main 10", "Main 10"
	if !hevc {
		codec, profile, losslessProfile = "h264", "High 10", "High 4:4:4 Predictive"
	}
	hdr := []string{"-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "tv"}
	for _, tc := range []struct {
		name      string
		clip      []string
		opts      Options
		encoder   string
		profile   string
		converted bool // 4:2:2 resampled, with a warning
	}{
		{"hevc main10 pq lossless", append([]string{"-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-c:a", "aac"}, hdr...),
			Options{Encoder: "libx265", Lossless: true}, "libx265", losslessProfile, false},
		{"hevc main10 pq auto", append([]string{"-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-c:a", "aac"}, hdr...),
			Options{}, "libx265", profile, false},
		{"ffv1 4:2:2 10-bit hlg lossless", []string{"-c:v", "ffv1", "-pix_fmt", "yuv422p10le", "-c:a", "aac", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-color_range", "tv"},
			Options{Lossless: true}, "libx265", losslessProfile, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.clip[1] == "libx265" && !hevc {
				t.Skip("this FFmpeg's libx265 codes 8-bit only: no HEVC Main10 clip to read")
			}
			if !hevc {
				tc.encoder = "libx264"
			}
			in := ffmpegClip(t, "in.mkv", tc.clip...)
			out, st, kinds, err := renderWith(t, in, ".mkv", tc.opts, overRect)
			if err != nil {
				t.Fatal(err)
			}
			if st.Encoder != tc.encoder || kinds["*composite.YUV420P10"] != clipFrames || st.Color != "bt2020/limited" {
				t.Errorf("encoder %s, frames %v, colour %s; want %s, %d YUV420P10 frames, bt2020/limited", st.Encoder, kinds, st.Color, tc.encoder, clipFrames)
			}
			if warned := len(st.Warnings) == 1 && strings.Contains(st.Warnings[0], "yuv422p10le"); warned != tc.converted {
				t.Errorf("warnings %q; want a conversion warning: %v", st.Warnings, tc.converted)
			}
			is, os := probeStreams(t, in)[0], probeStreams(t, out)[0]
			if os.CodecName != codec || os.PixFmt != "yuv420p10le" || os.Profile != tc.profile {
				t.Errorf("output %s %s profile %q; want %s yuv420p10le %q", os.CodecName, os.PixFmt, os.Profile, codec, tc.profile)
			}
			if os.ColorSpace != is.ColorSpace || os.ColorTransfer != is.ColorTransfer || os.ColorPrimaries != is.ColorPrimaries || os.ColorRange != is.ColorRange {
				t.Errorf("colour %s/%s/%s/%s; want the input's %s/%s/%s/%s", os.ColorSpace, os.ColorTransfer, os.ColorPrimaries, os.ColorRange,
					is.ColorSpace, is.ColorTransfer, is.ColorPrimaries, is.ColorRange)
			}
			for _, i := range []int{0, 37} {
				checkTenBitFrame(t, in, out, i, tc.opts.Lossless)
			}
		})
	}
}

// checkTenBitFrame compares frame i of out with the reference under the rectangle and with
// in elsewhere: within one code value and exactly when lossless, else within the codec's
// tolerance (mean over the rectangle within 4 code values; outside, RMS within 16, the 4
// levels the 8-bit tests allow, in 10-bit code values).
func checkTenBitFrame(t *testing.T, in, out string, i int, lossless bool) {
	t.Helper()
	a, b := decode10(t, in, i), decode10(t, out, i)
	cw, n := clipW/2, clipW*clipH
	var worstIn, sumIn [3]float64
	var outside float64
	var nIn, nOut int
	for y := 0; y < clipH; y++ {
		for x := 0; x < clipW; x++ {
			p, c := y*clipW+x, n+(y/2)*cw+x/2
			inRect := x >= rectX0 && x < rectX1 && y >= rectY0 && y < rectY1
			if !inRect {
				if x >= rectX0-4 && x < rectX1+4 && y >= rectY0-4 && y < rectY1+4 && !lossless {
					continue
				}
				for _, k := range []int{p, c, c + n/4} {
					d := float64(b[k]) - float64(a[k])
					outside += d * d
					nOut++
				}
				continue
			}
			wy, wu, wv := tenBitReference(float64(a[p]), float64(a[c]), float64(a[c+n/4]))
			for k, pair := range [][2]float64{{float64(b[p]), wy}, {float64(b[c]), wu}, {float64(b[c+n/4]), wv}} {
				d := pair[0] - pair[1]
				worstIn[k] = math.Max(worstIn[k], math.Abs(d))
				sumIn[k] += d
			}
			nIn++
		}
	}
	for k, name := range []string{"Y'", "Cb", "Cr"} {
		mean := sumIn[k] / float64(nIn)
		if lossless && worstIn[k] > 1 || math.Abs(mean) > 4 {
			t.Errorf("frame %d: %s under the overlay differs from the reference by up to %.2f (mean %.2f) code values", i, name, worstIn[k], mean)
		}
	}
	if lossless && outside != 0 || outside/float64(nOut) > 256 {
		t.Errorf("frame %d: samples off the overlay differ from the input (mean squared %.2f)", i, outside/float64(nOut))
	}
}
