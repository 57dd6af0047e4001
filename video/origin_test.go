package video

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"trackink/internal/mediatest"
)

// The output starts at 0 whatever clock the input's timestamps run on, as ffmpeg shifts it:
// a transport stream's streams start at 1.4 s, or hours, and were once kept so, an empty
// edit at the head of the MP4 that players show as a delay. The streams keep their offsets
// to each other (the audio here starts 23 ms before the video), and the join of the
// render's segments shifts them the same.
func TestOutputStartsAtZero(t *testing.T) {
	in := clipWithAudio(t, "in.ts", "-output_ts_offset", "3600")
	inVideo, inAudio := streamStarts(t, in)
	if inVideo < 3600 {
		t.Fatalf("the input's video starts at %.3f s, want 3600 s or later", inVideo)
	}
	o := Options{Input: in, Output: filepath.Join(t.TempDir(), "whole.mp4"), Preset: "ultrafast"}
	if _, err := Transcode(t.Context(), o, paintNumber); err != nil {
		t.Fatal(err)
	}
	video, audio := streamStarts(t, o.Output)
	if first := min(video, audio); math.Abs(first) > 0.001 {
		t.Errorf("the output starts at %.4f s (video %.4f s, audio %.4f s), want 0", first, video, audio)
	}
	if got, want := video-audio, inVideo-inAudio; math.Abs(got-want) > 0.001 {
		t.Errorf("the video starts %.4f s after the audio, in the input %.4f s", got, want)
	}
	segs, _ := renderSegments(t, o, 2)
	joined := join(t, in, segs)
	for _, spec := range []string{"0:v", "0:a"} {
		if want, got := mediatest.PTS(mediatest.Packets(t, o.Output, spec)), mediatest.PTS(mediatest.Packets(t, joined, spec)); !slices.Equal(got, want) {
			t.Errorf("%s: the join's timestamps differ from the whole render's: %s", spec, mediatest.Difference(want, got))
		}
	}
}

// streamStarts reads the start times of the first video and audio streams of path, in s.
func streamStarts(t *testing.T, path string) (video, audio float64) {
	t.Helper()
	for _, s := range []struct {
		spec string
		at   *float64
	}{{"v:0", &video}, {"a:0", &audio}} {
		var ps struct {
			Streams []struct {
				StartTime string `json:"start_time"`
			}
		}
		probeJSON(t, &ps, "-select_streams", s.spec, "-show_entries", "stream=start_time", path)
		if len(ps.Streams) != 1 {
			t.Fatalf("%s: %d streams %s, want 1", path, len(ps.Streams), s.spec)
		}
		f, err := strconv.ParseFloat(ps.Streams[0].StartTime, 64)
		if err != nil {
			t.Fatalf("%s: start time %q: %v", path, ps.Streams[0].StartTime, err)
		}
		*s.at = f
	}
	return video, audio
}
