package video

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trackink/composite"
)

// timecodes lists the timecode tags of path, its container's and its streams' (a MOV's
// timecode track included), as "where=value".
func timecodes(t *testing.T, path string) []string {
	t.Helper()
	var out struct {
		Streams []struct {
			Index int               `json:"index"`
			Tags  map[string]string `json:"tags"`
		}
		Format struct {
			Tags map[string]string `json:"tags"`
		}
	}
	probeJSON(t, &out, "-show_streams", "-show_format", path)
	var got []string
	add := func(where string, tags map[string]string) {
		for k, v := range tags {
			if strings.EqualFold(k, "timecode") {
				got = append(got, where+"="+v)
			}
		}
	}
	add("format", out.Format.Tags)
	for _, s := range out.Streams {
		add(fmt.Sprintf("stream %d", s.Index), s.Tags)
	}
	return got
}

// checkTimecode asserts that path has a timecode and that every one it has is want.
func checkTimecode(t *testing.T, path, want string) {
	t.Helper()
	got := timecodes(t, path)
	if len(got) == 0 {
		t.Errorf("%s has no timecode, want %s", filepath.Base(path), want)
	}
	for _, tc := range got {
		if !strings.HasSuffix(tc, "="+want) {
			t.Errorf("%s: timecode %s, want %s (all: %q)", filepath.Base(path), tc, want, got)
		}
	}
}

// A render that starts late starts its timecode late by as many frames: an editor lines a
// layer or a render up with its source by timecode. It was copied unchanged, so a layer of
// frames 31 on was placed at the source's first frame.
func TestTimecodeFollowsStart(t *testing.T) {
	ndf := ffmpegClip(t, "ndf.mov", "-c:v", "libx264", "-preset", "ultrafast", "-timecode", "01:00:00:00")
	// 29.97 fps drop-frame: minute 1 has no frames ;00 and ;01.
	df := ffmpegClip(t, "df.mov", "-c:v", "libx264", "-preset", "ultrafast", "-r", "30000/1001", "-timecode", "00:00:59;28")
	for _, c := range []struct {
		name, in, ext string
		opts          Options
		want          string
	}{
		{"unchanged without a start", ndf, ".mov", Options{}, "01:00:00:00"},
		{"frame start, mov", ndf, ".mov", Options{Start: Position{Frame: 31}}, "01:00:01:05"},
		{"frame start, mp4", ndf, ".mp4", Options{Start: Position{Frame: 31}}, "01:00:01:05"},
		{"time start, mkv", ndf, ".mkv", Options{Start: Position{Time: 1200 * time.Millisecond, IsTime: true}}, "01:00:01:05"},
		{"layer, prores", ndf, ".mov", Options{Layer: true, Start: Position{Frame: 31}}, "01:00:01:05"},
		{"layer, qtrle", ndf, ".mov", Options{Layer: true, Encoder: "qtrle", Start: Position{Frame: 31}}, "01:00:01:05"},
		{"drop-frame", df, ".mov", Options{Start: Position{Frame: 3}}, "00:01:00;02"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.Input, o.Output = c.in, filepath.Join(t.TempDir(), "out"+c.ext)
			if o.Layer {
				skipUnlessLayerBuilt(t, o.Output, o.Encoder)
			} else {
				o.Preset = "ultrafast"
			}
			if _, err := Transcode(t.Context(), o, func(int, composite.Surface) error { return nil }); err != nil {
				t.Fatal(err)
			}
			checkTimecode(t, o.Output, c.want)
		})
	}

	// Each segment's timecode is its first frame's; the join's, the whole render's.
	t.Run("segments", func(t *testing.T) {
		o := Options{Input: ndf, Start: Position{Frame: 11}, Preset: "ultrafast"}
		segs, stats := renderSegments(t, o, 2)
		checkTimecode(t, segs[0], "01:00:00:10")
		second := 10 + stats[0].Frames // frames before segment 1's first, at 25 fps
		checkTimecode(t, segs[1], fmt.Sprintf("01:00:%02d:%02d", second/25, second%25))
		checkTimecode(t, join(t, ndf, segs), "01:00:00:10")
	})
}
