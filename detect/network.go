package detect

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// InputSize is the side of YOLOX-Nano's square input, as exported and trained: the longer
// side of the picture in the network's input.
const InputSize = 416

// inputRound is what the input's sides are rounded up to: the network's coarsest stride.
const inputRound = 32

// ModelSHA256 is the sha256 of the YOLOX-Nano export trackink is tested with (models/README.md
// beside the project; YOLOX's releases).
const ModelSHA256 = "695e750a5d5754bb5a8d5325643b59282191a7e7a564e435a415fd3c578eab14"

// Options configures a Network.
type Options struct {
	// Model is the ONNX file's path; empty: Locate's search.
	Model string
	// Runtime is ONNX Runtime's shared library; empty: LocateRuntime's search.
	Runtime string
	// Classes are the class indices kept (Classes' order); none: every class.
	Classes []int
	// MinScore is the lowest score a detection is kept at, 0..1.
	MinScore float64
	// IoU is non-maximum suppression's limit: a box that overlaps a better one of its class
	// by more than this is dropped.
	IoU float64
	// CrossIoU is its limit between classes: a box that overlaps a better one of another
	// class by more than this is the same object read as another class, and is dropped.
	CrossIoU float64
	// Threads is the runtime's threads for one frame; 0: one per CPU the process may use
	// (GOMAXPROCS).
	Threads int
}

// DefaultOptions is the detector's operating point: boxes from score 0.1, ByteTrack's low
// threshold (boxes under 0.6 continue tracks but start none: tracker.Options.StartScore),
// YOLOX's non-maximum suppression limit, IoU 0.45, and between classes IoU 0.7; every
// class. At IoU above 0.7 each box covers more than 70 % of the other: one object's box,
// not two objects that overlap, such as a rider and the bicycle or horse under them (IoU
// about 0.4 from the side, 0.6 head-on) or a person and their backpack.
func DefaultOptions() Options { return Options{MinScore: 0.1, IoU: 0.45, CrossIoU: 0.7} }

// Network is YOLOX-Nano loaded into ONNX Runtime, with its input and output buffers. It is
// not safe for use by several goroutines at once.
type Network struct {
	// The model as read, its input's and output's names, and the runtime's threads: a
	// session is made for the input size the frames need (prepare).
	model           []byte
	inName, outName string
	threads         int
	session         *ort.AdvancedSession
	in, out         *ort.Tensor[float32]
	lb              letterbox
	dec             decoder
	// Notes are what a user should know about the files used: a model that is not the
	// tested one. Empty when nothing is worth saying.
	Notes []string
	// Model and Runtime are the paths used.
	Model, Runtime string
}

// The runtime is one environment per process, set up by the first Network and kept.
var (
	envOnce sync.Once
	envErr  error
	envLib  string
)

func initRuntime(lib string) error {
	// Refused before dlopen: a library loaded stays loaded, and its failure stays the
	// process's (envOnce).
	if err := checkRuntimeLibrary(lib); err != nil {
		return fmt.Errorf("detect: ONNX Runtime %s: %w; get %s", lib, err, runtimeSource)
	}
	envOnce.Do(func() {
		ort.SetSharedLibraryPath(lib)
		envLib = lib
		if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
			envErr = runtimeLoadError(lib, err)
		}
	})
	if envErr == nil && lib != envLib {
		return fmt.Errorf("detect: ONNX Runtime is already loaded from %s, not %s", envLib, lib)
	}
	return envErr
}

// ModelDigest is the hex sha256 of the model file at path, as New reads it: ModelSHA256 for
// the YOLOX-Nano export trackink is tested with (doctor's verdict, without loading it).
func ModelDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// New loads the model into the runtime, checks its input and output shapes and reads its
// sha256.
func New(o Options) (*Network, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	model, err := LocateModel(o.Model)
	if err != nil {
		return nil, err
	}
	lib, err := LocateRuntime(o.Runtime)
	if err != nil {
		return nil, err
	}
	n := &Network{Model: model, Runtime: lib}
	// Read once: hashed here, and handed to the runtime as it is.
	data, err := readModel(model)
	if err != nil {
		return nil, fmt.Errorf("detect: model %s: %w", model, err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != ModelSHA256 {
		n.Notes = append(n.Notes, fmt.Sprintf("model %s has sha256 %s, not the YOLOX-Nano export trackink is tested with (%s)", model, got, ModelSHA256))
	}
	if err := initRuntime(lib); err != nil {
		return nil, err
	}
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(data)
	if err != nil {
		return nil, fmt.Errorf("detect: model %s: ONNX Runtime cannot load it as a model: %w", model, err)
	}
	rows := cells(InputSize, InputSize)
	wantIn, wantOut := ort.NewShape(1, 3, InputSize, InputSize), ort.NewShape(1, int64(rows), int64(5+len(Classes)))
	if len(ins) != 1 || len(outs) != 1 || !slices.Equal(ins[0].Dimensions, wantIn) || !slices.Equal(outs[0].Dimensions, wantOut) {
		return nil, fmt.Errorf("detect: model %s takes %v and gives %v; YOLOX-Nano takes one input %v and gives one output %v", model, infoShapes(ins), infoShapes(outs), wantIn, wantOut)
	}
	n.model, n.inName, n.outName = data, ins[0].Name, outs[0].Name
	n.threads = o.Threads
	if n.threads == 0 {
		n.threads = runtime.GOMAXPROCS(0)
	}
	n.lb = letterbox{size: InputSize, round: inputRound}
	n.dec = decoder{classes: len(Classes), wanted: make([]bool, len(Classes)),
		minScore: float32(o.MinScore), iou: float32(o.IoU), crossIoU: float32(o.CrossIoU)}
	for c := range n.dec.wanted {
		n.dec.wanted[c] = len(o.Classes) == 0 || slices.Contains(o.Classes, c)
	}
	return n, nil
}

// Clone returns another Network of the same model, files and options, for another goroutine:
// the model as New read and checked it, with a session and buffers of its own (made at its
// first Detect).
func (n *Network) Clone() *Network {
	return &Network{model: n.model, inName: n.inName, outName: n.outName, threads: n.threads,
		lb: letterbox{size: n.lb.size, round: n.lb.round},
		dec: decoder{classes: n.dec.classes, wanted: n.dec.wanted, minScore: n.dec.minScore,
			iou: n.dec.iou, crossIoU: n.dec.crossIoU},
		Notes: n.Notes, Model: n.Model, Runtime: n.Runtime}
}

// prepare makes the session and its buffers for a w × h input, the model's declared shapes
// made that size (sizedModel).
func (n *Network) prepare(w, h int) error {
	n.Close()
	model, err := sizedModel(n.model, n.inName, n.outName, w, h)
	if err != nil {
		return fmt.Errorf("detect: %s: %w", n.Model, err)
	}
	in, out := ort.NewShape(1, 3, int64(h), int64(w)), ort.NewShape(1, int64(cells(w, h)), int64(5+len(Classes)))
	if n.in, err = ort.NewEmptyTensor[float32](in); err != nil {
		return fmt.Errorf("detect: %w", err)
	}
	if n.out, err = ort.NewEmptyTensor[float32](out); err != nil {
		n.Close()
		return fmt.Errorf("detect: %w", err)
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		n.Close()
		return fmt.Errorf("detect: %w", err)
	}
	defer so.Destroy()
	// The runtime's threads spin between runs by default. A tracker runs the network once a
	// frame, and a render decodes and encodes beside it: spinning threads would take the
	// cores those need (render --detect on vtest.avi: 53 s of CPU with spinning, 36 s
	// without, in the same wall time or less).
	if err := errors.Join(so.SetIntraOpNumThreads(n.threads), so.SetInterOpNumThreads(1),
		so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0")); err != nil {
		n.Close()
		return fmt.Errorf("detect: %w", err)
	}
	n.session, err = ort.NewAdvancedSessionWithONNXData(model, []string{n.inName}, []string{n.outName},
		[]ort.Value{n.in}, []ort.Value{n.out}, so)
	if err != nil {
		n.Close()
		return fmt.Errorf("detect: model %s at %dx%d: %w", n.Model, w, h, err)
	}
	n.dec.w, n.dec.h = w, h
	return nil
}

// readModel reads the model file whole, refusing one larger than MaxModelSize before
// reading any of it; it reads the size it found, which a file that grows meanwhile cannot
// push past the limit.
func readModel(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.Unwrap(err) // the path is in the message already
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	if err := checkModelSize(st.Size()); err != nil {
		return nil, err
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading it: %w", err)
	}
	return data, nil
}

func infoShapes(infos []ort.InputOutputInfo) []string {
	var s []string
	for _, i := range infos {
		s = append(s, i.Name+i.Dimensions.String())
	}
	return s
}

func (o Options) validate() error {
	switch {
	case !(o.MinScore > 0 && o.MinScore < 1):
		return fmt.Errorf("detect: minimum score %g: must be above 0 and below 1", o.MinScore)
	case !(o.IoU > 0 && o.IoU <= 1):
		return fmt.Errorf("detect: IoU limit %g: must be above 0 and at most 1", o.IoU)
	case !(o.CrossIoU > 0 && o.CrossIoU <= 1):
		return fmt.Errorf("detect: IoU limit between classes %g: must be above 0 and at most 1", o.CrossIoU)
	case o.Threads < 0 || o.Threads > 1024:
		return fmt.Errorf("detect: %d threads: must be 0 (one per CPU) to 1024", o.Threads)
	}
	for _, c := range o.Classes {
		if c < 0 || c >= len(Classes) {
			return fmt.Errorf("detect: class %d: must be 0..%d", c, len(Classes)-1)
		}
	}
	return nil
}

// Detect appends to dst the objects the network finds in im, best first.
func (n *Network) Detect(dst []Detection, im *Image) ([]Detection, error) {
	if err := im.check(); err != nil {
		return dst, err
	}
	n.lb.fit(im.W, im.H)
	if n.session == nil || n.dec.w != n.lb.iw || n.dec.h != n.lb.ih {
		if err := n.prepare(n.lb.iw, n.lb.ih); err != nil {
			return dst, err
		}
	}
	scale, err := n.lb.fill(n.in.GetData(), im)
	if err != nil {
		return dst, err
	}
	if err := n.session.Run(); err != nil {
		return dst, fmt.Errorf("detect: %w", err)
	}
	return n.dec.decode(dst, n.out.GetData(), scale, im.W, im.H), nil
}

// Close frees the session and its buffers (a Detect after it makes them again); the
// runtime stays loaded for the next Network.
func (n *Network) Close() {
	if n.session != nil {
		n.session.Destroy()
		n.session = nil
	}
	if n.in != nil {
		n.in.Destroy()
		n.in = nil
	}
	if n.out != nil {
		n.out.Destroy()
		n.out = nil
	}
}

// Check loads the runtime and the model as New does, makes a session at the smallest input
// (one cell of the coarsest grid) and runs it once: what --detect people would find wrong
// with the files, found in a fraction of a second (doctor). New alone parses the model's
// declared inputs and outputs only; a session reads its whole graph.
func Check(o Options) error {
	n, err := New(o)
	if err != nil {
		return err
	}
	defer n.Close()
	if err := n.prepare(inputRound, inputRound); err != nil {
		return err
	}
	if err := n.session.Run(); err != nil {
		return fmt.Errorf("detect: model %s: %w", n.Model, err)
	}
	return nil
}
