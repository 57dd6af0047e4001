package overlay

import (
	"bytes"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"trackink/composite"
	"trackink/internal/cputime"
	"trackink/scene"
)

// SeedBench is what BenchSeed measured: medians over the frames timed.
type SeedBench struct {
	Width, Height, Frames int
	Workers               int // the backend's
	Links                 int // links in the last frame
	StagesMS              [NumStages]float64
	TotalMS               float64 // a frame, all stages, as the timed pass drew it
	AllocsPerFrame        float64
	// Graph is the untimed pass of a device backend (DeviceFrames): nil on the CPU.
	Graph *GraphPass
}

// GraphPass is what BenchSeed measured on a device backend drawing as a render does: not
// timed, so each frame replays the captured CUDA graph in one launch, where the timed pass
// launches every kernel singly with events between the stages.
type GraphPass struct {
	TotalMS        float64 // the median frame: the whole Drawer.Draw, the host's work included
	AllocsPerFrame float64
	// SamePicture says whether the graph drew the frame the timed pass drew, byte for byte:
	// the same kernels on the same data, so anything else is a fault in the capture.
	SamePicture bool
}

// SeedReport is the JSON form of a seed-scene benchmark (trackink bench --json).
type SeedReport struct {
	Scene          string             `json:"scene"`
	Backend        string             `json:"backend"`
	Format         string             `json:"format"`
	Width          int                `json:"width"`
	Height         int                `json:"height"`
	Frames         int                `json:"frames"`
	Workers        int                `json:"workers"`
	Links          int                `json:"links_per_frame"`
	StagesMS       map[string]float64 `json:"stages_ms"`
	TotalMedianMS  float64            `json:"total_median_ms"` // the timed pass's frame
	AllocsPerFrame float64            `json:"allocs_per_frame"`
	// The graph pass's (GraphPass), on a device backend only.
	GraphTotalMedianMS  *float64 `json:"graph_total_median_ms,omitempty"`
	GraphAllocsPerFrame *float64 `json:"graph_allocs_per_frame,omitempty"`
	GraphSamePicture    *bool    `json:"graph_same_picture,omitempty"`
}

// Report is b's JSON form, for the named backend and frame format.
func (b SeedBench) Report(backend, format string) SeedReport {
	r := SeedReport{Scene: "seed", Backend: backend, Format: format, Width: b.Width, Height: b.Height, Frames: b.Frames,
		Workers: b.Workers, Links: b.Links, StagesMS: map[string]float64{},
		TotalMedianMS: b.TotalMS, AllocsPerFrame: b.AllocsPerFrame}
	for st, v := range b.StagesMS {
		r.StagesMS[Stage(st).String()] = v
	}
	if g := b.Graph; g != nil {
		r.GraphTotalMedianMS, r.GraphAllocsPerFrame, r.GraphSamePicture = &g.TotalMS, &g.AllocsPerFrame, &g.SamePicture
	}
	return r
}

// DeviceFrames is a Backend with device memory of its own (the GPU backend, on a GPU or
// emulated) that can make NV12 frames there, as NVDEC decodes them for a render: so that
// trackink bench times the overlay on frames that never leave the device.
type DeviceFrames interface {
	// NewDeviceNV12 allocates a w × h NV12 frame in the backend's device memory, every luma
	// sample y and every chroma sample c.
	NewDeviceNV12(w, h int, y, c byte) (*composite.DeviceNV12, error)
	// ReadDeviceNV12 copies f's planes (a frame of NewDeviceNV12's) to host memory, rows
	// StrideY and StrideUV bytes apart.
	ReadDeviceNV12(f *composite.DeviceNV12) (y, uv []byte, err error)
	// FreeDeviceNV12 frees a frame of NewDeviceNV12's.
	FreeDeviceNV12(f *composite.DeviceNV12)
}

// FormatDevice is BenchSeed's format for an NV12 frame in the backend's device memory.
const FormatDevice = "device"

// ErrNoDeviceFrames is BenchSeed's error for FormatDevice on a backend without device
// memory (the CPU's).
var ErrNoDeviceFrames = errors.New("the backend has no device memory to hold the frame (a GPU backend has: cuda, emu)")

// BenchWarmup is the frames a benchmark draws untimed first: every buffer reaches its
// steady size before the timing starts.
const BenchWarmup = 10

// BenchSeed draws the seed scene (scene.Seed, at its own size) onto a mid-grey frame of
// format (yuv420p or nv12 in host memory, or FormatDevice: NV12 in the backend's device
// memory, as NVDEC decodes into) with options o, BenchWarmup frames untimed and then frames
// timed, and returns the median time of each stage and of a frame, and the allocations a
// frame. On a device backend (DeviceFrames) it then draws the same frames again on a
// backend that is not timed, as a render draws, and returns that pass's figures too
// (SeedBench.Graph). The frame buffers are made before the timing, so the figures are the
// drawer's alone.
func BenchSeed(o Options, format string, frames int) (SeedBench, error) {
	return benchSeedAt(o, format, scene.SeedWidth, scene.SeedHeight, BenchWarmup, frames)
}

// benchSeedAt is BenchSeed on a w × h frame after warmup frames (tests draw small ones).
func benchSeedAt(o Options, format string, w, h, warmup, frames int) (SeedBench, error) {
	tracks := scene.Seed(w, h, warmup+frames)
	o.Backend.Timed = true
	timed, err := seedPass(o, format, w, h, tracks, warmup)
	if err != nil {
		return SeedBench{}, err
	}
	b := SeedBench{Width: w, Height: h, Frames: frames, Workers: timed.workers, Links: timed.links,
		TotalMS: Round3(Median(timed.totals)), AllocsPerFrame: timed.allocs}
	for st, v := range timed.stages {
		b.StagesMS[st] = Round3(Median(v))
	}
	if !timed.device {
		return b, nil
	}
	o.Backend.Timed = false
	graph, err := seedPass(o, format, w, h, tracks, warmup)
	if err != nil {
		return SeedBench{}, err
	}
	b.Graph = &GraphPass{TotalMS: Round3(Median(graph.totals)), AllocsPerFrame: graph.allocs, SamePicture: graph.picture == timed.picture}
	return b, nil
}

// seedFigures are one pass's: each frame's times after the warm-up, and what it drew.
type seedFigures struct {
	stages  [NumStages][]float64
	totals  []float64
	allocs  float64 // a frame
	links   int     // in the last frame
	workers int
	device  bool   // the backend is a DeviceFrames
	picture uint32 // the CRC-32 of the frame's samples after the last draw
}

// seedPass draws tracks onto a fresh mid-grey frame of format with a drawer of o's, the
// first warmup frames untimed.
func seedPass(o Options, format string, w, h int, tracks []scene.Frame, warmup int) (seedFigures, error) {
	d, err := New(o)
	if err != nil {
		return seedFigures{}, err
	}
	defer d.Close()
	df, device := d.Backend().(DeviceFrames)
	var f composite.Surface
	var y, uv []byte
	switch format {
	case FormatDevice:
		if !device {
			return seedFigures{}, ErrNoDeviceFrames
		}
		fr, err := df.NewDeviceNV12(w, h, 110, 128)
		if err != nil {
			return seedFigures{}, err
		}
		defer df.FreeDeviceNV12(fr)
		f = fr
	default:
		y, uv = bytes.Repeat([]byte{110}, w*h), bytes.Repeat([]byte{128}, w*h/2)
		f = &composite.YUV420P{Y: y, U: uv[:w*h/4], V: uv[w*h/4:], StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		if format == "nv12" {
			f = &composite.NV12{Y: y, UV: uv, StrideY: w, StrideUV: w, W: w, H: h}
		}
	}
	frames := len(tracks) - warmup
	// Preallocated, so that the measurement allocates nothing of its own.
	r := seedFigures{totals: make([]float64, 0, frames), workers: d.Backend().Workers(), device: device}
	for st := range r.stages {
		r.stages[st] = make([]float64, 0, frames)
	}
	var before, after runtime.MemStats
	for i := range tracks {
		if i == warmup {
			runtime.ReadMemStats(&before)
		}
		t0 := time.Now()
		if err := d.Draw(f, &tracks[i]); err != nil {
			return seedFigures{}, err
		}
		total := time.Since(t0)
		if i < warmup {
			continue
		}
		r.totals = append(r.totals, Milliseconds(total))
		tm := d.Timings()
		for st := range r.stages {
			r.stages[st] = append(r.stages[st], Milliseconds(tm[st]))
		}
	}
	runtime.ReadMemStats(&after)
	r.allocs = Round3(float64(after.Mallocs-before.Mallocs) / float64(frames))
	// Read after the count: a render never asks (it waits for the device).
	if r.links, err = d.Links(); err != nil {
		return seedFigures{}, err
	}
	if fr, ok := f.(*composite.DeviceNV12); ok {
		if y, uv, err = df.ReadDeviceNV12(fr); err != nil {
			return seedFigures{}, err
		}
	}
	r.picture = crc32.Update(crc32.ChecksumIEEE(y), crc32.IEEETable, uv)
	return r, nil
}

// BackendBench is what BenchBackend measured: medians over the frames timed.
type BackendBench struct {
	Frames, Workers int
	StageMS         float64 // the stage timed
	TotalMS         float64 // the whole Draw
	CPUMS           float64 // user and system time of all threads, a frame
	AllocsPerFrame  float64
}

// BenchBackend draws p onto fr with a fresh timed backend of o's, BenchWarmup times untimed
// and then frames times, and returns the median time of stage and of the whole draw, the
// CPU time of the draws and the allocations a frame. restore, when not nil, puts fr back as
// it was before each draw, untimed: an effect drawn again over its own result (a pixel
// sort over rows it sorted) would otherwise be timed on easier work than a video's frames.
func BenchBackend(o Options, fr composite.Surface, restore func(), p *Primitives, stage Stage, frames int) (BackendBench, error) {
	o.Backend.Timed = true
	be, err := o.NewBackend(o.Backend)
	if err != nil {
		return BackendBench{}, err
	}
	defer be.Close()
	stages, totals := make([]float64, 0, frames), make([]float64, 0, frames)
	var before, after runtime.MemStats
	var cpu time.Duration
	for i := range BenchWarmup + frames {
		if i == BenchWarmup {
			runtime.ReadMemStats(&before)
		}
		if restore != nil {
			restore()
		}
		cpu0, t0 := cputime.Self(), time.Now()
		if err := be.Draw(fr, p); err != nil {
			return BackendBench{}, err
		}
		if i >= BenchWarmup {
			totals = append(totals, Milliseconds(time.Since(t0)))
			stages = append(stages, Milliseconds(be.Timings()[stage]))
			cpu += cputime.Self() - cpu0
		}
	}
	runtime.ReadMemStats(&after)
	return BackendBench{Frames: frames, Workers: be.Workers(), StageMS: Round3(Median(stages)), TotalMS: Round3(Median(totals)),
		CPUMS: Round3(Milliseconds(cpu) / float64(frames)), AllocsPerFrame: Round3(float64(after.Mallocs-before.Mallocs) / float64(frames))}, nil
}

// EffectBenchFrame is a w × h YUV420P frame of a diagonal ramp, so that every effect
// changes something. Its rows are in order, the easiest work a pixel sort can have:
// EffectBenchGrainFrame is the effects benchmark's.
func EffectBenchFrame(w, h int) *composite.YUV420P {
	y, uv := make([]byte, w*h), make([]byte, w*h/2)
	for i := range y {
		y[i] = byte(16 + (i%w+i/w)%220)
	}
	for i := range uv {
		uv[i] = byte(64 + i%128)
	}
	return &composite.YUV420P{Y: y, U: uv[:w*h/4], V: uv[w*h/4:], StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
}

// EffectBenchGrainFrame is the effects benchmark's w × h YUV420P frame: EffectBenchFrame's
// ramp with uniform grain of ±6 code values (seeded, the same every time), so that, as in a
// video's frames, a pixel sort finds the ramp's runs out of order.
func EffectBenchGrainFrame(w, h int) *composite.YUV420P {
	f := EffectBenchFrame(w, h)
	rng := rand.New(rand.NewPCG(5, 6))
	for i, v := range f.Y {
		f.Y[i] = byte(min(max(int(v)+rng.IntN(13)-6, 0), 255))
	}
	return f
}

// Milliseconds is d in milliseconds, to the microsecond.
func Milliseconds(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Round3 keeps three decimals, so that JSON shows 2.528, not 2.5279999999999996.
func Round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// Median is the median of v (the mean of the middle two for an even count).
func Median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// EffectsBench is one row of bench --effects: an effect's stage time at 4K (the camera
// look's row: the camera stage's, over the whole frame), as JSON names its figures.
type EffectsBench struct {
	Effect         string  `json:"effect"`
	Strength       float32 `json:"strength"`
	Backend        string  `json:"backend"`
	Width          int     `json:"width"`
	Height         int     `json:"height"`
	Boxes          int     `json:"boxes"`
	Coverage       float64 `json:"coverage"`               // the fraction of the frame under the boxes
	Feather        float32 `json:"feather_px,omitempty"`   // EffectBox.Feather (--effect-feather)
	Opacity        float32 `json:"opacity"`                // 1 − EffectBox.Transparency (--effect-opacity); the camera's: 0
	SortOrder      string  `json:"sort_order,omitempty"`   // "descending": EffectBox.SortDescending (--sort-order)
	SortKey        string  `json:"sort_key,omitempty"`     // "saturation" or "hue": EffectBox.SortKey (--sort-key)
	SortMinRun     int32   `json:"sort_min_run,omitempty"` // EffectBox.SortMinRun (--sort-min-run)
	Frames         int     `json:"frames"`
	Workers        int     `json:"workers"`
	EffectsMS      float64 `json:"effects_median_ms"` // the effects stage
	TotalMS        float64 `json:"total_median_ms"`   // the whole Draw
	CPUMS          float64 `json:"cpu_ms_per_frame"`  // user+system time of all threads, per frame
	AllocsPerFrame float64 `json:"allocs_per_frame"`
}

// EffectsBenchWidth and EffectsBenchHeight are the frame BenchEffects draws onto.
const EffectsBenchWidth, EffectsBenchHeight = 3840, 2160

// BenchEffects times each box effect on a 3840×2160 YUV420P frame (EffectBenchGrainFrame,
// put back as it was before each draw), frames frames each: EffectBenchBoxes' 20 boxes over
// a tenth of the frame, nothing else drawn; and, last, the camera look of the cctv look
// over the whole frame, without a tint and then with one (camera-tint: lime, full). Where
// o's style feathers the effects (EffectFeather) or mixes them (EffectOpacity), each
// effect's row is followed by its twin's so drawn, timed in the same run; where it sorts
// descending (SortOrder), by another key (SortKey) or leaves short runs (SortMinRun), sort's
// row is (with the feather and opacity too), and only sort's. The rows' Backend is left to
// the caller.
func BenchEffects(o Options, frames int) ([]EffectsBench, error) {
	const w, h = EffectsBenchWidth, EffectsBenchHeight
	fr := EffectBenchGrainFrame(w, h)
	y, u, v := slices.Clone(fr.Y), slices.Clone(fr.U), slices.Clone(fr.V)
	restore := func() { copy(fr.Y, y); copy(fr.U, u); copy(fr.V, v) }
	var rows []EffectsBench
	// The plain boxes, and the style's feather, opacity and sort options where it gives them:
	// feather and opacity twin every effect, the sort options only sort's row (no other
	// effect reads them, and a twin would time noise under their name).
	type variant struct {
		feather, opacity  float32
		desc, key, minRun int32
	}
	st := o.Style
	desc, key := st.sortCodes()
	twin := variant{st.EffectFeather, st.EffectOpacity, desc, key, int32(st.SortMinRun)}
	mixed := twin.feather > 0 || twin.opacity != 1
	sorted := twin.desc != 0 || twin.key != SortLuma || twin.minRun > 0
	for _, name := range EffectNames() {
		kind, _ := ParseEffect(name)
		masks := []variant{{0, 1, 0, SortLuma, 0}}
		switch {
		case kind == EffectSort && (mixed || sorted):
			masks = append(masks, twin)
		case mixed:
			masks = append(masks, variant{twin.feather, twin.opacity, 0, SortLuma, 0})
		}
		for _, m := range masks {
			fx := EffectBenchBoxes(w, h, kind, 0)
			for i := range fx {
				fx[i].Feather, fx[i].Transparency, fx[i].SortDescending = m.feather, 1-m.opacity, m.desc
				fx[i].SortKey, fx[i].SortMinRun = m.key, m.minRun
			}
			row, err := benchEffect(o, fr, restore, &Primitives{Effects: fx}, StageEffects, frames)
			if err != nil {
				return nil, err
			}
			row.Effect, row.Strength, row.Boxes, row.Feather, row.Opacity = name, fx[0].Strength, len(fx), m.feather, m.opacity
			if m.desc != 0 {
				row.SortOrder = "descending"
			}
			if m.key != SortLuma {
				row.SortKey = SortKeys[m.key]
			}
			row.SortMinRun = m.minRun
			for _, e := range fx {
				row.Coverage += float64(e.W*e.H) / (w * h)
			}
			row.Coverage = Round3(row.Coverage)
			rows = append(rows, row)
		}
	}
	// The camera look over the whole frame, as the cctv look sets it (its stage, not the
	// stamp's label).
	cctv, _ := Preset("cctv")
	pass := cctv.ForHeight(h).Camera
	p := &Primitives{Camera: CameraPass{Scanlines: pass.Scanlines, Vignette: pass.Vignette,
		Aberration: pass.Aberration, Grain: pass.Grain, Seed: pass.Seed, Frame: 1}}
	for _, tint := range []bool{false, true} {
		p := *p
		name := "camera"
		if tint {
			p.Camera.Tint, p.Camera.TintStrength, name = [3]float32{0, 1, 0}, 1, "camera-tint"
		}
		row, err := benchEffect(o, fr, restore, &p, StageCamera, frames)
		if err != nil {
			return nil, err
		}
		row.Effect, row.Coverage = name, 1
		rows = append(rows, row)
	}
	return rows, nil
}

// benchEffect times p drawn onto fr (BenchBackend), stage being the effects' or the
// camera's, for a row of BenchEffects.
func benchEffect(o Options, fr composite.Surface, restore func(), p *Primitives, stage Stage, frames int) (EffectsBench, error) {
	b, err := BenchBackend(o, fr, restore, p, stage, frames)
	if err != nil {
		return EffectsBench{}, err
	}
	w, h := fr.Size()
	return EffectsBench{Width: w, Height: h, Frames: b.Frames, Workers: b.Workers, EffectsMS: b.StageMS, TotalMS: b.TotalMS,
		CPUMS: b.CPUMS, AllocsPerFrame: b.AllocsPerFrame}, nil
}
