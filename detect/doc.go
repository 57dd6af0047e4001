// Package detect finds objects in single frames with a trained network: YOLOX-Nano
// (Megvii, Apache-2.0; 80 COCO classes), run by ONNX Runtime (Microsoft, MIT), which is loaded
// as a shared library when the first Network is made (github.com/yalue/onnxruntime_go). It is
// the detector behind trackink's --detect people and --detect objects: the tracker (package
// tracker) associates its boxes from frame to frame.
//
// A frame reaches the network as YOLOX's own preprocessing makes it (its ValTransform),
// but for the padding: scaled to 416 on its longer side into the top-left corner, B'G'R'
// samples 0..255 as floats, channel-major, not normalised, and padded with 114 only up to
// the next multiple of 32 on each side (the network's coarsest stride), not to YOLOX's
// 416 × 416 square. A 16:9 frame is run at 416 × 256, 4:3 at 416 × 320: the network's
// cost is in proportion to its input's area, and its graph holds no size of its own, so
// the model's declared shapes are rewritten for the size when its session is made
// (model.go). Here the frame's Y'CbCr planes are resampled first, with a triangle filter
// widened to the scale (so a 4K frame is averaged, not aliased), and converted to R'G'B'
// after, which is the same affine map in the other order (letterbox.go).
//
// The network's output is one row per cell of three grids (strides 8, 16 and 32: 52², 26²
// and 13² cells at 416 × 416), the grids in that order and each row by row: the box's centre
// as an offset in cells, its size as the log of strides, an objectness and 80 class
// probabilities. A box's score for a class is objectness × probability, as YOLOX's
// postprocess computes it; each cell keeps its best class among those asked for, and
// non-maximum suppression removes the boxes that overlap a better one of the same class by
// more than the IoU limit, or a better one of another class by more than a higher limit,
// 0.7: one object read as two classes, a van as a car and as a truck, gets one box
// (decode.go).
//
// Where the files are: the model and the runtime library are looked for in a fixed order,
// and an error says every place looked at and where to get the file (locate.go). The runtime
// library found is checked to be a whole ELF shared library for this machine before dlopen
// sees it, which crashes the process on a truncated one, and then to be ONNX Runtime's (no
// program, and it defines OrtGetApiBase), which dlopen would load and run the initialisers
// of before failing (library.go). Check does what New and a frame would, on the smallest
// input, for doctor. The
// model's input and output shapes are checked when it is loaded; its sha256 is compared with
// the file trackink is tested with and a different one is reported, not refused.
package detect
