package detect

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/composite"
)

// A flat grey picture letterboxes to grey where the picture is and padValue elsewhere; the
// picture's size in the input is the source's times the scale, rounded, and the input's is
// the picture's rounded up to a multiple of round (416: YOLOX's square).
func TestLetterboxPlacesAndPads(t *testing.T) {
	for _, tc := range []struct {
		name         string
		w, h, round  int
		rng          composite.Range
		y            byte
		want         float32 // R' = G' = B'
		scale        float64
		pictW, pictH int
		inW, inH     int
	}{
		{"768x576 limited mid-grey", 768, 576, 416, composite.Limited, 126, 128.0 / 219 * 255 * (126 - 16) / 128, 416.0 / 768, 416, 312, 416, 416},
		{"768x576 to whole strides", 768, 576, 32, composite.Limited, 126, 128.0 / 219 * 255 * (126 - 16) / 128, 416.0 / 768, 416, 312, 416, 320},
		{"1920x1080 full black", 1920, 1080, 416, composite.Full, 0, 0, 416.0 / 1920, 416, 234, 416, 416},
		{"1920x1080 to whole strides", 1920, 1080, 32, composite.Full, 0, 0, 416.0 / 1920, 416, 234, 416, 256},
		{"upright 100x200 full white", 100, 200, 32, composite.Full, 255, 255, 416.0 / 200, 208, 416, 224, 416},
		{"small 64x48 upscaled", 64, 48, 416, composite.Full, 50, 50, 416.0 / 64, 416, 312, 416, 416},
		{"a whole number of strides: no padding", 832, 640, 32, composite.Full, 50, 50, 0.5, 416, 320, 416, 320},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := flat(tc.w, tc.h, tc.y, 128, 128, tc.rng)
			lb := letterbox{size: InputSize, round: tc.round}
			lb.fit(tc.w, tc.h)
			if lb.iw != tc.inW || lb.ih != tc.inH {
				t.Fatalf("input %dx%d, want %dx%d", lb.iw, lb.ih, tc.inW, tc.inH)
			}
			dst := make([]float32, 3*lb.iw*lb.ih)
			scale, err := lb.fill(dst, im)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(scale-tc.scale) > 1e-12 || lb.nw != tc.pictW || lb.nh != tc.pictH {
				t.Fatalf("scale %g, picture %dx%d; want %g, %dx%d", scale, lb.nw, lb.nh, tc.scale, tc.pictW, tc.pictH)
			}
			for c := range 3 {
				for y := range lb.ih {
					for x := range lb.iw {
						v := dst[c*lb.iw*lb.ih+y*lb.iw+x]
						want := float32(padValue)
						if x < tc.pictW && y < tc.pictH {
							want = tc.want
						}
						if math.Abs(float64(v-want)) > 0.01 {
							t.Fatalf("channel %d (%d,%d) = %g, want %g", c, x, y, v, want)
						}
					}
				}
			}
		})
	}
}

// The channels are B', G', R' in that order, from BT.601 full-range pure colours.
func TestLetterboxChannelOrder(t *testing.T) {
	// Pure red in BT.601 full range: Y' 76.245, Cb 84.972, Cr 255.5 (clipped to 255).
	im := flat(32, 32, 76, 85, 255, composite.Full)
	im.Matrix = composite.BT601
	lb := letterbox{size: InputSize, round: inputRound}
	lb.fit(im.W, im.H)
	dst := make([]float32, 3*lb.iw*lb.ih)
	if _, err := lb.fill(dst, im); err != nil {
		t.Fatal(err)
	}
	a := lb.iw * lb.ih
	b, g, r := dst[0], dst[a], dst[2*a]
	if r < 250 || g > 5 || b > 5 {
		t.Fatalf("pure red gave B'G'R' %g %g %g", b, g, r)
	}
}

// Reducing averages every source sample: a one-pixel checkerboard becomes its mean, with
// no aliasing into stripes.
func TestLetterboxAveragesWhenReducing(t *testing.T) {
	const w, h = 1664, 1248 // 4× the input
	im := flat(w, h, 0, 128, 128, composite.Full)
	for y := range h {
		for x := range w {
			if (x+y)%2 == 0 {
				im.Y[y*w+x] = 200
			}
		}
	}
	lb := letterbox{size: InputSize, round: inputRound}
	lb.fit(im.W, im.H)
	dst := make([]float32, 3*lb.iw*lb.ih)
	if _, err := lb.fill(dst, im); err != nil {
		t.Fatal(err)
	}
	for i, v := range dst[:InputSize*312] {
		if math.Abs(float64(v-100)) > 1 {
			t.Fatalf("sample %d = %g, want 100 (the checkerboard's mean)", i, v)
		}
	}
}

func TestLetterboxRefusesShortPlanes(t *testing.T) {
	im := flat(10, 10, 0, 128, 128, composite.Full)
	im.Cr = im.Cr[:99]
	lb := letterbox{size: InputSize, round: inputRound}
	lb.fit(im.W, im.H)
	if _, err := lb.fill(make([]float32, 3*lb.iw*lb.ih), im); err == nil {
		t.Fatal("a short Cr plane was taken")
	}
	// An input made for another size is refused, not half filled.
	if _, err := lb.fill(make([]float32, 3*lb.iw*lb.ih), flat(20, 10, 0, 128, 128, composite.Full)); err == nil {
		t.Fatal("an image of another size than fit's was taken")
	}
}

// Image.check refuses sizes that are none or that overflow, and planes too short.
func TestImageCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		im   *Image
		ok   bool
	}{
		{"10x10", flat(10, 10, 0, 128, 128, composite.Full), true},
		{"no width", &Image{W: 0, H: 10}, false},
		{"negative height", &Image{W: 10, H: -1}, false},
		{"size overflows", &Image{W: 4, H: 1 << 62}, false},
		{"short Y", &Image{Y: make([]byte, 99), Cb: make([]byte, 100), Cr: make([]byte, 100), W: 10, H: 10}, false},
	} {
		if err := tc.im.check(); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func flat(w, h int, y, cb, cr byte, r composite.Range) *Image {
	im := &Image{Y: make([]byte, w*h), Cb: make([]byte, w*h), Cr: make([]byte, w*h), W: w, H: h, Range: r}
	for i := range im.Y {
		im.Y[i], im.Cb[i], im.Cr[i] = y, cb, cr
	}
	return im
}

// A hand-worked output: one cell of each grid holds an object, worked out by hand in input
// pixels and divided by the letterbox scale.
func TestDecodeHandWorked(t *testing.T) {
	const classes = 3
	rows := cells(InputSize, InputSize)
	if rows != 3549 {
		t.Fatalf("cells(416, 416) = %d, want 3549", rows)
	}
	// 1080p's input, 416 × 256: 52 × 32 + 26 × 16 + 13 × 8.
	if n := cells(416, 256); n != 2184 {
		t.Fatalf("cells(416, 256) = %d, want 2184", n)
	}
	out := make([]float32, rows*(5+classes))
	set := func(cell int, v ...float32) { copy(out[cell*(5+classes):], v) }
	// Stride 8, cell (x 10, y 5): centre (10.5·8, 5.5·8) = (84, 44); size e^0·8 = 8 → ln 2 gives 16.
	set(5*52+10, 0.5, 0.5, float32(math.Log(2)), float32(math.Log(4)), 0.9, 0.1, 0.8, 0.05)
	// Stride 16, cell (x 3, y 2), after the 2704 cells of stride 8: centre (56, 40), 16 × 16.
	set(2704+2*26+3, 0.5, 0.5, 0, 0, 0.5, 0.9, 0.1, 0)
	// Stride 32, cell (x 0, y 0): score 0.2 × 0.9 = 0.18, below the limit.
	set(2704+676, 0.5, 0.5, 0, 0, 0.2, 0.9, 0, 0)
	d := decoder{w: InputSize, h: InputSize, classes: classes, wanted: []bool{true, true, true}, minScore: 0.3, iou: 0.45, crossIoU: 0.7}
	got := d.decode(nil, out, 0.5, 1000, 1000)
	want := []Detection{
		{X0: (84 - 8) * 2, Y0: (44 - 16) * 2, X1: (84 + 8) * 2, Y1: (44 + 16) * 2, Class: 1, Score: 0.9 * 0.8},
		{X0: (56 - 8) * 2, Y0: (40 - 8) * 2, X1: (56 + 8) * 2, Y1: (40 + 8) * 2, Class: 0, Score: 0.5 * 0.9},
	}
	if !detectionsNear(got, want) {
		t.Fatalf("decode = %+v, want %+v", got, want)
	}
	// Only class 2 wanted: the first cell's class 2 scores 0.9 × 0.05, below the limit.
	d.wanted = []bool{false, false, true}
	if got := d.decode(nil, out, 0.5, 1000, 1000); len(got) != 0 {
		t.Fatalf("class 2 only: %+v, want none", got)
	}
	// Clipped to the frame.
	d.wanted = []bool{true, true, true}
	got = d.decode(nil, out, 0.5, 170, 100)
	if len(got) != 2 || got[0].X1 != 170 || got[0].Y1 != 100 {
		t.Fatalf("not clipped to 170x100: %+v", got)
	}
	// A cell whose size is NaN gives no box.
	nan := slices.Clone(out)
	nan[(5*52+10)*(5+classes)+2] = float32(math.NaN())
	if got := d.decode(nil, nan, 0.5, 1000, 1000); !detectionsNear(got, want[1:]) {
		t.Fatalf("a NaN width: decode = %+v, want %+v", got, want[1:])
	}
	// A box wholly outside the frame is none.
	if got := d.decode(nil, out, 0.5, 90, 60); len(got) != 0 {
		t.Fatalf("boxes outside a 90x60 frame kept: %+v", got)
	}
	// A 416 × 256 input: the stride-16 grid's rows follow the 52 × 32 cells of stride 8, and
	// its cell (x 3, y 2) is the same box as in the square.
	rect := make([]float32, cells(416, 256)*(5+classes))
	copy(rect[(52*32+2*26+3)*(5+classes):], []float32{0.5, 0.5, 0, 0, 0.5, 0.9, 0.1, 0})
	d = decoder{w: 416, h: 256, classes: classes, wanted: []bool{true, true, true}, minScore: 0.3, iou: 0.45, crossIoU: 0.7}
	if got := d.decode(nil, rect, 0.5, 1000, 1000); !detectionsNear(got, want[1:]) {
		t.Fatalf("416x256 input: decode = %+v, want %+v", got, want[1:])
	}
}

func detectionsNear(a, b []Detection) bool {
	return slices.EqualFunc(a, b, func(x, y Detection) bool {
		near := func(p, q float32) bool { return math.Abs(float64(p-q)) < 1e-3 }
		return x.Class == y.Class && near(x.Score, y.Score) && near(x.X0, y.X0) && near(x.Y0, y.Y0) && near(x.X1, y.X1) && near(x.Y1, y.Y1)
	})
}

// TestNMS: a box is dropped where it overlaps a better one of its class above IoU 0.45, or
// a better one of another class above 0.7: one object read as two classes gets one box, the
// better score's. The van on vtest.avi was a car (0.68) and a truck (0.74) at IoU 0.93, and
// both were drawn, with two tracks, for the whole clip.
func TestNMS(t *testing.T) {
	box := func(x0, y0, x1, y1 float32, class int, score float32) Detection {
		return Detection{X0: x0, Y0: y0, X1: x1, Y1: y1, Class: class, Score: score}
	}
	const car, truck, person, bicycle = 2, 7, 0, 1
	for _, tc := range []struct {
		name       string
		cand, want []Detection
	}{
		{"overlap above the limit: the better stays",
			// IoU of [0,10]² and [0,10]×[0,12]: 100/120 = 0.83.
			[]Detection{box(0, 0, 10, 12, 0, 0.6), box(0, 0, 10, 10, 0, 0.9)},
			[]Detection{box(0, 0, 10, 10, 0, 0.9)}},
		{"overlap at the limit: both stay",
			// IoU of [0,10]×[0,10] and [0,10]×[5,15]: 50/150 = 1/3 < 0.45.
			[]Detection{box(0, 0, 10, 10, 0, 0.9), box(0, 5, 10, 15, 0, 0.8)},
			[]Detection{box(0, 0, 10, 10, 0, 0.9), box(0, 5, 10, 15, 0, 0.8)}},
		{"a suppressed box suppresses nothing",
			// b overlaps a (kept) and c; c overlaps b only: c stays.
			[]Detection{box(0, 0, 10, 10, 0, 0.9), box(2, 0, 12, 10, 0, 0.8), box(9, 0, 19, 10, 0, 0.7)},
			[]Detection{box(0, 0, 10, 10, 0, 0.9), box(9, 0, 19, 10, 0, 0.7)}},
		{"equal scores keep the grid's order",
			[]Detection{box(0, 0, 10, 10, 0, 0.5), box(1, 0, 11, 10, 0, 0.5)},
			[]Detection{box(0, 0, 10, 10, 0, 0.5)}},
		{"another class, the same box: the better score's class stays",
			[]Detection{box(0, 0, 10, 10, car, 0.68), box(0, 0, 10, 10, truck, 0.74)},
			[]Detection{box(0, 0, 10, 10, truck, 0.74)}},
		{"another class above 0.7: dropped",
			// The van on vtest.avi's frame 1, rounded: truck [651,42]–[726,99], car
			// [651,43]–[723,100]. Intersection 72 × 56 = 4032; union 75·57 + 72·57 − 4032 =
			// 4347; IoU 0.93.
			[]Detection{box(651, 43, 723, 100, car, 0.66), box(651, 42, 726, 99, truck, 0.74)},
			[]Detection{box(651, 42, 726, 99, truck, 0.74)}},
		{"another class above 0.7, at 0.75: dropped",
			// [0,10]×[0,10] and [0,10]×[0,7.5]: 75/100 = 0.75.
			[]Detection{box(0, 0, 10, 10, car, 0.9), box(0, 0, 10, 7.5, truck, 0.8)},
			[]Detection{box(0, 0, 10, 10, car, 0.9)}},
		{"another class at 0.7: both stay",
			// [0,10]×[0,10] and [0,10]×[0,7]: 70/100 = 0.7, not above the limit.
			[]Detection{box(0, 0, 10, 10, car, 0.9), box(0, 0, 10, 7, truck, 0.8)},
			[]Detection{box(0, 0, 10, 10, car, 0.9), box(0, 0, 10, 7, truck, 0.8)}},
		{"another class between 0.45 and 0.7: both stay",
			// A cyclist head-on: the person [0,0]–[6,17.5], the bicycle [0,7.5]–[6,17.5]:
			// 60/105 = 0.57, two objects.
			[]Detection{box(0, 0, 6, 17.5, person, 0.8), box(0, 7.5, 6, 17.5, bicycle, 0.7)},
			[]Detection{box(0, 0, 6, 17.5, person, 0.8), box(0, 7.5, 6, 17.5, bicycle, 0.7)}},
		{"a box dropped for another class drops nothing of its own",
			// The truck drops the car on it. The second car overlaps that car by 80/120 =
			// 0.67, above 0.45, and the truck by the same 0.67, not above 0.7: it stays.
			[]Detection{box(0, 0, 10, 10, truck, 0.9), box(0, 0, 10, 10, car, 0.8), box(2, 0, 12, 10, car, 0.7)},
			[]Detection{box(0, 0, 10, 10, truck, 0.9), box(2, 0, 12, 10, car, 0.7)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nms(nil, tc.cand, 0.45, 0.7); !slices.Equal(got, tc.want) {
				t.Fatalf("nms = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestClassIndices: --classes takes YOLOX's COCO names and the darknet spellings the
// model's coco_classes.txt has (motorbike for motorcycle…), and suggests the name a typo is
// close to. YOLOX's own names were refused as unknown classes ("motorcycle", "tv"), with no
// suggestion.
func TestClassIndices(t *testing.T) {
	for _, c := range []struct {
		list string
		want []int
	}{
		{"person, car,dog,person", []int{0, 2, 16}},
		{"motorcycle,airplane,couch,potted plant,dining table,tv", []int{3, 4, 57, 58, 60, 62}},
		{"motorbike,aeroplane,sofa,pottedplant,diningtable,tvmonitor", []int{3, 4, 57, 58, 60, 62}},
		{"motorbike,motorcycle", []int{3}},
		{"Person, TV,MotorBike", []int{0, 62, 3}},
	} {
		if got, err := ClassIndices(c.list); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ClassIndices(%q) = %v, %v; want %v", c.list, got, err, c.want)
		}
	}
	for _, c := range []struct{ bad, want string }{
		{"persn", `unknown class "persn" (did you mean person?): the classes are person, bicycle`},
		{"Persn", `unknown class "Persn" (did you mean person?)`},
		{"motorcyle", "(did you mean motorcycle?)"},
		{"potted-plant", "(did you mean potted plant?)"},
		{"tvmonitr", "(did you mean tvmonitor?)"},
		{"spaceship", `unknown class "spaceship": the classes are`},
		{"", "no class named"},
		{" , ", "no class named"},
	} {
		if _, err := ClassIndices(c.bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ClassIndices(%q): %v; want %q", c.bad, err, c.want)
		}
	}
	// The model's own list, where it is beside the project, is the darknet spellings:
	// each of its names is Classes' or an alias of it.
	if b, err := os.ReadFile(filepath.Join(sharedModels, "coco_classes.txt")); err == nil {
		got := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(got) != len(Classes) {
			t.Fatalf("coco_classes.txt has %d names, want %d", len(got), len(Classes))
		}
		for i, name := range got {
			if name != Classes[i] && ClassAliases[name] != Classes[i] {
				t.Errorf("coco_classes.txt's class %d is %q, neither %q nor its alias", i, name, Classes[i])
			}
		}
	}
}

// sharedModels is where the project's models are kept, beside the repository.
var sharedModels = filepath.Join("..", "..", "shared", "models")

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ModelFile)
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv(ModelEnv, "")
	if got, err := LocateModel(file); err != nil || got != file {
		t.Fatalf("given: %q, %v", got, err)
	}
	if _, err := LocateModel(filepath.Join(dir, "absent.onnx")); err == nil || !strings.Contains(err.Error(), ModelSHA256) {
		t.Fatalf("absent given file: %v, want an error naming where to get it", err)
	}
	t.Setenv(ModelEnv, file)
	if got, err := LocateModel(""); err != nil || got != file {
		t.Fatalf("from $%s: %q, %v", ModelEnv, got, err)
	}
	t.Setenv(ModelEnv, "")
	_, err := LocateModel("")
	if err == nil {
		t.Fatal("found a model in an empty data directory")
	}
	for _, want := range []string{"$" + ModelEnv, filepath.Join(dir, "data", "trackink", "models", ModelFile), "releases", ModelSHA256} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	in := filepath.Join(dir, "data", "trackink", "models")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, ModelFile), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := LocateModel(""); err != nil || got != filepath.Join(in, ModelFile) {
		t.Fatalf("data directory: %q, %v", got, err)
	}
}

// A model file larger than a protobuf message can be is refused, before it is read,
// whether given or named by $TRACKINK_MODEL (the error then names the variable): New read
// it whole, and a 4 GB file took a 4.3 GB allocation. The files are sparse: they take no
// disk.
func TestModelSizeRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		size    int64
		fromEnv bool
		refused bool
	}{
		{"given, the largest a model can be", MaxModelSize, false, false},
		{"given, a byte more", MaxModelSize + 1, false, true},
		{"given, 4 GiB", 4 << 30, false, true},
		{"from the environment, the largest a model can be", MaxModelSize, true, false},
		{"from the environment, 4 GiB", 4 << 30, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("m%d.onnx", tc.size))
			f, err := os.Create(path)
			if err == nil {
				err = errors.Join(f.Truncate(tc.size), f.Close())
			}
			if err != nil {
				t.Fatal(err)
			}
			given, where := path, ": "
			t.Setenv(ModelEnv, "")
			if tc.fromEnv {
				given, where = "", " (from $"+ModelEnv+"): "
				t.Setenv(ModelEnv, path)
			}
			got, err := LocateModel(given)
			if !tc.refused {
				if err != nil || got != path {
					t.Fatalf("%q, %v; want %s taken", got, err, path)
				}
				return
			}
			want := fmt.Sprintf("model %s%s%d bytes", path, where, tc.size)
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "larger than an ONNX model can be") {
				t.Fatalf("%q, %v; want an error saying %q and why", got, err, want)
			}
			// New's own read refuses it too, reading none of it.
			if _, err := readModel(path); err == nil || !strings.Contains(err.Error(), "larger than an ONNX model can be") {
				t.Errorf("readModel: %v", err)
			}
		})
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []Options{
		{MinScore: 0, IoU: 0.45, CrossIoU: 0.7},
		{MinScore: 1, IoU: 0.45, CrossIoU: 0.7},
		{MinScore: 0.3, IoU: 0, CrossIoU: 0.7},
		{MinScore: 0.3, IoU: 0.45},
		{MinScore: 0.3, IoU: 0.45, CrossIoU: 1.5},
		{MinScore: 0.3, IoU: 0.45, CrossIoU: 0.7, Threads: -1},
		{MinScore: 0.3, IoU: 0.45, CrossIoU: 0.7, Classes: []int{80}},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) took it", o)
		}
	}
}

// BenchmarkLetterbox: the preprocessing of one frame at the analysis sizes the tracker hands
// over (vtest.avi's 768x576 whole; 1080p and 4K box-filtered to 960x540).
func BenchmarkLetterbox(b *testing.B) {
	for _, size := range [][2]int{{768, 576}, {960, 540}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			im := flat(size[0], size[1], 100, 120, 140, composite.Limited)
			lb := letterbox{size: InputSize, round: inputRound}
			lb.fit(im.W, im.H)
			dst := make([]float32, 3*lb.iw*lb.ih)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := lb.fill(dst, im); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
