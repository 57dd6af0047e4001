package goldens

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"sync"

	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
)

// Footage is the real footage that scenes with a Footage frame draw on: OpenCV's vtest.avi,
// pedestrians in a mall, 768 × 576 Y'CbCr 4:2:0 (Debian package opencv-doc, which
// scripts/setup.sh installs; the clip is never committed). Its frames are decoded by the
// ffmpeg program into raw YUV420P, with no scaling or conversion, so the backdrop is the
// decoder's exact output and the overlay is composited in Y'CbCr as in a render; the
// picture is then converted to RGB for the PNG (BT.601, limited range, as the clip is).
// TRACKINK_FOOTAGE names another copy of it (or, naming nothing, skips those scenes: the
// GPU kit carries neither the clip nor their pictures).
var Footage = cmp.Or(os.Getenv("TRACKINK_FOOTAGE"), "/usr/share/doc/opencv-doc/examples/data/vtest.avi")

// footageTracks are the tracks of Footage's first 240 frames that footage scenes draw:
// trackink's own, `trackink track --detect people --end 240` (YOLOX-Nano boxes of class
// person with their scores, followed by its tracker), the first 240 frames of
// docs/gallery/vtest.jsonl; boxes with their bottom centres as points. Embedded, so that
// `trackink golden` needs only the clip.
//
//go:embed testdata/vtest-tracks.jsonl
var footageTracks []byte

// footageW and footageH are Footage's frame size.
const footageW, footageH = 768, 576

var footageFrames sync.Map // frame number → []byte, YUV420P

// FootageTolerance is Tolerance for scenes on footage, whose pictures are Y'CbCr converted
// to RGB: a difference of one code value in each of Y', Cb and Cr (what the emulated device
// or another architecture may differ by, as on any Y'CbCr frame) moves R' by up to 1.164 +
// 1.596 = 2.76 code values, and the two roundings by one more.
const FootageTolerance = 4

// tolerance is the largest channel difference scene s passes with.
func (s Scene) tolerance() int {
	if s.Footage > 0 {
		return FootageTolerance
	}
	return Tolerance
}

// FootageFrame returns a copy of frame n (1-based) of Footage as a YUV420P surface (BT.601,
// limited range).
func FootageFrame(n int) (*composite.YUV420P, error) {
	raw, ok := footageFrames.Load(n)
	if !ok {
		if _, err := os.Stat(Footage); err != nil {
			return nil, fmt.Errorf("this scene draws on %s: install Debian's opencv-doc (scripts/setup.sh does): %w", Footage, err)
		}
		var out, stderr bytes.Buffer
		cmd := exec.Command("ffmpeg", "-v", "error", "-nostdin", "-i", Footage, "-vf", "select=eq(n\\,"+strconv.Itoa(n-1)+")",
			"-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-")
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("decoding frame %d of %s: %v: %s", n, Footage, err, stderr.Bytes())
		}
		if out.Len() != footageW*footageH*3/2 {
			return nil, fmt.Errorf("frame %d of %s: %d bytes, want a %d×%d YUV420P frame", n, Footage, out.Len(), footageW, footageH)
		}
		raw, _ = footageFrames.LoadOrStore(n, out.Bytes())
	}
	b := bytes.Clone(raw.([]byte))
	y, c := footageW*footageH, footageW*footageH/4
	return &composite.YUV420P{Y: b[:y], U: b[y : y+c], V: b[y+c:], StrideY: footageW, StrideU: footageW / 2, StrideV: footageW / 2,
		W: footageW, H: footageH, Matrix: composite.BT601, Range: composite.Limited}, nil
}

// renderOnFootage draws scene s onto its Footage frame and returns the picture in RGB.
func renderOnFootage(s Scene, workers int, newBackend overlay.NewBackend) (*image.RGBA, error) {
	if s.Width != footageW || s.Height != footageH {
		return nil, fmt.Errorf("a footage scene is %d×%d, not %d×%d", footageW, footageH, s.Width, s.Height)
	}
	f, err := FootageFrame(s.Footage)
	if err != nil {
		return nil, err
	}
	if err := DrawOn(s, f, workers, newBackend); err != nil {
		return nil, err
	}
	return yuvToRGBA(f)
}

// yuvToRGBA is frame f as a picture: composite.ToRGBA, the preview's conversion (the
// inverse of the frame's own matrix and range).
func yuvToRGBA(f *composite.YUV420P) (*image.RGBA, error) {
	c, err := composite.ToRGBA(f)
	if err != nil {
		return nil, err
	}
	return &image.RGBA{Pix: c.Pix, Stride: c.Stride, Rect: image.Rect(0, 0, c.W, c.H)}, nil
}

// footageScene draws frame `frame` of the footage tracks in a built-in look changed by edit
// (nil for none), after the frames before it (for the trails and the links' hysteresis),
// with the k = 3 link graph within the look's reach, as a render of the clip would.
func footageScene(look string, edit func(*overlay.Style), frame int) func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	return func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
		b, g, err := lookBuilder(look, edit, font, w, h)
		if err != nil {
			return err
		}
		defer g.Close()
		tr, err := scene.Read(bytes.NewReader(footageTracks), "vtest-tracks.jsonl", scene.FormatJSONL, scene.Options{})
		if err != nil {
			return err
		}
		var f scene.Frame
		for n := 1; n <= frame; n++ {
			tr.Frame(n, &f)
			f.Index = n
			edges, err := g.Update(f.Points)
			if err != nil {
				return err
			}
			b.Build(p, &f, edges)
		}
		if len(p.Boxes)+len(p.Lines) == 0 {
			return errors.New("the footage tracks draw nothing at this frame")
		}
		return nil
	}
}
