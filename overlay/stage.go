package overlay

import "time"

// Stage is one step of drawing a frame's overlay. The stages and their order are written
// here once; the CPU renderer (package render), the CUDA kernels' host code (package
// kernels/gpu, which times each run of one stage's kernels and adds a stage's runs), the
// benchmark and --stats-json all take them from this table.
type Stage int

// The stages, in the order they run. Links runs in the Drawer (the link graph, on the
// host), or in a Backend that builds the links itself (LinkBackend: the link kernels); the
// others in the Backend: binning, the box effects on the frame (effects.go), then per tile
// boxes, lines, curves, the echo trails (echo.go: the frame's layer kept, the kept layers
// of the frames before laid under it), labels and composite (with any blend but over the overlay
// is composited before the labels too, and the labels over it after), and last the camera
// look over the whole frame (camera.go). (The effects follow binning so that a device frame
// whose bin lists overflowed, which the device draws again, is changed once.) render's
// stage files and the kernels' .cu files carry the same names.
const (
	StageLinks Stage = iota
	StageBin
	StageEffects
	StageBoxes
	StageLines
	StageCurves
	StageEcho
	StageLabels
	StageComposite
	StageCamera
	NumStages
)

var stageNames = [NumStages]string{"links", "bin", "effects", "boxes", "lines", "curves", "echo", "labels", "composite", "camera"}

func (s Stage) String() string { return stageNames[s] }

// Stages returns every stage in order.
func Stages() []Stage {
	s := make([]Stage, NumStages)
	for i := range s {
		s[i] = Stage(i)
	}
	return s
}

// Timings are the time one frame spent per stage. A backend's stages that run on several
// workers at once report the summed time of all workers divided by the number of workers,
// so that the stages add up to the wall time of the draw.
type Timings [NumStages]time.Duration

// Add adds u to t, stage by stage.
func (t *Timings) Add(u Timings) {
	for s := range t {
		t[s] += u[s]
	}
}
