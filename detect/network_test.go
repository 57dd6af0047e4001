package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"trackink/composite"
	"trackink/internal/needs"
	"trackink/video"
)

const vtest = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

// image is frame f as the detector reads it, its chroma repeated to every pixel.
func image(f *composite.YUV420P) *Image {
	im := &Image{Y: make([]byte, f.W*f.H), Cb: make([]byte, f.W*f.H), Cr: make([]byte, f.W*f.H),
		W: f.W, H: f.H, Matrix: f.Matrix, Range: f.Range}
	for y := range f.H {
		for x := range f.W {
			i := y*f.W + x
			im.Y[i] = f.Y[y*f.StrideY+x]
			im.Cb[i] = f.U[y/2*f.StrideU+x/2]
			im.Cr[i] = f.V[y/2*f.StrideV+x/2]
		}
	}
	return im
}

// vtestFrames are the model's path and every 150th frame of vtest.avi.
func vtestFrames(t *testing.T) (string, []*Image) {
	model := filepath.Join(sharedModels, ModelFile)
	needs.File(t, model, "the model is kept in ../shared/models beside the repository")
	needs.File(t, vtest, "Debian's opencv-doc has it")
	var frames []*Image
	_, err := video.Frames(context.Background(), video.Options{Input: vtest}, func(n int, s composite.Surface) error {
		if n%150 == 0 {
			f, ok := s.(*composite.YUV420P)
			if !ok {
				return fmt.Errorf("frame %d is %T", n, s)
			}
			frames = append(frames, image(f))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return model, frames
}

// However many threads it runs on, the network finds the same boxes to the bit: the
// tracker may run one network on every core or one on each (tracker.Tracker.Push), and the
// tracks are the same either way.
func TestThreadsFindTheSame(t *testing.T) {
	model, frames := vtestFrames(t)
	var want [][]Detection
	for _, threads := range []int{1, 2, 3} {
		o := DefaultOptions()
		o.Model, o.Threads = model, threads
		n, err := New(o)
		needs.Met(t, err)
		for i, im := range frames {
			d, err := n.Detect(nil, im)
			if err != nil {
				t.Fatal(err)
			}
			if threads == 1 {
				want = append(want, d)
			} else if !slices.Equal(d, want[i]) {
				t.Errorf("frame %d, %d threads: %v; one thread: %v", 150*i, threads, d, want[i])
			}
		}
		n.Close()
	}
	if len(want[0]) < 5 {
		t.Fatalf("%d objects found in frame 0", len(want[0]))
	}
}

// A clone finds what its original finds, each on a goroutine of its own at once, with its
// own session and buffers.
func TestCloneFindsTheSame(t *testing.T) {
	model, frames := vtestFrames(t)
	o := DefaultOptions()
	o.Model, o.Classes, o.Threads = model, []int{0}, 1
	n, err := New(o)
	needs.Met(t, err)
	c := n.Clone()
	defer n.Close()
	defer c.Close()
	found := [2][][]Detection{}
	var wg sync.WaitGroup
	for k, net := range []*Network{n, c} {
		wg.Go(func() {
			for _, im := range frames {
				d, err := net.Detect(nil, im)
				if err != nil {
					t.Error(err)
					return
				}
				found[k] = append(found[k], d)
			}
		})
	}
	wg.Wait()
	if len(found[0]) != len(frames) || len(found[0][0]) < 5 {
		t.Fatalf("the original found %v", found[0])
	}
	for i := range frames {
		if !slices.Equal(found[0][i], found[1][i]) {
			t.Errorf("frame %d: the clone found %v, the original %v", 150*i, found[1][i], found[0][i])
		}
	}
	if c.Model != n.Model || c.Runtime != n.Runtime {
		t.Errorf("the clone's files %s, %s; the original's %s, %s", c.Model, c.Runtime, n.Model, n.Runtime)
	}
}

// The network run on the picture rounded up to whole strides (416 × 320 for vtest.avi) finds
// the people it finds in YOLOX's 416 × 416 square, at nearly the same places and scores:
// on frames of vtest.avi, every person found at 0.5 or more in one is found in the other
// with IoU 0.8 or more and a score within 0.05 (measured: IoU 0.865 and 0.013 at worst,
// at the picture's lower edge, where the network's view reaches into the padding).
func TestRectangularInputFindsWhatTheSquareFinds(t *testing.T) {
	model, frames := vtestFrames(t)
	found := map[int][][]Detection{}
	for _, round := range []int{InputSize, inputRound} {
		o := DefaultOptions()
		o.Model, o.Classes = model, []int{0}
		n, err := New(o)
		needs.Met(t, err)
		n.lb.round = round
		for _, im := range frames {
			d, err := n.Detect(nil, im)
			if err != nil {
				t.Fatal(err)
			}
			found[round] = append(found[round], d)
		}
		if round == inputRound && (n.dec.w != 416 || n.dec.h != 320) {
			t.Fatalf("input %dx%d, want 416x320", n.dec.w, n.dec.h)
		}
		n.Close()
	}
	matched, worstIoU, worstScore := 0, float32(1), float32(0)
	for i := range frames {
		for _, pair := range [][2][]Detection{{found[InputSize][i], found[inputRound][i]}, {found[inputRound][i], found[InputSize][i]}} {
			for _, a := range pair[0] {
				if a.Score < 0.5 {
					continue
				}
				best := Detection{}
				for _, b := range pair[1] {
					if iou(a, b) > iou(a, best) {
						best = b
					}
				}
				if iou(a, best) < 0.8 || abs32(best.Score-a.Score) > 0.05 {
					t.Errorf("frame %d: %+v has no match in the other input (nearest %+v, IoU %.2f)", 150*i, a, best, iou(a, best))
				}
				worstIoU, worstScore = min(worstIoU, iou(a, best)), max(worstScore, abs32(best.Score-a.Score))
				matched++
			}
		}
	}
	t.Logf("%d people matched over %d frames; lowest IoU %.3f, largest score difference %.3f", matched, len(frames), worstIoU, worstScore)
	if matched < 20 {
		t.Fatalf("only %d people at 0.5 or more", matched)
	}
}

func abs32(v float32) float32 { return max(v, -v) }
