package video

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/asticode/go-astiav"
)

// Rotated video. A phone stores its picture as the sensor reads it and says in the stream's
// display matrix how to turn it for display. Trackers read frames as displayed (FFmpeg's
// player and CLI, and OpenCV's FFmpeg reader, turn them), so by default the DrawFunc gets
// each frame turned the same way and draws in those coordinates, labels upright; the frame
// is turned back before it is encoded, and the output keeps the input's display matrix, so
// it plays exactly as the input did (players that ignore the matrix show both sideways).
// Turning the overlay's coordinates instead would leave the labels sideways on playback.

// Orientation is the orientation the DrawFunc draws in when the video carries a rotation.
type Orientation int

const (
	// Displayed hands the DrawFunc each frame as players show it: a 1080×1920 portrait
	// frame for a phone's 1920×1080 stored one with a 90° matrix. The default.
	Displayed Orientation = iota
	// Stored hands the DrawFunc frames as they are coded, for tracks taken from the stored
	// frames.
	Stored
)

func (o Orientation) String() string {
	switch o {
	case Displayed:
		return "display"
	case Stored:
		return "stored"
	}
	return "Orientation(" + strconv.Itoa(int(o)) + ")"
}

// ParseOrientation reads "display" or "stored".
func ParseOrientation(s string) (Orientation, error) {
	switch s {
	case "display", "displayed":
		return Displayed, nil
	case "stored":
		return Stored, nil
	}
	return Displayed, fmt.Errorf("%q: want display or stored", s)
}

// turn is how a stored frame becomes the displayed one: the filters FFmpeg 5.1's player and
// CLI insert for the stream's display matrix (autorotate in fftools), and their inverse.
type turn struct {
	toDisplay, toStored string // libavfilter chains; both "" when the matrix turns nothing
	degrees             int    // clockwise, for messages
	swaps               bool   // width and height trade places
}

// streamTurn reads the video stream's display matrix. A matrix FFmpeg itself does not undo
// exactly (an angle that is not a multiple of 90°) is reported as an error and not undone.
func streamTurn(vs *astiav.Stream) (turn, error) {
	sd := vs.SideData(astiav.PacketSideDataTypeDisplaymatrix)
	m, err := astiav.NewDisplayMatrixFromBytes(sd)
	if err != nil {
		return turn{}, nil // no matrix
	}
	var e [9]int32 // the matrix's entries, signed
	for i := range e {
		e[i] = int32(binary.LittleEndian.Uint32(sd[4*i:]))
	}
	// fftools' get_rotation: the clockwise angle, rounded, in [0, 360).
	theta := math.Round(m.Rotation())
	if math.IsNaN(theta) {
		return turn{}, nil // a degenerate matrix
	}
	theta -= 360 * math.Floor(theta/360+0.9/360)
	near := func(a float64) bool { return math.Abs(theta-a) < 1 }
	t := turn{degrees: int(theta)}
	switch {
	case near(90):
		t.swaps = true
		if e[3] > 0 {
			t.toDisplay, t.toStored = "transpose=cclock_flip", "transpose=cclock_flip"
		} else {
			t.toDisplay, t.toStored = "transpose=clock", "transpose=cclock"
		}
	case near(180):
		t.toDisplay = flips(e[0] < 0, e[4] < 0)
		t.toStored = t.toDisplay // flips undo themselves
	case near(270):
		t.swaps = true
		if e[3] < 0 {
			t.toDisplay, t.toStored = "transpose=clock_flip", "transpose=clock_flip"
		} else {
			t.toDisplay, t.toStored = "transpose=cclock", "transpose=clock"
		}
	case math.Abs(theta) > 1:
		return turn{}, fmt.Errorf("the video's display matrix turns it by %g°, which trackink does not undo: the overlay is drawn on the frame as stored", theta)
	default:
		t.toDisplay = flips(false, e[4] < 0)
		t.toStored = t.toDisplay
	}
	return t, nil
}

// flips is the chain that mirrors a frame horizontally, vertically or both. vflip alone
// hands on the buffer it was given with a negative linesize, which the overlay cannot draw
// on; copy makes it an ordinary frame. (After hflip it writes into a buffer of its own.)
func flips(h, v bool) string {
	switch {
	case h && v:
		return "hflip,vflip"
	case h:
		return "hflip"
	case v:
		return "vflip,copy"
	}
	return ""
}

// turner runs frames through one libavfilter chain (transpose, hflip, vflip). Each output
// frame is a new, writable buffer.
type turner struct {
	graph     *astiav.FilterGraph
	src, sink *astiav.FilterContext
}

// newTurner builds chain for frames of format pix and size w × h.
func newTurner(chain string, pix astiav.PixelFormat, w, h int) (*turner, error) {
	t := &turner{graph: astiav.AllocFilterGraph()}
	if t.graph == nil {
		return nil, errors.New("video: allocating a filter graph failed")
	}
	fail := func(what string, err error) (*turner, error) {
		t.close()
		return nil, fmt.Errorf("video: turning frames (%s): %s: %w", chain, what, err)
	}
	var err error
	if t.src, err = t.graph.NewFilterContext(astiav.FindFilterByName("buffer"), "in", astiav.FilterArgs{
		"pix_fmt": strconv.Itoa(int(pix)), "video_size": fmt.Sprintf("%dx%d", w, h),
		"time_base": "1/1", "pixel_aspect": "1/1",
	}); err != nil {
		return fail("source", err)
	}
	if t.sink, err = t.graph.NewFilterContext(astiav.FindFilterByName("buffersink"), "out", nil); err != nil {
		return fail("sink", err)
	}
	outputs, inputs := astiav.AllocFilterInOut(), astiav.AllocFilterInOut()
	defer outputs.Free()
	defer inputs.Free()
	outputs.SetName("in")
	outputs.SetFilterContext(t.src)
	inputs.SetName("out")
	inputs.SetFilterContext(t.sink)
	if err := t.graph.Parse(chain, inputs, outputs); err != nil {
		return fail("parsing", err)
	}
	if err := t.graph.Configure(); err != nil {
		return fail("configuring", err)
	}
	return t, nil
}

// turn takes f's reference (f is left empty) and returns the turned frame.
func (t *turner) turn(f *astiav.Frame) (*astiav.Frame, error) {
	if err := t.src.BuffersrcAddFrame(f, astiav.NewBuffersrcFlags()); err != nil {
		return nil, fmt.Errorf("video: turning a frame: %w", err)
	}
	out := astiav.AllocFrame()
	if err := t.sink.BuffersinkGetFrame(out, astiav.NewBuffersinkFlags()); err != nil {
		out.Free()
		return nil, fmt.Errorf("video: turning a frame: %w", err)
	}
	return out, nil
}

func (t *turner) close() { t.graph.Free() }

// frameTurner turns frames to display orientation for the DrawFunc and back.
type frameTurner struct {
	turn               turn
	toDisplay, back    *turner
	displayW, displayH int
}

// newFrameTurner prepares both chains for w × h frames of format pix; nil when t turns
// nothing.
func newFrameTurner(t turn, pix astiav.PixelFormat, w, h int) (*frameTurner, error) {
	if t.toDisplay == "" {
		return nil, nil
	}
	ft := &frameTurner{turn: t, displayW: w, displayH: h}
	if t.swaps {
		ft.displayW, ft.displayH = h, w
	}
	var err error
	if ft.toDisplay, err = newTurner(t.toDisplay, pix, w, h); err != nil {
		return nil, err
	}
	if ft.back, err = newTurner(t.toStored, pix, ft.displayW, ft.displayH); err != nil {
		ft.toDisplay.close()
		return nil, err
	}
	return ft, nil
}

func (ft *frameTurner) close() {
	ft.toDisplay.close()
	ft.back.close()
}

// describe says what the turner does, for the log.
func (ft *frameTurner) describe() string {
	return fmt.Sprintf("the video is displayed %s (%s): the overlay is drawn on the %dx%d frame as displayed, which is turned back for encoding",
		turnWords(ft.turn.degrees), strings.ReplaceAll(ft.turn.toDisplay, ",copy", ""), ft.displayW, ft.displayH)
}

// turnWords says a clockwise turn in words.
func turnWords(degrees int) string {
	switch degrees {
	case 0:
		return "mirrored"
	case 270:
		return "turned 90° counterclockwise"
	}
	return fmt.Sprintf("turned %d° clockwise", degrees)
}
