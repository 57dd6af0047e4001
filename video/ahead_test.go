package video

import (
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/mediatest"
)

// lumaSum is a hash of frame f's luma and its size.
func lumaSum(t *testing.T, f composite.Surface) string {
	var y []byte
	var stride int
	switch f := f.(type) {
	case *composite.YUV420P:
		y, stride = f.Y, f.StrideY
	case *composite.NV12:
		y, stride = f.Y, f.StrideY
	default:
		t.Fatalf("frame is %T", f)
	}
	w, h := f.Size()
	sum := fnv.New64a()
	for r := range h {
		sum.Write(y[r*stride : r*stride+w])
	}
	return fmt.Sprintf("%dx%d:%x", w, h, sum.Sum64())
}

// TestAhead: Options.Ahead gets each frame the DrawFunc draws, in order, as decoded (turned
// as the DrawFunc gets it), up to AheadFrames frames before the DrawFunc does; the output
// is the one a render without it writes; an error from it stops the render, naming the frame.
func TestAhead(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.mkv")
	if err := Synthesize(in, clipW, clipH, clipFrames, clipFPS); err != nil {
		t.Fatal(err)
	}
	rotated := filepath.Join(t.TempDir(), "rot.mp4")
	plain := ffmpegClip(t, "plain.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	if err := runFFmpeg(t.Context(), "-i", plain, "-map", "0:v", "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		input       string
		frameOffset int
		aheadFrames int
	}{
		{"three ahead", in, 0, 3},
		{"one ahead, from track frame 1 at video frame 11", in, 10, 1},
		{"rotated", rotated, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := Options{Input: tc.input, Preset: "ultrafast", Threads: 1, FrameOffset: tc.frameOffset}
			var seen, drawn []string
			lead := 0
			draw := func(n int, f composite.Surface) error {
				if w, h := f.Size(); tc.input == rotated && (w != clipH || h != clipW) {
					return fmt.Errorf("a %dx%d frame, not turned", w, h)
				}
				drawn = append(drawn, fmt.Sprint(n, " ", lumaSum(t, f)))
				lead = max(lead, len(seen)-len(drawn))
				if len(seen) < len(drawn) || seen[len(drawn)-1] != drawn[len(drawn)-1] {
					return fmt.Errorf("frame %d drawn before it was seen ahead, or not as seen (%d seen)", n, len(seen))
				}
				return fillRect(f, map[string]int{})
			}
			o.Output = filepath.Join(dir, "plain.mkv")
			plainDrawn := 0
			if _, err := Transcode(t.Context(), o, func(n int, f composite.Surface) error {
				plainDrawn++
				return fillRect(f, map[string]int{})
			}); err != nil {
				t.Fatal(err)
			}
			o.Output, o.AheadFrames = filepath.Join(dir, "ahead.mkv"), tc.aheadFrames
			o.Ahead = func(n int, f composite.Surface) error {
				seen = append(seen, fmt.Sprint(n, " ", lumaSum(t, f)))
				return nil
			}
			if _, err := Transcode(t.Context(), o, draw); err != nil {
				t.Fatal(err)
			}
			if len(drawn) != plainDrawn || len(seen) != plainDrawn || plainDrawn < clipFrames-tc.frameOffset {
				t.Errorf("%d frames seen ahead, %d drawn; want %d", len(seen), len(drawn), plainDrawn)
			}
			if lead != tc.aheadFrames {
				t.Errorf("Ahead was at most %d frames before the DrawFunc, want %d", lead, tc.aheadFrames)
			}
			plain, ahead := mediatest.Frames(t, filepath.Join(dir, "plain.mkv")), mediatest.Frames(t, filepath.Join(dir, "ahead.mkv"))
			if len(plain) < plainDrawn || !slices.Equal(ahead, plain) {
				t.Errorf("the render with Ahead differs from the one without: %s", mediatest.Difference(plain, ahead))
			}
		})
	}
	t.Run("error", func(t *testing.T) {
		o := Options{Input: in, Output: filepath.Join(t.TempDir(), "out.mkv"), Preset: "ultrafast", AheadFrames: 2}
		o.Ahead = func(n int, f composite.Surface) error {
			if n == 7 {
				return errors.New("no detector")
			}
			return nil
		}
		_, err := Transcode(t.Context(), o, func(n int, f composite.Surface) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "tracks frame 7, video frame 7, ahead of drawing: no detector") {
			t.Errorf("got %v", err)
		}
	})
}

// The staged pipeline's draw stage (frames decoded on the GPU and tracked in host memory)
// holds frames for Ahead as the inline loop does: every frame passes on in order, those the
// DrawFunc draws (from the frame offset) seen ahead first, as they are drawn, at most
// AheadFrames before.
func TestAheadStaged(t *testing.T) {
	pool, err := newFramePool(astiav.PixelFormatYuv420P, 64, 48)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.close()
	var seen, drawn []string
	lead := 0
	id := func(n int, f composite.Surface) string {
		return fmt.Sprintf("%d@%p", n, &f.(*composite.YUV420P).Y[0]) // the frame's own buffer
	}
	d := &drawStage{work: workFormat{pix: astiav.PixelFormatYuv420P}, frameOffset: 2, aheadFrames: 2}
	d.ahead = func(n int, f composite.Surface) error {
		seen = append(seen, id(n, f))
		return nil
	}
	d.draw = func(n int, f composite.Surface) error {
		drawn = append(drawn, id(n, f))
		lead = max(lead, len(seen)-len(drawn))
		return nil
	}
	in, out := make(chan item, 8), make(chan item, 8)
	for v := 1; v <= 8; v++ {
		f := astiav.AllocFrame()
		if err := pool.get(f); err != nil {
			t.Fatal(err)
		}
		in <- item{frame: f, v: v}
	}
	close(in)
	err = d.run(t.Context(), in, out)
	close(out)
	var order []int
	for it := range out {
		order = append(order, it.v)
		it.frame.Free()
	}
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(order) != "[1 2 3 4 5 6 7 8]" {
		t.Errorf("frames passed on in the order %v", order)
	}
	if len(drawn) != 6 || fmt.Sprint(seen) != fmt.Sprint(drawn) || !strings.HasPrefix(drawn[0], "1@") {
		t.Errorf("seen ahead %v, drawn %v; want track frames 1 to 6 alike", seen, drawn)
	}
	if lead != 2 {
		t.Errorf("Ahead was at most %d frames before the DrawFunc, want 2", lead)
	}
}
