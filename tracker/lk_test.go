package tracker

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/internal/baseline"
	"trackink/video"
)

const vtest = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

// lumaFrames decodes the luma planes of the given frames of a video.
func lumaFrames(t *testing.T, path string, want ...int) map[int]*plane {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s: %v (Debian's opencv-doc has it)", path, err)
	}
	last := 0
	for _, n := range want {
		last = max(last, n)
	}
	got := map[int]*plane{}
	errStop := fmt.Errorf("enough")
	_, err := video.Frames(context.Background(), video.Options{Input: path}, func(n int, s composite.Surface) error {
		for _, k := range want {
			if k == n {
				y, _, _, err := planes(s)
				if err != nil {
					return err
				}
				p := &plane{}
				downscale(p, y, 1)
				got[n] = p
			}
		}
		if n >= last {
			return errStop
		}
		return nil
	})
	if len(got) != len(want) {
		t.Fatalf("decoding %s: %v", path, err)
	}
	return got
}

func writePGM(t *testing.T, path string, p *plane) {
	t.Helper()
	data := append([]byte(fmt.Sprintf("P5\n%d %d\n255\n", p.w, p.h)), p.pix...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLKMatchesOpenCV follows the same corners of real footage (vtest.avi, pedestrians)
// with our Lucas–Kanade and OpenCV's calcOpticalFlowPyrLK, with the same window, levels
// and stopping rule, and wants the median difference of the results at most 0.05 px.
func TestLKMatchesOpenCV(t *testing.T) {
	py, err := baseline.Python()
	if err != nil {
		t.Skip(err)
	}
	frames := lumaFrames(t, vtest, 1, 2, 200, 203)
	dir := t.TempDir()
	var diffs []float64
	both, onlyUs, onlyCV := 0, 0, 0
	for _, pair := range [][2]int{{1, 2}, {200, 203}} {
		a, b := frames[pair[0]], frames[pair[1]]
		var pa, pb pyramid
		pa.build(a)
		pb.build(b)
		var pt pointTracker
		pt.pyr[0] = pa
		tr := &Tracker{o: DefaultOptions(Points)}
		pt.seed(tr, a, pointSpacing(a.w, a.h, 200))
		var lines []string
		for _, p := range pt.pts {
			lines = append(lines, fmt.Sprintf("%g %g", p.x, p.y))
		}
		prev, next, pts := filepath.Join(dir, "a.pgm"), filepath.Join(dir, "b.pgm"), filepath.Join(dir, "p.txt")
		writePGM(t, prev, a)
		writePGM(t, next, b)
		os.WriteFile(pts, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		out, err := exec.Command(py, "testdata/lk_opencv.py", prev, next, pts, fmt.Sprint(lkWindow), fmt.Sprint(lkLevels)).Output()
		if err != nil {
			t.Fatalf("lk_opencv.py: %v", err)
		}
		rows := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(rows) != len(pt.pts) {
			t.Fatalf("OpenCV gave %d points for %d", len(rows), len(pt.pts))
		}
		var lw lkWork
		for i, p := range pt.pts {
			var st int
			var cx, cy float64
			fmt.Sscan(rows[i], &st, &cx, &cy)
			x, y, ok := lw.flow(&pa, &pb, p.x, p.y)
			switch {
			case ok && st == 1:
				both++
				diffs = append(diffs, math.Hypot(float64(x)-cx, float64(y)-cy))
			case ok:
				onlyUs++
			case st == 1:
				onlyCV++
			}
		}
	}
	med := median(diffs)
	t.Logf("%d points followed by both, median difference %.4f px, largest %.4f px; %d by us only, %d by OpenCV only",
		both, med, maxOf(diffs), onlyUs, onlyCV)
	if both < 100 || med > 0.05 {
		t.Errorf("median difference %.4f px over %d points, want ≤ 0.05 px over at least 100", med, both)
	}
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
