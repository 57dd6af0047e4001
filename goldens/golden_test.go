package goldens

import (
	"flag"
	"image"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden pictures")

// TestGoldens renders every scene and compares it with testdata/NAME.png. After a deliberate
// change of the pictures: go test ./goldens -update, then look at every changed picture.
func TestGoldens(t *testing.T) {
	results, err := Run(Options{Dir: "testdata", OutDir: t.TempDir(), Update: *update})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(Scenes) {
		t.Fatalf("%d results for %d scenes", len(results), len(Scenes))
	}
	for _, r := range results {
		switch r.Status {
		case Failed:
			if r.Reason != "" {
				t.Errorf("%s: %s; drawn: %s", r.Scene, r.Reason, r.Actual)
				continue
			}
			t.Errorf("%s: %d pixels differ by more than %d (largest %d); see %s and %s", r.Scene, r.Over, Tolerance, r.MaxDiff, r.Actual, r.Diff)
		case Skipped: // setup installs the footage wherever the tests run
			t.Errorf("%s: skipped: %s", r.Scene, r.Reason)
		}
	}
}

// TestFootageSkippedWhereAbsent: where the clip is not installed (a GPU machine, the
// portable build's bare root), a scene on footage is skipped and says why, and the others
// still run.
func TestFootageSkippedWhereAbsent(t *testing.T) {
	defer func(f string) { Footage = f }(Footage)
	Footage = filepath.Join(t.TempDir(), "vtest.avi")
	results, err := Run(Options{Dir: "testdata", OutDir: t.TempDir(), Only: []string{"vtest-default", "boxes-roundness"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || results[0].Status != Skipped || !strings.Contains(results[0].Reason, Footage) || results[1].Status != Passed {
		t.Errorf("results %+v: want vtest-default skipped (naming the clip), boxes-roundness passed", results)
	}
}

// TestCompareCatchesADifference makes sure the comparison can fail: one channel moved by
// Tolerance+1 is caught, by Tolerance is not.
func TestCompareCatchesADifference(t *testing.T) {
	a := Checkerboard(16, 16)
	b := image.NewRGBA(a.Bounds())
	copy(b.Pix, a.Pix)
	b.Pix[4*37+1] += Tolerance
	if r := compare("x", a, b, Tolerance); r.Status != Passed || r.MaxDiff != Tolerance {
		t.Errorf("difference of %d: %+v", Tolerance, r)
	}
	b.Pix[4*37+1]++
	if r := compare("x", a, b, Tolerance); r.Status != Failed || r.Over != 1 {
		t.Errorf("difference of %d: %+v", Tolerance+1, r)
	}
	if r := compare("x", a, Checkerboard(16, 17), Tolerance); r.Status != Failed {
		t.Errorf("size mismatch passed")
	}
}

func TestUnknownSceneIsAnError(t *testing.T) {
	if _, err := Run(Options{Dir: "testdata", Only: []string{"nope"}}); err == nil {
		t.Fatal("no error for an unknown scene")
	}
}
