package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"

	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
)

type renderFlags struct {
	style     styleFlags
	tracks    trackFlags
	input     string
	sceneName string
	frame     int
	output    string
	overwrite bool
	width     int
	height    int
	video     videoFlags
	detect    renderDetect // --detect: track while rendering (render_detect.go)
}

const renderExamples = `Examples:
  # Draw a tracker's MOTChallenge output onto every frame of a video (audio kept):
  trackink render -i in.mp4 --tracks tracks.txt -o out.mp4

  # Tracks start at video frame 101; encode with x265, write statistics:
  trackink render -i in.mkv --tracks t.jsonl --frame-offset 100 --encoder libx265 --stats-json s.json -o out.mkv

  # Draw frame 12 of a MOTChallenge tracker output onto a still taken from the video:
  trackink render -i frame12.png --tracks tracks.txt --frame 12 -o out.png

  # Our JSON Lines format, thicker links, no labels:
  trackink render -i frame.jpg --tracks scene.jsonl --line-width 4 --no-labels -o out.png

  # The seed benchmark scene on a blank 4K canvas:
  trackink render --scene seed --frame 30 -o seed.png

  # Segment 2 (from 0) of 4 into segs/, for trackink join (in a Slurm array: --segment auto/4):
  trackink render -i in.mp4 --tracks t.txt --segment 2/4 -o segs/`

func runRender(args []string, stdout, stderr io.Writer) error {
	var f renderFlags
	fs := newFlagSet("render", "-i INPUT (--tracks FILE | --scene seed) -o OUTPUT [flags]", renderExamples, stderr)
	fs.StringVarP(&f.input, "input", "i", "", "input video (anything FFmpeg reads) or picture (.png, .jpg); without it, a blank canvas of --width × --height")
	fs.StringVar(&f.tracks.path, "tracks", "", "tracking data: MOTChallenge, trackink JSON Lines, supervision CSV, KITTI, CVAT XML, or a YOLO results directory (README \"Input formats\")")
	fs.StringVar(&f.sceneName, "scene", "", "a built-in scene instead of --tracks: seed")
	fs.IntVar(&f.frame, "frame", 1, "for a picture: the tracking frame to draw (1-based, as in MOTChallenge)")
	fs.StringVarP(&f.output, "output", "o", "", "output video (.mp4, .mkv, .mov) or picture (.png, .jpg)")
	fs.BoolVarP(&f.overwrite, "yes", "y", false, "overwrite the output if it exists (never the input)")
	fs.IntVar(&f.width, "width", scene.SeedWidth, "canvas width without -i")
	fs.IntVar(&f.height, "height", scene.SeedHeight, "canvas height without -i")
	f.tracks.register(fs)
	f.style.register(fs, "knn", "default")
	f.video.register(fs)
	f.detect.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if f.style.listLooks {
		printLooks(stdout)
		return nil
	}
	if f.detect.listDetect {
		printDetectPresets(stdout)
		return nil
	}
	// From here on Ctrl-C and SIGTERM end the render with status 130, reading the tracks
	// included.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts, err := f.style.options(fs, f.video.statsJSON != "")
	if err != nil {
		return err
	}
	if err := f.detect.check(fs, &f); err != nil {
		return err
	}
	if (f.tracks.path == "") == (f.sceneName == "") && f.detect.preset == "" {
		return usageError{errors.New("give exactly one of --tracks FILE, --scene seed and --detect PRESET")}
	}
	if f.sceneName != "" && f.sceneName != "seed" {
		return usageError{fmt.Errorf("--scene %q: the built-in scene is seed", f.sceneName)}
	}
	if f.frame < 1 {
		return usageError{fmt.Errorf("--frame %d: frames are numbered from 1", f.frame)}
	}
	isVideo := f.input != "" && !isPicture(f.input)
	if isVideo && isPicture(f.output) {
		return usageError{fmt.Errorf("input %s is a video: the output must be a video too (.mp4, .mkv, .mov)", f.input)}
	}
	if f.input != "" {
		if err := checkInput("input", f.input, false); err != nil {
			return err
		}
	}
	if f.tracks.path != "" {
		if err := checkInput("tracks", f.tracks.path, true); err != nil {
			return err
		}
	}
	var target string
	if f.video.segment != "" {
		target, err = f.segmentTarget(isVideo)
	} else {
		target, err = checkOutput(f.input, f.output, f.overwrite)
	}
	if err != nil {
		return err
	}
	if isVideo {
		return renderVideo(ctx, &f, fs, opts, target, stderr)
	}
	enc, err := encoderFor(f.output)
	if err != nil {
		return err
	}
	img, err := loadCanvas(f.input, f.width, f.height)
	if err != nil {
		return err
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	tracks, err := untilInterrupted(ctx, func() (*scene.Tracks, error) { return f.loadTracks(w, h) })
	if err != nil {
		return err
	}
	if f.style.backend == "auto" {
		fmt.Fprintf(stderr, "backend auto: %s\n", backendName("auto"))
	}
	d, err := overlay.New(opts)
	if err != nil {
		return err
	}
	defer d.Close()
	tf := tracks.Frame(f.frame, new(scene.Frame))
	if tf == nil {
		fmt.Fprintf(stderr, "trackink render: warning: nothing is tracked in frame %d (tracks cover frames %s)\n", f.frame, frameSpan(tracks))
	}
	if err := d.Draw(&composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: w, H: h}, tf); err != nil {
		return err
	}
	if m := missingGlyphs(d.Font()); m != "" {
		fmt.Fprintf(stderr, "trackink render: warning: %s\n", m)
	}
	removeStalePartials(target, stderr)
	return writeAtomic(target, f.overwrite, func(out io.Writer) error { return enc(out, img) })
}

// missingGlyphs says which characters of the labels font f (nil: no frame drawn) could not
// draw, drawn as hollow boxes instead; "" when there were none.
func missingGlyphs(f *overlay.Font) string {
	if f == nil || len(f.Missing()) == 0 {
		return ""
	}
	const most = 20
	var b strings.Builder
	for i, r := range f.Missing() {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(f.Missing())-most)
			break
		}
		fmt.Fprintf(&b, " U+%04X", r)
		if unicode.IsGraphic(r) {
			fmt.Fprintf(&b, " %c", r)
		}
	}
	fonts := "neither " + f.Typeface() + " nor Go Medium has"
	if f.Typeface() == "Go Medium" {
		fonts = "Go Medium, the built-in font, lacks"
	}
	return fmt.Sprintf("labels hold characters that %s, drawn as hollow boxes:%s (--font a font that has them)", fonts, b.String())
}

// untilInterrupted runs load and returns what it returns, or returns at once with the
// interrupted status when ctx ends (Ctrl-C, SIGTERM): reading a large tracking file takes a
// while, and the readers cannot be stopped half-way, so the process leaves them behind.
func untilInterrupted[T any](ctx context.Context, load func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := load()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, errInterrupted
	}
}

// errInterrupted ends a command interrupted by Ctrl-C or SIGTERM before it wrote anything.
var errInterrupted = exitError{exitInterrupted, errors.New("interrupted; no output written")}

func (f *renderFlags) loadTracks(w, h int) (*scene.Tracks, error) {
	if f.sceneName == "seed" {
		return scene.NewTracks(scene.Seed(w, h, f.frame))
	}
	return f.tracks.load(w, h)
}

func frameSpan(t *scene.Tracks) string {
	if t.Len() == 0 {
		return "none: the file is empty"
	}
	return fmt.Sprintf("%d to %d", t.FirstIndex(), t.LastIndex())
}

// loadCanvas decodes the input picture into premultiplied RGBA, or makes a mid-grey canvas.
func loadCanvas(path string, w, h int) (*image.RGBA, error) {
	if path == "" {
		if w < 1 || h < 1 || w > 16384 || h > 16384 {
			return nil, usageError{fmt.Errorf("canvas %dx%d: --width and --height must be 1..16384", w, h)}
		}
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{Y: 96}), image.Point{}, draw.Src)
		return img, nil
	}
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	src, _, err := image.Decode(in)
	if err != nil {
		return nil, fmt.Errorf("input %s: not a PNG or JPEG picture (%w)", path, err)
	}
	img := image.NewRGBA(image.Rect(0, 0, src.Bounds().Dx(), src.Bounds().Dy()))
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	return img, nil
}

// encoderFor picks the picture encoder from the output's extension.
func encoderFor(path string) (func(io.Writer, image.Image) error, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return png.Encode, nil
	case ".jpg", ".jpeg":
		return func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, &jpeg.Options{Quality: 92}) }, nil
	}
	return nil, usageError{fmt.Errorf("output %s: want a .png or .jpg picture", path)}
}
