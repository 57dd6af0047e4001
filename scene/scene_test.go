package scene

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// The record sizes are what the 48-bytes-a-box bound rests on; the memory tests measure the
// whole.
func TestRecordSizes(t *testing.T) {
	if s := unsafe.Sizeof(boxRecord{}); s != 36 {
		t.Errorf("boxRecord takes %d bytes, want 36", s)
	}
	if s := unsafe.Sizeof(pointRecord{}); s != 20 {
		t.Errorf("pointRecord takes %d bytes, want 20", s)
	}
}

// TestNewTracksKeepsFrames builds Tracks from random frames given in random order, spanning
// several chunks, and checks that every frame comes back as given, in order.
func TestNewTracksKeepsFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var want []Frame
	for index := 1; index <= 1200; index++ {
		if rng.IntN(5) == 0 {
			continue
		}
		f := Frame{Index: index}
		for _, id := range rng.Perm(200)[:rng.IntN(120)] {
			f.Points = append(f.Points, Point{ID: id, X: rng.Float32() * 100, Y: float32(index)})
		}
		for _, id := range rng.Perm(200)[:rng.IntN(120)] {
			b := Box{ID: id, X: float32(index), Y: rng.Float32(), W: 3, H: 4, Class: []string{"", "a", "b"}[rng.IntN(3)]}
			if rng.IntN(2) == 0 {
				b.Score, b.HasScore = 0.5, true
			}
			if rng.IntN(3) == 0 {
				b.Color, b.HasColor = Color{1, 2, 3, 4}, true
			}
			if rng.IntN(10) == 0 {
				b.ID = NoID
			}
			f.Boxes = append(f.Boxes, b)
		}
		if len(f.Points)+len(f.Boxes) > 0 {
			want = append(want, f)
		}
	}
	shuffled := append([]Frame(nil), want...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	tr, err := NewTracks(append(shuffled, Frame{Index: 9999})) // an empty frame is left out
	if err != nil {
		t.Fatal(err)
	}
	if tr.boxes.n <= 1<<chunkBits {
		t.Fatalf("%d boxes fit in one chunk; the test wants several", tr.boxes.n)
	}
	checkInvariants(t, tr)
	if got := framesOf(tr); !reflect.DeepEqual(got, want) {
		t.Fatal("frames differ from those given")
	}
}

func TestNewTracksRejects(t *testing.T) {
	nan := float32(0)
	nan /= nan
	box := Box{ID: 1, W: 1, H: 1}
	tests := []struct {
		name   string
		frames []Frame
		want   string
	}{
		{"frame 0", []Frame{{Index: 0, Boxes: []Box{box}}}, "frame 0: 0 is less than 1"},
		{"frame twice", []Frame{{Index: 2, Boxes: []Box{box}}, {Index: 2}}, "frame 2: given twice"},
		{"box id twice", []Frame{{Index: 1, Boxes: []Box{box, box}}}, "frame 1: box 1: track 1 appears twice"},
		{"point id NoID", []Frame{{Index: 1, Points: []Point{{ID: NoID}}}}, "frame 1: point 0: id -1 is outside"},
		{"NaN", []Frame{{Index: 1, Points: []Point{{ID: 1, X: nan}}}}, "frame 1: point 0: coordinate NaN"},
		{"negative size", []Frame{{Index: 1, Boxes: []Box{{W: -1}}}}, "frame 1: box 0: size -1 is negative"},
		{"score 2", []Frame{{Index: 1, Boxes: []Box{{Score: 2, HasScore: true}}}}, "frame 1: box 0: score 2 is outside [0,1]"},
		{"label with a tab", []Frame{{Index: 1, Boxes: []Box{{Class: "a\tb"}}}}, "frame 1: box 0: \"a\\tb\" contains the control character U+0009"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTracks(tc.frames)
			if err == nil || !strings.HasPrefix(err.Error(), "scene: "+tc.want) {
				t.Fatalf("got %v, want an error starting %q", err, "scene: "+tc.want)
			}
		})
	}
}

// TestFrameAllocatesNothing: a consumer that reuses one Frame for every frame allocates
// nothing once the Frame has grown, derived points included.
func TestFrameAllocatesNothing(t *testing.T) {
	path, _ := writeLongFile(t, t.TempDir(), FormatMOT, 200, 50, false)
	tr, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var f Frame
	tr.Frame(1, &f)
	n := 0
	allocs := testing.AllocsPerRun(10, func() {
		for i := 1; i <= 200; i++ {
			if tr.Frame(i, &f) != nil {
				n += len(f.Boxes) + len(f.Points)
			}
		}
	})
	if allocs != 0 || n != 11*200*100 {
		t.Fatalf("%v allocations a run, %d items", allocs, n)
	}
}

func BenchmarkFrame(b *testing.B) {
	path, _ := writeLongFile(b, b.TempDir(), FormatMOT, 2000, 100, false)
	tr, err := Load(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var f Frame
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tr.Frame(i%2000+1, &f)
		i++
	}
}
