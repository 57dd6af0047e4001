package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"trackink/internal/prose"
	"trackink/options"
	"trackink/scene"
	"trackink/video"

	"github.com/spf13/pflag"
)

const demoExamples = `Examples:
  # A 2-second 4K clip with audio, overlaid with the seed scene, written to demo.mp4:
  trackink demo

  # Shorter and smaller, somewhere else:
  trackink demo --frames 30 --width 1920 --height 1080 -o /tmp/demo.mp4 -y`

func demoCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("demo", "[-o OUTPUT] [flags]", demoExamples, stderr)
	out := fs.StringP("output", "o", "demo.mp4", "output video")
	overwrite := fs.BoolP("yes", "y", false, "overwrite the output if it exists")
	frames := fs.Int("frames", 60, "length of the synthesised clip in frames (30 fps)")
	w := fs.Int("width", scene.SeedWidth, "clip width: even, 16..16384 (libx264's)")
	h := fs.Int("height", scene.SeedHeight, "clip height: even, 16..16384, width × height as FFmpeg takes (not 16384x16384)")
	preset := fs.String("preset", "veryfast", "x264 preset (of a video output; -o .png draws one frame and encodes none)")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		if *frames < 1 {
			return options.UsageError{Err: fmt.Errorf("--frames %d: want at least 1", *frames)}
		}
		if err := checkDemoSize(*w, *h, *preset); err != nil {
			return err
		}
		// What demo passes on to the render is checked before the clip is synthesised, as
		// render checks it: demo --preset bogus was refused only after the synthesis.
		renderArgs := []string{"--scene", "seed", "-o", *out}
		if !isPicture(*out) || fs.Changed("preset") {
			// A preview (-o .png) encodes nothing: render refuses a --preset given to it.
			renderArgs = append(renderArgs, "--preset", *preset)
		}
		if *overwrite {
			renderArgs = append(renderArgs, "-y")
		}
		if err := checkDemoRender(renderArgs, stderr); err != nil {
			return err
		}
		// A stop signal while the input is synthesised ends the ffmpeg program and removes the
		// temporary input (the render that follows has its own handler).
		ctx, stop := signalContext()
		defer stop()
		dir, err := os.MkdirTemp("", "trackink-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		in := filepath.Join(dir, demoClip)
		fmt.Fprintf(stderr, "synthesising a %dx%d clip of %s with audio (ffmpeg testsrc2 + sine)\n", *w, *h, prose.Plural(*frames, "frame"))
		if err := video.SynthesizeContext(ctx, in, *w, *h, *frames, 30); err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx)
			}
			return fmt.Errorf("synthesising the demo input: %w", err)
		}
		fmt.Fprintf(stderr, "rendering 100 synthetic tracks onto it (k = 5 links, curves, boxes, labels)\n")
		_, render := renderCommand(stderr)
		if err := render(append([]string{"-i", in}, renderArgs...), stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "demo written to %s; render your own with: trackink render -i IN.mp4 --tracks TRACKS.txt -o OUT.mp4\n", *out)
		return nil
	}
}

// maxDemoSide is the widest and tallest picture libx264, which codes the demo's clip and its
// render, takes: x264 refuses more ("Error while opening encoder").
const maxDemoSide = 16384

// checkDemoSize refuses, before the clip is synthesised, a size the demo cannot code: an
// odd side or one under 16 (H.264 in 4:2:0), more than libx264's side, a picture larger
// than FFmpeg's frames may be (av_image_check_size: (w+128)·(h+128) below 2³¹/8, so
// 16384x16384 is not one), or one too large for the memory here (the render's own check,
// exit 1, at the x264 preset given). FFmpeg refused each after "synthesising…", exit 1.
func checkDemoSize(w, h int, preset string) error {
	switch {
	case w < 16 || w%2 != 0:
		return options.UsageError{Err: fmt.Errorf("--width %d: want an even number of at least 16 (H.264 in 4:2:0)", w)}
	case h < 16 || h%2 != 0:
		return options.UsageError{Err: fmt.Errorf("--height %d: want an even number of at least 16 (H.264 in 4:2:0)", h)}
	case w > maxDemoSide:
		return options.UsageError{Err: fmt.Errorf("--width %d: libx264, which codes the demo, takes at most %d", w, maxDemoSide)}
	case h > maxDemoSide:
		return options.UsageError{Err: fmt.Errorf("--height %d: libx264, which codes the demo, takes at most %d", h, maxDemoSide)}
	case int64(w+128)*int64(h+128) >= math.MaxInt32/8:
		return options.UsageError{Err: fmt.Errorf("--width %d --height %d: larger than FFmpeg's frames may be ((width+128)·(height+128) below %d)", w, h, math.MaxInt32/8)}
	}
	return video.CheckEncoderMemory(w, h, video.Options{Encoder: "libx264", Preset: preset})
}

// demoClip is the name of the clip demo synthesises, in a temporary directory of its own.
const demoClip = "input.mp4"

// checkDemoRender checks the render demo runs on its clip before the clip exists: args are
// the render's flags but -i, parsed as render parses them, then checked as render checks
// them before any work, bar the input, which render checks once it is there: the look,
// --frame, the files it writes (-o, whether it exists, its directory), and the video
// options (a preset the encoder lacks, an output whose container cannot hold the video, a
// GPU this machine lacks). A mistake is refused as render refuses it, exit 2 naming the
// flag.
func checkDemoRender(args []string, stderr io.Writer) error {
	f, fs := newRenderFlags(stderr)
	if err := options.Parse(fs, args); err != nil {
		return err
	}
	opts, err := f.style.Options(fs, f.video.StatsJSON != "")
	if err != nil {
		return err
	}
	if err := f.style.CheckTuners(fs, &opts.Style); err != nil {
		return err
	}
	const isVideo = true // the clip
	if err := f.checkFrame(fs, isVideo); err != nil {
		return err
	}
	target, err := f.checkFiles(isVideo)
	if err != nil {
		return err
	}
	f.input = demoClip // checkFiles passed over the input, not there yet
	_, err = f.videoOptions(fs, target)
	return err
}
