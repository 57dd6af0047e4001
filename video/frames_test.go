package video

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"trackink/composite"
)

// TestFrames visits every frame of a clip in order, with its size and planes, and stops
// at the visitor's error; a cut clip is visited up to the cut and reported damaged.
func TestFrames(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mkv")
	if err := Synthesize(in, 320, 240, 30, 10); err != nil {
		t.Fatal(err)
	}
	var seen []int
	stats, err := Frames(context.Background(), Options{Input: in}, func(n int, s composite.Surface) error {
		if w, h := s.Size(); w != 320 || h != 240 {
			t.Errorf("frame %d is %dx%d", n, w, h)
		}
		seen = append(seen, n)
		return nil
	})
	if err != nil || len(seen) != 30 || seen[0] != 1 || seen[29] != 30 || stats.Frames != 30 {
		t.Fatalf("visited %v, stats %d frames, err %v", seen, stats.Frames, err)
	}
	stop := errors.New("stop")
	_, err = Frames(context.Background(), Options{Input: in}, func(n int, s composite.Surface) error {
		if n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("visitor's error: got %v", err)
	}
	b, _ := os.ReadFile(in)
	cut := filepath.Join(dir, "cut.mkv")
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	stats, err = Frames(context.Background(), Options{Input: cut}, func(int, composite.Surface) error { return nil })
	if !errors.Is(err, ErrInputDamaged) || stats.Frames < 1 || stats.Frames >= 30 {
		t.Errorf("cut clip: %d frames, err %v", stats.Frames, err)
	}
}
