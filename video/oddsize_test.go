package video

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/field"
)

// A 641×479 video, which libx264 and libx265 refuse in 4:2:0: the DrawFunc gets the whole
// 641×479 picture, and the output is 642×480 (pad, the default), 640×478 (crop) or 641×479
// in 4:4:4, with a warning that says which.
func TestOddSize(t *testing.T) {
	for _, depth := range []struct{ in, suffix string }{{"yuv420p", ""}, {"yuv420p10le", "10le"}} {
		in := filepath.Join(t.TempDir(), "odd.mkv")
		if err := runFFmpeg(t.Context(), "-f", "lavfi", "-i", "testsrc=size=641x479:rate=25", "-frames:v", "5",
			"-c:v", "ffv1", "-pix_fmt", depth.in, in); err != nil {
			t.Fatal(err)
		}
		testOddSize(t, in, depth.suffix)
	}
}

// testOddSize renders in (641×479, 5 frames) in every OddSize mode; the output's pixel
// format is yuv420p or yuv444p and suffix (10le for 10-bit).
func testOddSize(t *testing.T, in, suffix string) {
	for _, tc := range []struct {
		mode       OddSize
		w, h       int
		pix, words string
	}{
		{OddPad, 642, 480, "yuv420p" + suffix, "repeated"},
		{OddCrop, 640, 478, "yuv420p" + suffix, "dropped"},
		{Odd444, 641, 479, "yuv444p" + suffix, "4:4:4"},
	} {
		t.Run(tc.pix+" "+tc.mode.String(), func(t *testing.T) {
			var sizes []string
			out := filepath.Join(t.TempDir(), "out.mp4")
			st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", OddSize: tc.mode},
				func(n int, f composite.Surface) error {
					w, h := f.Size()
					sizes = append(sizes, fmt.Sprintf("%dx%d", w, h))
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if len(sizes) != 5 || sizes[0] != "641x479" {
				t.Errorf("the DrawFunc got %v, want 5 frames of 641x479", sizes)
			}
			s := probeStreams(t, out)[0]
			if s.Width != tc.w || s.Height != tc.h || s.PixFmt != tc.pix || len(videoPTS(t, out)) != 5 {
				t.Errorf("output %dx%d %s, %d frames; want %dx%d %s, 5 frames", s.Width, s.Height, s.PixFmt, len(videoPTS(t, out)), tc.w, tc.h, tc.pix)
			}
			if w := strings.Join(st.Warnings, "\n"); !strings.Contains(w, "641x479 is odd") || !strings.Contains(w, tc.words) {
				t.Errorf("warnings %q, want one saying the size is odd and %q", st.Warnings, tc.words)
			}
		})
	}
}

// pad copies the picture and repeats the last column and row, in every layout, 8- and
// 10-bit; the chroma planes are the same size.
func TestPad(t *testing.T) {
	for _, tc := range []struct {
		pix  astiav.PixelFormat
		size int // bytes a sample
	}{{astiav.PixelFormatYuv420P, 1}, {astiav.PixelFormatNv12, 1}, {astiav.PixelFormatYuv420P10Le, 2}, {astiav.PixelFormatP010Le, 2}} {
		const w, h = 5, 3
		pix, n := tc.pix, tc.size
		get := func(p []byte, i int) int {
			if n == 1 {
				return int(p[i])
			}
			return int(binary.LittleEndian.Uint16(p[2*i:]))
		}
		put := func(p []byte, i, v int) {
			if n == 1 {
				p[i] = byte(v)
				return
			}
			binary.LittleEndian.PutUint16(p[2*i:], uint16(v))
		}
		src, dst := poolFrame(t, pix, w, h), poolFrame(t, pix, w+1, h+1)
		ys, sys, _ := plane(src, 0, w*n, h)
		for y := range h {
			for x := range w {
				put(ys[y*sys:], x, 300*y+x)
			}
		}
		cs, scs, _ := plane(src, 1, 3*n, 2)
		put(cs, 0, 77)
		put(cs[scs:], 2, 999)
		if err := pad(dst, src, workFormat{pix: pix}); err != nil {
			t.Fatal(err)
		}
		yd, syd, _ := plane(dst, 0, (w+1)*n, h+1)
		for y := range h + 1 {
			for x := range w + 1 {
				if want, got := (300*min(y, h-1)+min(x, w-1))%(1<<(8*n)), get(yd[y*syd:], x); got != want {
					t.Errorf("%s: Y(%d,%d) = %d, want %d", pix, x, y, got, want)
				}
			}
		}
		if cd, scd, _ := plane(dst, 1, 3*n, 2); get(cd, 0) != 77 || get(cd[scd:], 2) != 999%(1<<(8*n)) {
			t.Errorf("%s: chroma not copied", pix)
		}
	}
}

// poolFrame is a w × h frame of format pix from a pool of its own.
func poolFrame(t *testing.T, pix astiav.PixelFormat, w, h int) *astiav.Frame {
	t.Helper()
	p, err := newFramePool(pix, w, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	f := astiav.AllocFrame()
	t.Cleanup(f.Free)
	if err := p.get(f); err != nil {
		t.Fatal(err)
	}
	return f
}

// --odd-size 444 with an editors' codec: a 4:4:4 profile keeps the odd size; a 4:2:2 one is
// refused before any work, naming the profile to use (it used to warn "4:4:4" and code
// 4:2:2).
func TestOdd444WithEditorsCodecs(t *testing.T) {
	in := filepath.Join(t.TempDir(), "odd.mkv")
	if err := runFFmpeg(t.Context(), "-f", "lavfi", "-i", "testsrc=size=641x479:rate=25", "-frames:v", "3",
		"-c:v", "ffv1", "-pix_fmt", "yuv420p", in); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		encoder, profile string
		pix, refusal     string // the output's pixel format, or the refusal's words
	}{
		{"prores_ks", "", "", "prores_ks profile hq codes 4:2:2 (use --profile 4444"},
		{"dnxhd", "dnxhr_hqx", "", "dnxhd profile dnxhr_hqx codes 4:2:2 (use --profile dnxhr_444"},
		{"prores_ks", "4444", "yuv444p12le", ""}, // FFmpeg decodes ProRes 4444 to 12-bit
		{"dnxhd", "dnxhr_444", "yuv444p10le", ""},
	} {
		t.Run(tc.encoder+" "+tc.profile, func(t *testing.T) {
			if astiav.FindEncoderByName(tc.encoder) == nil {
				t.Skipf("this FFmpeg has no %s encoder", tc.encoder)
			}
			out := filepath.Join(t.TempDir(), "out.mov")
			_, err := Transcode(t.Context(), Options{Input: in, Output: out, Encoder: tc.encoder, Profile: tc.profile, OddSize: Odd444},
				func(int, composite.Surface) error { return nil })
			if tc.refusal != "" {
				var fe *field.Error
				if !errors.As(err, &fe) || fe.Field != "video.Options.OddSize" || !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("error %v, want one of video.Options.OddSize saying %q", err, tc.refusal)
				}
				if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("an output was written: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := probeStreams(t, out)[0]; s.Width != 641 || s.Height != 479 || s.PixFmt != tc.pix {
				t.Errorf("output %dx%d %s, want 641x479 %s", s.Width, s.Height, s.PixFmt, tc.pix)
			}
		})
	}
}
