package overlay

import (
	"math"
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
	TotalMS               float64 // a frame, all stages
	AllocsPerFrame        float64
}

// BenchWarmup is the frames a benchmark draws untimed first: every buffer reaches its
// steady size before the timing starts.
const BenchWarmup = 10

// BenchSeed draws the seed scene (scene.Seed, at its own size) onto a mid-grey frame of
// format (yuv420p or nv12) with options o, BenchWarmup frames untimed and then frames timed,
// and returns the median time of each stage and of a frame, and the allocations a frame.
// The frame buffers are made before the timing, so the figures are the drawer's alone.
func BenchSeed(o Options, format string, frames int) (SeedBench, error) {
	w, h := scene.SeedWidth, scene.SeedHeight
	d, err := New(o)
	if err != nil {
		return SeedBench{}, err
	}
	defer d.Close()
	tracks := scene.Seed(w, h, BenchWarmup+frames)
	y, uv := make([]byte, w*h), make([]byte, w*h/2)
	for i := range y {
		y[i] = 110
	}
	for i := range uv {
		uv[i] = 128
	}
	var f composite.Surface = &composite.YUV420P{Y: y, U: uv[:w*h/4], V: uv[w*h/4:], StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	if format == "nv12" {
		f = &composite.NV12{Y: y, UV: uv, StrideY: w, StrideUV: w, W: w, H: h}
	}
	// Preallocated, so that the measurement allocates nothing of its own.
	var stages [NumStages][]float64
	for st := range stages {
		stages[st] = make([]float64, 0, frames)
	}
	totals := make([]float64, 0, frames)
	var before, after runtime.MemStats
	links := 0
	for i := range BenchWarmup + frames {
		if i == BenchWarmup {
			runtime.ReadMemStats(&before)
		}
		t0 := time.Now()
		if err := d.Draw(f, &tracks[i]); err != nil {
			return SeedBench{}, err
		}
		total := time.Since(t0)
		if i < BenchWarmup {
			continue
		}
		if links, err = d.Links(); err != nil {
			return SeedBench{}, err
		}
		totals = append(totals, Milliseconds(total))
		tm := d.Timings()
		for st := range stages {
			stages[st] = append(stages[st], Milliseconds(tm[st]))
		}
	}
	runtime.ReadMemStats(&after)
	b := SeedBench{Width: w, Height: h, Frames: frames, Workers: d.Backend().Workers(), Links: links,
		TotalMS:        Round3(Median(totals)),
		AllocsPerFrame: Round3(float64(after.Mallocs-before.Mallocs) / float64(frames))}
	for st, v := range stages {
		b.StagesMS[st] = Round3(Median(v))
	}
	return b, nil
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
// CPU time and the allocations a frame.
func BenchBackend(o Options, fr composite.Surface, p *Primitives, stage Stage, frames int) (BackendBench, error) {
	o.Backend.Timed = true
	be, err := o.NewBackend(o.Backend)
	if err != nil {
		return BackendBench{}, err
	}
	defer be.Close()
	stages, totals := make([]float64, 0, frames), make([]float64, 0, frames)
	var before, after runtime.MemStats
	var cpu0 time.Duration
	for i := range BenchWarmup + frames {
		if i == BenchWarmup {
			runtime.ReadMemStats(&before)
			cpu0 = cputime.Self()
		}
		t0 := time.Now()
		if err := be.Draw(fr, p); err != nil {
			return BackendBench{}, err
		}
		if i >= BenchWarmup {
			totals = append(totals, Milliseconds(time.Since(t0)))
			stages = append(stages, Milliseconds(be.Timings()[stage]))
		}
	}
	cpu := cputime.Self() - cpu0
	runtime.ReadMemStats(&after)
	return BackendBench{Frames: frames, Workers: be.Workers(), StageMS: Round3(Median(stages)), TotalMS: Round3(Median(totals)),
		CPUMS: Round3(Milliseconds(cpu) / float64(frames)), AllocsPerFrame: Round3(float64(after.Mallocs-before.Mallocs) / float64(frames))}, nil
}

// EffectBenchFrame is the effects benchmark's w × h YUV420P frame: a diagonal ramp, so that
// every effect changes something.
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
