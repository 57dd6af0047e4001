// Package tracker finds objects in the frames of a video and follows them from frame to
// frame: trackink's built-in tracker (trackink track, render --detect).
//
// Each frame is analysed on its decoded planes as they are: the luma plane (and the chroma
// planes for colour), box-filtered down by the largest whole factor that keeps at least
// Options.AnalysisSize lines (plane.go), so that a 4K frame costs about what a 1080p one
// does. Detections come from one of the detectors: regions brighter or darker than the
// rest (regions.go), regions that move against a background model learned from the video
// (motion.go), saturated regions or regions near a hue (colour, regions.go), corners
// followed by pyramidal Lucas–Kanade (points.go, lk.go), or a trained network that finds
// objects by what they look like (Objects: Options.Detectors, package detect). They are
// scaled back to the frame's resolution and associated with the tracks one to one
// (associate.go: the Hungarian method on overlap and distance, gated by a maximum move),
// each track smoothed by a constant-velocity Kalman filter (kalman.go).
//
// A Tracker works on its caller's goroutine, but for Objects with several detectors, which
// detect frames ahead, each on a goroutine of its own (Ahead, Next, Push). It allocates
// nothing per frame once its buffers have grown, and its output is the same, byte for byte,
// run after run, whatever else runs beside it and however many detectors it has.
// Its inner loops (the downscale, the pyramid, Lucas–Kanade's windows, the corner
// strengths, the motion background, the morphology) have AVX2 twins in simd_amd64.s
// that give the Go loops' values to the bit, integers and float32 alike (no FMA), so the
// tracks do not depend on the CPU either; the tests compare the two. The Go code itself
// rounds each product on its own where a sum takes it (float64(a*b) + c): Go fuses a*b + c
// into one multiply-add on arm64 and with GOAMD64=v3, which rounds once, and moved points by
// up to 0.002 px against the amd64 build. (What is left fused multiplies by a power of two,
// exactly, so the result is the same.)
package tracker

import (
	"math"
	"slices"
	"strings"

	"trackink/detect"
	"trackink/internal/field"
)

// Detection modes.
const (
	Bright = "bright"
	Dark   = "dark"
	Motion = "motion"
	Color  = "color"
	Points = "points"
	// Objects takes its detections from Options.Detectors: a trained network that finds
	// objects in each frame by what they look like, moving or not (package detect).
	Objects = "objects"
)

// Modes lists the detection modes.
var Modes = []string{Bright, Dark, Motion, Color, Points, Objects}

// A Detector finds objects in one frame's analysis planes (package detect's Network).
type Detector interface {
	Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error)
}

// Point seeds: the map the points modes seed new points on (Options.PointSeed). Every seed
// is then followed alike, by Lucas–Kanade on the luma (points.go).
const (
	// SeedCorners: Shi–Tomasi corners, the points Lucas–Kanade follows best.
	SeedCorners = "corners"
	// SeedEdges: the Scharr gradient magnitude of the luma: points along strong edges, a
	// plexus that traces outlines (the pack's Exploratory Luma).
	SeedEdges = "edges"
	// SeedColor: the chroma's distance from grey (RGB's max − min, HSV's saturation ×
	// value): points in colourful areas (the pack's Chroma Density).
	SeedColor = "color"
	// SeedColorEdges: the Scharr gradient magnitude of the chroma: points on colour
	// boundaries, where the hue or the saturation changes (the pack's Color Hunter).
	SeedColorEdges = "color-edges"
)

// PointSeeds lists the point seeds.
var PointSeeds = []string{SeedCorners, SeedEdges, SeedColor, SeedColorEdges}

// Auto marks Options.Threshold and Options.Hue as unset: the threshold is chosen from each
// frame, and colour takes any saturated region.
const Auto = -1

// Options configures a Tracker. DefaultOptions gives each mode's defaults.
type Options struct {
	Mode string // Bright, Dark, Motion, Color or Points
	// AnalysisSize is the fewest lines the analysed planes keep: a taller frame is
	// box-filtered by the largest whole factor that leaves at least this many.
	AnalysisSize int
	// Threshold overrides the automatic threshold, in 8-bit levels: luma for Bright and
	// Dark, the background difference for Motion, the chroma distance from grey for Color,
	// the corner strength for Points (or with another PointSeed, its map's value: the
	// gradient magnitude in levels a pixel, the chroma's distance from grey). Auto chooses it.
	Threshold float64
	// Sensitivity, 0..1, moves the automatic threshold: higher finds fainter objects.
	Sensitivity float64
	// MinArea and MaxArea bound a region's area, as fractions of the frame's.
	MinArea, MaxArea float64
	// MaxObjects bounds the detections a frame keeps (the largest regions, the strongest
	// corners) and, for Points, the points tracked at once.
	MaxObjects int
	// Hue, in degrees (0 red, 120 green, 240 blue), makes Color take regions near that hue;
	// Auto takes any saturated region.
	Hue float64
	// MaxMove is the farthest a track's centre may move from its prediction between two
	// frames and still be matched, as a fraction of the frame's diagonal.
	MaxMove float64
	// Confirm is the frames in a row a new object must be detected before it becomes a
	// track and gets an id.
	Confirm int
	// Grace is the frames a track that is no longer detected is predicted before it ends.
	Grace int
	// Smooth, 0..1, smooths positions and sizes: 0 keeps each detection as it is, 1
	// follows the filter's prediction most.
	Smooth float64
	// Detectors find the objects for Objects, each in one frame at a time; they are the
	// caller's, who closes them. Step uses one. With more than one, Ahead (and Push)
	// detects as many frames at once, each detector on a goroutine of its own (ahead.go).
	Detectors []Detector
	// StartScore is the detector's score (0..1) a box needs to start a track; boxes below it
	// only continue tracks (Objects). ByteTrack's rule: boxes the network is unsure of
	// follow an object through an occlusion but do not make one.
	StartScore float64
	// PointSeed is what Points seeds new points on: one of PointSeeds.
	PointSeed string
	// PointSize is the side, in pixels, of the box a tracked point is written as where
	// only boxes can be (MOTChallenge text).
	PointSize float64
}

// DefaultOptions returns mode's default options.
func DefaultOptions(mode string) Options {
	o := Options{Mode: mode, AnalysisSize: 540, Threshold: Auto, Sensitivity: 0.5,
		MinArea: 0.0002, MaxArea: 0.25, MaxObjects: 100, Hue: Auto,
		MaxMove: 0.05, Confirm: 2, Grace: 8, Smooth: 0.3, PointSeed: SeedCorners, PointSize: 8}
	if mode == Objects {
		// A detector's boxes are whole objects, none too big to be one; a box under 1/500
		// of the frame is under about 16 × 16 px at the network's input, where its boxes
		// are unreliable. An id may survive a second or so of occlusion.
		o.MinArea, o.MaxArea, o.Grace, o.StartScore = 0.002, 1, 15, 0.6
	}
	if mode == Points {
		o.MaxObjects = 200
		o.MaxMove = 0.02
		o.Confirm = 1
		o.Grace = 0
		o.Smooth = 0
	}
	return o
}

// Validate reports the first option out of range as a *field.Error.
func (o Options) Validate() error {
	const p = "tracker.Options."
	switch {
	case !slices.Contains(Modes, o.Mode):
		return field.Errorf(p+"Mode", o.Mode, "must be one of %v", Modes)
	case o.AnalysisSize < 16 || o.AnalysisSize > 8192:
		return field.Errorf(p+"AnalysisSize", o.AnalysisSize, "must be 16..8192 lines")
	case o.Threshold != Auto && !(o.Threshold >= 0 && o.Threshold <= 255):
		return field.Errorf(p+"Threshold", o.Threshold, "must be 0..255 (8-bit levels), or -1 for automatic")
	case !(o.Sensitivity >= 0 && o.Sensitivity <= 1):
		return field.Errorf(p+"Sensitivity", o.Sensitivity, "must be 0..1")
	case !(o.MinArea >= 0 && o.MinArea < 1):
		return field.Errorf(p+"MinArea", o.MinArea, "must be a fraction of the frame, 0 up to 1")
	case !(o.MaxArea > 0 && o.MaxArea <= 1):
		return field.Errorf(p+"MaxArea", o.MaxArea, "must be a fraction of the frame, above 0 and at most 1")
	case o.MaxArea <= o.MinArea:
		return field.Errorf(p+"MaxArea", o.MaxArea, "must be above --min-area (%g)", o.MinArea)
	case o.MaxObjects < 1 || o.MaxObjects > 10000:
		return field.Errorf(p+"MaxObjects", o.MaxObjects, "must be 1..10000")
	case o.Hue != Auto && !(o.Hue >= 0 && o.Hue < 360):
		return field.Errorf(p+"Hue", o.Hue, "must be 0..360 degrees (0 red, 120 green, 240 blue), or -1 for any saturated colour")
	case !(o.MaxMove > 0 && o.MaxMove <= 1):
		return field.Errorf(p+"MaxMove", o.MaxMove, "must be a fraction of the frame's diagonal, above 0 and at most 1")
	case o.Confirm < 1 || o.Confirm > 100:
		return field.Errorf(p+"Confirm", o.Confirm, "must be 1..100 frames")
	case o.Grace < 0 || o.Grace > 1000:
		return field.Errorf(p+"Grace", o.Grace, "must be 0..1000 frames")
	case !(o.Smooth >= 0 && o.Smooth <= 1):
		return field.Errorf(p+"Smooth", o.Smooth, "must be 0..1")
	case !(o.StartScore >= 0 && o.StartScore <= 1):
		return field.Errorf(p+"StartScore", o.StartScore, "must be 0..1")
	case !slices.Contains(PointSeeds, o.PointSeed):
		return field.Errorf(p+"PointSeed", o.PointSeed, "must be one of %s", strings.Join(PointSeeds, ", "))
	case !(o.PointSize > 0 && o.PointSize <= 1000):
		return field.Errorf(p+"PointSize", o.PointSize, "must be above 0 and at most 1000 px")
	}
	return nil
}

// Preset is a named starting point for --detect: a mode and the options that suit one kind
// of footage.
type Preset struct {
	Name, About string
	Options     Options
	// Classes are the detector's classes a preset of mode Objects keeps, by name
	// ("person"); none: every class.
	Classes []string
}

// Presets lists the named presets, modes first (each mode is a preset of its defaults).
func Presets() []Preset {
	with := func(mode string, f func(*Options)) Options {
		o := DefaultOptions(mode)
		f(&o)
		return o
	}
	return []Preset{
		{Name: Bright, About: "regions brighter than the rest of the frame (lights, stage performers, sparks on dark footage)", Options: DefaultOptions(Bright)},
		{Name: Dark, About: "regions darker than the rest of the frame (silhouettes against the sky, birds, ink on paper)", Options: DefaultOptions(Dark)},
		{Name: Motion, About: "whatever moves against a background learned from the video itself (a fixed camera: people, cars); what stops is lost", Options: DefaultOptions(Motion)},
		{Name: Color, About: "saturated regions, or with --hue those near one colour (balls, markers, clothing)", Options: DefaultOptions(Color)},
		{Name: Points, About: "corners followed frame to frame by optical flow (texture, faces, a moving camera's scene)", Options: DefaultOptions(Points)},
		{Name: Objects, About: "objects of the 80 COCO classes found by a trained network (YOLOX-Nano) in each frame, moving or still, whatever the camera does (--classes chooses)", Options: DefaultOptions(Objects)},
		{Name: "people", About: "people found by the trained network in each frame, walking or standing, from a fixed or a moving camera", Options: DefaultOptions(Objects),
			Classes: []string{"person"}},
		{Name: "lights", About: "many small bright spots (fireflies, bokeh, city lights): small regions, quick ids", Options: with(Bright, func(o *Options) {
			o.MinArea, o.MaxArea, o.MaxObjects, o.Confirm = 0.00002, 0.01, 300, 1
		})},
		{Name: "dense-points", About: "up to 500 closely spaced corners for a dense plexus of points", Options: with(Points, func(o *Options) {
			o.MaxObjects = 500
		})},
	}
}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames lists the presets' names.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// smoothRatio is the Kalman filter's measurement-to-process noise ratio for Smooth: 0 at 0
// (the measurement as it is), about 31 at the middle, 1000 at 1.
func smoothRatio(s float64) float64 { return math.Pow(10, 3*s) - 1 }
