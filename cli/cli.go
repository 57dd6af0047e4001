// Package cli is trackink's command line: one file per command (render, track, tracks,
// eval, demo, join, doctor, completion, version, bench, golden, man), each defining its
// flag set from the flag groups of package options and a run that hands the options to the
// library that does the work (job for a render), prints what it reports, and maps its
// errors to messages and exit statuses.
//
// One frame of `trackink render -i in.mp4 --tracks t.txt -o out.mp4`, by package: job runs
// the render (job.Render); video decodes the frame (video.Transcode); scene holds what is
// tracked in it (scene.Tracks); overlay's Drawer links its points (knn.Graph), builds its
// primitives (overlay.Primitives: boxes, links as lines and curves, labels, trails) and
// hands them to a backend, the CPU renderer (render) or the CUDA kernels (kernels/gpu),
// which bin, rasterise (sdf, curves) and composite them onto the frame (composite); video
// encodes it. docs/architecture.md names the file and function at each step.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"trackink/internal/suggest"
	"trackink/job"
	"trackink/options"
	"trackink/outfile"

	"github.com/spf13/pflag"
)

// command is one subcommand: its name, its one-line summary, and define, which makes its
// flag set (bound to the variables run reads; its messages and help go to stderr) and its
// run. Help, man pages and completions read the flag set without running anything.
type command struct {
	name, summary string
	developer     bool // it checks and measures trackink itself: help lists it apart
	define        func(stderr io.Writer) (*pflag.FlagSet, runFunc)
}

// runFunc parses a command's arguments into its flag set and runs it.
type runFunc func(args []string, stdout io.Writer) error

// commandList is every command, in the order help lists them: the user's, most used first,
// then the developer's. commands finds them by name. (Filled in init: a command's entry
// point reads the list.)
var (
	commandList []command
	commands    map[string]command
)

func init() {
	commandList = []command{
		{"render", "draw tracks onto an image or a video", false, renderCommand},
		{"track", "find and follow objects in a video (people, objects, motion, bright, dark, color, points) and write their tracks", false, trackCommand},
		{"tracks", "say what a tracking file holds, and convert it to JSON Lines or MOTChallenge text", false, tracksCommand},
		{"eval", "score tracks against ground truth: HOTA, MOTA, MOTP, IDF1, switches, mostly tracked/lost", false, evalCommand},
		{"demo", "synthesise a 4K clip with audio and draw 100 synthetic tracks onto it", false, demoCommand},
		{"join", "join the segments of a render (render --segment) without re-encoding", false, joinCommand},
		{"doctor", "report what this machine and binary can do (CUDA, NVDEC/NVENC, link search, the detector)", false, doctorCommand},
		{"completion", "write a shell's completion script: bash, zsh or fish", false, completionCommand},
		{"version", "print the version and the commit it was built from (also --version)", false, versionCommand},
		{"bench", "benchmark the renderer (the seed scene, box effects), the link graphs, the built-in tracker, or a whole render against plain ffmpeg", true, benchCommand},
		{"golden", "render the golden scenes and compare them with the stored pictures", true, goldenCommand},
		{"man", "write trackink's man pages into a directory (make man)", true, manCommand},
	}
	commands = map[string]command{}
	for _, c := range commandList {
		commands[c.name] = c
	}
}

// exitError ends the program with a chosen status after its message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// Main executes a command line and returns the exit status: 0 on success, 1 on failure,
// 2 on a usage error, or a command's own status (exitStatuses).
func Main(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runMain(args, out, stderr)
	if code == 0 && out.err != nil {
		// What a command prints is its result (a completion script, a table, the help):
		// cut short (a full disk, /dev/full), it is no success.
		fmt.Fprintf(stderr, "trackink: writing to standard output: %v\n", out.err)
		return exitFailure
	}
	return code
}

// checkedWriter passes writes on to w and keeps the first error, which the commands
// printing to it do not check one by one.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// runMain is Main, printing to stdout as it is given.
func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if _, ok := commands[args[1]]; ok {
				return runMain([]string{args[1], "--help"}, stdout, stderr)
			}
			fmt.Fprintf(stderr, "trackink help: unknown command %q%s\n\n", args[1], suggest.DidYouMean(args[1], commandNames()))
			printHelp(stderr)
			return exitUsage
		}
		if len(args) == 0 {
			// No command is a usage error: its help goes with the errors, as an unknown
			// command's does.
			printHelp(stderr)
			return exitUsage
		}
		printHelp(stdout)
		return 0
	}
	name := args[0]
	if name == "--version" {
		name = "version"
	}
	cmd, ok := commands[name]
	if !ok && strings.HasPrefix(name, "-") {
		// Flags follow a command; trackink itself takes --help and --version alone.
		fmt.Fprintf(stderr, "trackink: unknown flag %q%s: give a command first, its flags after it (trackink COMMAND --flag)\n\n",
			name, suggest.DidYouMean(name, []string{"--help", "--version"}))
		printHelp(stderr)
		return exitUsage
	}
	if !ok {
		fmt.Fprintf(stderr, "trackink: unknown command %q%s\n\n", name, suggest.DidYouMean(name, commandNames()))
		printHelp(stderr)
		return exitUsage
	}
	if asksHelp(args[1:]) {
		// Help asked for goes where a pager or grep reads it; the commands print theirs to
		// their error output, with their usage errors.
		stderr = stdout
	}
	_, run := cmd.define(stderr)
	err := run(args[1:], stdout)
	if err == nil || errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "trackink %s: %v\n", name, err)
	var ue options.UsageError
	var ee exitError
	switch {
	case errors.As(err, &ue), errors.Is(err, job.ErrOption), errors.Is(err, outfile.ErrRefused):
		fmt.Fprintf(stderr, "run 'trackink %s --help' for usage\n", name)
		return exitUsage
	case errors.As(err, &ee):
		return ee.code
	}
	return exitFailure
}
