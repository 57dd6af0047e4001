package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"trackink/options"
	"trackink/video"
)

// The segment half of render: `--segment i/N` renders the i-th of N contiguous ranges of the
// render's frames into a directory, for `trackink join` (join.go). The user's view:
// docs/cluster.md.

// segmentEnv are the variables `--segment auto/N` takes the index from, in order: a Slurm
// array task's and a Kubernetes indexed job's.
var segmentEnv = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// parseSegment reads --segment: "i/N" with 0 ≤ i < N, or "auto/N" with i from the first of
// segmentEnv that getenv finds set.
func parseSegment(spec string, getenv func(string) string) (index, count int, err error) {
	idx, cnt, ok := strings.Cut(spec, "/")
	if !ok {
		return 0, 0, errors.New("want i/N (segment i, from 0, of N) or auto/N")
	}
	count, err = strconv.Atoi(cnt)
	if err != nil || count < 1 {
		return 0, 0, fmt.Errorf("N, %q, is not a whole number of segments ≥ 1", cnt)
	}
	if idx != "auto" {
		index, err = strconv.Atoi(idx)
		if err != nil || index < 0 || index >= count {
			return 0, 0, fmt.Errorf("i, %q, is not a segment 0..%d", idx, count-1)
		}
		return index, count, nil
	}
	for _, name := range segmentEnv {
		v := getenv(name)
		if v == "" {
			continue
		}
		index, err = strconv.Atoi(v)
		if err != nil || index < 0 || index >= count {
			fix := fmt.Sprintf("submit the array as --array=0-%d", count-1)
			if name == "JOB_COMPLETION_INDEX" {
				fix = fmt.Sprintf("give the Indexed Job completions: %d, as --segment's N", count)
			}
			return 0, 0, fmt.Errorf("%s=%s is not a segment 0..%d (%s)", name, v, count-1, fix)
		}
		return index, count, nil
	}
	return 0, 0, fmt.Errorf("auto takes i from %s (a Slurm array task) or %s (a Kubernetes indexed job), and neither is set", segmentEnv[0], segmentEnv[1])
}

// videoExtensions are names that say "a video file", which -o of a segment is not.
var videoExtensions = []string{".mp4", ".mkv", ".mov", ".m4v", ".avi", ".ts", ".webm"}

// replaceableSegment refuses, as any existing output without -y is refused (exit 2), a file
// at target that is not an earlier attempt's segment index of count (video.CheckSegmentReplace).
// A segment is replaced without -y, so that a cluster task run again replaces what its
// earlier attempt wrote; a user's file that happens to bear the name is not (it was).
func replaceableSegment(target string, index, count int) error {
	if err := video.CheckSegmentReplace(target, index, count); err != nil {
		return options.UsageError{Err: fmt.Errorf("-o: segment %s exists, but %v: a segment replaces without -y only an earlier attempt's segment %d/%d (use -y to overwrite it)",
			target, err, index, count)}
	}
	return nil
}

// segmentPlaceholder in --stats-json's path is filled in with the segment's number
// (video.SegmentNumber), so that each task of a cluster array writes its own statistics.
const segmentPlaceholder = "{segment}"

// segmentStats returns the file a segment's --stats-json writes, checked as any output is
// but replaced without -y when it is an earlier attempt's statistics of this segment, for
// the reason a segment is (replaceableSegment): a task run again would otherwise be refused
// by what its first attempt wrote. Anything else at the name is refused without -y.
func (f *renderFlags) segmentStats(segment string) (string, error) {
	// The run's other checks (an input, another output, a link) come first, as for any
	// output: only the existing file's is left to video.CheckStatsReplace.
	target, err := f.files.Retried("--stats-json", f.video.StatsJSON)
	if err != nil || f.overwrite {
		return target, err
	}
	if err := video.CheckStatsReplace(target, filepath.Base(segment)); err != nil {
		return "", options.UsageError{Err: fmt.Errorf("--stats-json %s exists, but %v: a segment replaces without -y only an earlier attempt's statistics of segment %d/%d (use -y to overwrite it)",
			f.video.StatsJSON, err, f.video.SegIndex, f.video.SegCount)}
	}
	return target, nil
}

// segmentTarget parses --segment and returns the segment file to write: -o names the
// directory the segments go to (made when the render starts, if missing) and the file is
// named by video.SegmentName. An earlier attempt's segment is replaced without -y
// (replaceableSegment). It fills in segmentPlaceholder in --stats-json, which a segment's
// statistics must have.
func (f *renderFlags) segmentTarget(isVideo bool) (string, error) {
	i, n, err := parseSegment(f.video.Segment, os.Getenv)
	switch {
	case err != nil:
		return "", options.UsageError{Err: fmt.Errorf("--segment %q: %w", f.video.Segment, err)}
	case !isVideo:
		return "", options.UsageError{Err: errors.New("--segment: segments are of a video; the input is a picture or missing")}
	case f.output == "":
		return "", options.UsageError{Err: errors.New("no output: give -o DIR, the directory for the segments")}
	case f.video.StatsJSON != "" && !strings.Contains(f.video.StatsJSON, segmentPlaceholder):
		// Each task would write the one file, the last to end winning.
		return "", options.UsageError{Err: fmt.Errorf("--stats-json %s: every segment would write this one file, the last to end winning: name one per segment with %s in it (--stats-json stats/seg-%s.json writes stats/seg-%s.json for --segment %d/%d)",
			f.video.StatsJSON, segmentPlaceholder, segmentPlaceholder, video.SegmentNumber(i, n), i, n)}
	case isPicture(f.output) || video.IsSequence(f.output):
		return "", options.UsageError{Err: fmt.Errorf("-o %s: with --segment, -o names a directory for the segments (segs/), not a picture", f.output)}
	}
	st, err := os.Stat(f.output)
	switch {
	case err == nil && !st.IsDir():
		return "", options.UsageError{Err: fmt.Errorf("-o %s: with --segment, -o names the directory for the segments; this is a file", f.output)}
	case err != nil && slices.Contains(videoExtensions, strings.ToLower(filepath.Ext(f.output))):
		return "", options.UsageError{Err: fmt.Errorf("-o %s: with --segment, -o names a directory for the segments (segs/), not a video file", f.output)}
	}
	f.video.SegIndex, f.video.SegCount = i, n
	f.video.StatsJSON = strings.ReplaceAll(f.video.StatsJSON, segmentPlaceholder, video.SegmentNumber(i, n))
	return filepath.Join(f.output, video.SegmentName(f.input, i, n)), nil
}
