package cli

import (
	"errors"
	"fmt"
	"strings"

	"trackink/options"
	"trackink/outfile"
	"trackink/overlay"
)

// checkFiles applies the rule for every path trackink writes (runFiles) to a render, before
// any work: it checks and records every file the render reads (the video or picture, the
// tracks, the style file, the font, the label words and lines, the class names, the
// detector's model), then every file it
// writes, and returns the output to write (-o, or the segment file with --segment). The
// style file's own keys are applied by then (options.Style.Options), so a font or word list it
// names is among the inputs.
func (f *renderFlags) checkFiles(isVideo bool) (string, error) {
	f.files = runFiles{Run: outfile.Run{Overwrite: f.overwrite}}
	type input struct {
		flag, path string
		dirOK      bool
	}
	var tracks []input
	var firstNames string // the first file's names file, ClassNamesFile stat'ed once a file
	for i, p := range f.tracks.Paths {
		if p == "-" {
			if err := f.files.readsStdin("--tracks -"); err != nil {
				return "", err
			}
		}
		tracks = append(tracks, input{"--tracks", trackFile(p), true}) // a YOLO results directory
		// Each file's class names, the names file beside it without --class-names.
		one := f.tracks
		one.Path = p
		names := one.ClassNamesFile()
		if i == 0 {
			firstNames = names
		}
		if i == 0 || names != firstNames {
			tracks = append(tracks, input{"--class-names", names, false})
		}
	}
	for _, in := range append([]input{{"-i", f.input, false}}, append(tracks, []input{
		{"--gt", f.truth.path, true},
		{"--style", f.style.File, false},
		{"--font", fontFile(f.style.Style.Font), false},
		{"--label-words", f.style.LabelWords, false},
		{"--label-lines", f.style.LabelLines, false},
		{"--model", f.detect.ModelFile(), false},
	}...)...) {
		if err := f.files.input(in.flag, in.path, in.dirOK); err != nil {
			return "", err
		}
	}
	var target string
	var err error
	if f.video.Segment != "" {
		if target, err = f.segmentTarget(isVideo); err == nil {
			target, err = f.files.Segment("-o", target)
		}
		if err == nil && !f.overwrite {
			err = replaceableSegment(target, f.video.SegIndex, f.video.SegCount)
		}
	} else {
		target, err = f.files.Output("-o", f.output)
	}
	if err != nil || f.video.StatsJSON == "" {
		return target, err
	}
	if !isVideo || isPicture(f.output) {
		return "", options.UsageError{Err: errors.New("--stats-json is the statistics of a video render: it has none for a picture (-o .png, .jpg)")}
	}
	if f.video.Segment != "" {
		f.video.StatsTarget, err = f.segmentStats(target)
		return target, err
	}
	if strings.Contains(f.video.StatsJSON, segmentPlaceholder) {
		return "", options.UsageError{Err: fmt.Errorf("--stats-json %s: %s names a segment's statistics, and this render is whole: drop %s, or render a segment with --segment i/N",
			f.video.StatsJSON, segmentPlaceholder, segmentPlaceholder)}
	}
	f.video.StatsTarget, err = f.files.Output("--stats-json", f.video.StatsJSON)
	return target, err
}

// fontFile is the file a font setting names: none for the built-in Go Mono.
func fontFile(font string) string {
	if font == overlay.GoMono {
		return ""
	}
	return font
}
