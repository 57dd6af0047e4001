package video

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// A video with a display matrix (rotate=N, as phones write it): by default the DrawFunc gets
// the frame as displayed and the rectangle it draws is where it drew it when the output is
// played (ffmpeg turns the output by its matrix, which is kept); with Stored it gets the
// frame as stored, and the rectangle is there in the stored frame.
func TestRotatedVideo(t *testing.T) {
	plain := ffmpegClip(t, "plain.mp4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	for _, tc := range []struct {
		rotate       int
		orientation  Orientation
		drawW        int // the DrawFunc's frame is drawW × (clipW + clipH − drawW)
		noAutorotate bool
	}{
		{90, Displayed, clipH, false},
		{180, Displayed, clipW, false},
		{270, Displayed, clipH, false},
		{90, Stored, clipW, true},
	} {
		t.Run(fmt.Sprintf("%d-%s", tc.rotate, tc.orientation), func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "rot.mp4")
			if err := runFFmpeg(t.Context(), "-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate="+strconv.Itoa(tc.rotate), in); err != nil {
				t.Fatal(err)
			}
			drawH := clipW + clipH - tc.drawW
			sizes := map[string]int{}
			out := filepath.Join(t.TempDir(), "out.mp4")
			_, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", Orientation: tc.orientation},
				func(n int, f composite.Surface) error {
					w, h := f.Size()
					sizes[fmt.Sprintf("%dx%d", w, h)]++
					return fillRect(f, map[string]int{})
				})
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%dx%d", tc.drawW, drawH); sizes[want] != clipFrames {
				t.Errorf("the DrawFunc got frames %v, want %d of %s", sizes, clipFrames, want)
			}
			if rot := displayRotation(t, out); rot != displayRotation(t, in) {
				t.Errorf("output rotation %d, input's %d", rot, displayRotation(t, in))
			}
			// Where the rectangle is: in the picture as played, or as stored with Stored.
			w, h := tc.drawW, drawH
			args := []string{}
			if tc.noAutorotate {
				args = append(args, "-noautorotate")
			}
			luma := decodeRaw(t, out, 10, "yuv420p", w*h*3/2, args...)[:w*h]
			var sum, n float64
			for y := rectY0 + 4; y < rectY1-4; y++ {
				for x := rectX0 + 4; x < rectX1-4; x++ {
					sum += float64(luma[y*w+x])
					n++
				}
			}
			if mean := sum / n; mean < rectY-4 || mean > rectY+4 {
				t.Errorf("mean luma inside the rectangle as seen %.1f, want %d", mean, rectY)
			}
		})
	}
}

// displayRotation is the rotation ffprobe reads from a file's first stream's display matrix.
func displayRotation(t *testing.T, path string) int {
	t.Helper()
	for _, sd := range probeStreams(t, path)[0].SideData {
		if sd.Type == "Display Matrix" {
			return sd.Rotation
		}
	}
	return 0
}

// vflip alone hands on its input with a negative linesize; the chain flips makes for it
// copies the frame into an ordinary one that the overlay can draw on.
func TestTurnerVFlip(t *testing.T) {
	const w, h = 4, 2
	tr, err := newTurner(flips(false, true), astiav.PixelFormatYuv420P, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	src := poolFrame(t, astiav.PixelFormatYuv420P, w, h)
	y, sy, _ := plane(src, 0, w, h)
	copy(y[:w], "abcd")
	copy(y[sy:sy+w], "efgh")
	out, err := tr.turn(src)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if _, err := wrap(out, workFormat{pix: astiav.PixelFormatYuv420P}); err != nil {
		t.Fatalf("the flipped frame cannot be drawn on: %v", err)
	}
	fy, sfy, _ := plane(out, 0, w, h)
	if got := string(fy[:w]) + string(fy[sfy:sfy+w]); got != "efghabcd" {
		t.Errorf("flipped rows %q, want efghabcd", got)
	}
}
