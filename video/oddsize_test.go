package video

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// A 641×479 video, which libx264 and libx265 refuse in 4:2:0: the DrawFunc gets the whole
// 641×479 picture, and the output is 642×480 (pad, the default), 640×478 (crop) or 641×479
// in 4:4:4, with a warning that says which.
func TestOddSize(t *testing.T) {
	in := filepath.Join(t.TempDir(), "odd.mkv")
	if err := runFFmpeg(t.Context(), "-f", "lavfi", "-i", "testsrc=size=641x479:rate=25", "-frames:v", "5",
		"-c:v", "ffv1", "-pix_fmt", "yuv420p", in); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode       OddSize
		w, h       int
		pix, words string
	}{
		{OddPad, 642, 480, "yuv420p", "repeated"},
		{OddCrop, 640, 478, "yuv420p", "dropped"},
		{Odd444, 641, 479, "yuv444p", "4:4:4"},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
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

// pad copies the picture and repeats the last column and row, in both layouts; the chroma
// planes are the same size.
func TestPad(t *testing.T) {
	for _, pix := range []astiav.PixelFormat{astiav.PixelFormatYuv420P, astiav.PixelFormatNv12} {
		const w, h = 5, 3
		src, dst := poolFrame(t, pix, w, h), poolFrame(t, pix, w+1, h+1)
		ys, sys, _ := plane(src, 0, w, h)
		for y := range h {
			for x := range w {
				ys[y*sys+x] = byte(10*y + x)
			}
		}
		cs, scs, _ := plane(src, 1, 3, 2)
		cs[0], cs[scs+2] = 77, 99
		if err := pad(dst, src); err != nil {
			t.Fatal(err)
		}
		yd, syd, _ := plane(dst, 0, w+1, h+1)
		for y := range h + 1 {
			for x := range w + 1 {
				if want := byte(10*min(y, h-1) + min(x, w-1)); yd[y*syd+x] != want {
					t.Errorf("%s: Y(%d,%d) = %d, want %d", pix, x, y, yd[y*syd+x], want)
				}
			}
		}
		if cd, scd, _ := plane(dst, 1, 3, 2); cd[0] != 77 || cd[scd+2] != 99 {
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
