package video

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"trackink/composite"
	"trackink/internal/field"
)

// An opened Source is rendered by reading on from where Open's probe stopped: every frame
// is drawn and every stream copied, as when Transcode opens the input itself. It is read
// once: a second render of it is refused before any output is made, and Close may run twice.
func TestSourceRenderedOnce(t *testing.T) {
	in := demoClip(t, ".mp4")
	s := mustOpen(t, in)
	if got, want := s.Info(), mustProbe(t, in); got != want {
		t.Errorf("Open's Info = %+v, Probe's %+v", got, want)
	}
	dir := t.TempDir()
	drawn := 0
	stats, err := Transcode(t.Context(), Options{Source: s, Output: filepath.Join(dir, "out.mp4"), Preset: "ultrafast"},
		func(int, composite.Surface) error { drawn++; return nil })
	if err != nil || stats.Frames != clipFrames || drawn != clipFrames || stats.Input != in {
		t.Fatalf("render of the Source: %d frames, %d drawn, input %q, %v; want %d of %s", stats.Frames, drawn, stats.Input, err, clipFrames, in)
	}
	if got := probeStreams(t, filepath.Join(dir, "out.mp4")); len(got) != 2 || got[1].CodecType != "audio" {
		t.Errorf("output streams %+v, want the video and the copied audio", got)
	}
	again := filepath.Join(dir, "again.mp4")
	if _, err := Transcode(t.Context(), Options{Source: s, Output: again}, nil); !errors.Is(err, errSourceUsed) {
		t.Errorf("second render of one Source: %v, want errSourceUsed", err)
	}
	if _, err := Frames(t.Context(), Options{Source: s}, func(int, composite.Surface) error { return nil }); !errors.Is(err, errSourceUsed) {
		t.Errorf("Frames after a render of the Source: %v, want errSourceUsed", err)
	}
	if _, err := os.Stat(again); !os.IsNotExist(err) {
		t.Errorf("the refused render left %s: %v", again, err)
	}
	s.Close()
	s.Close()
}

// Frames reads a Source as Transcode does.
func TestSourceFrames(t *testing.T) {
	s := mustOpen(t, demoClip(t, ".mkv"))
	seen := 0
	if _, err := Frames(t.Context(), Options{Source: s}, func(int, composite.Surface) error { seen++; return nil }); err != nil || seen != clipFrames {
		t.Errorf("Frames of a Source: %d frames, %v; want %d", seen, err, clipFrames)
	}
}

// A Source that disagrees with the other options is refused, naming Options.Source.
func TestSourceOptions(t *testing.T) {
	in := demoClip(t, ".mp4")
	s := mustOpen(t, in)
	out := filepath.Join(t.TempDir(), "out.mp4")
	for name, o := range map[string]Options{
		"another input":        {Source: s, Input: in + ".other.mp4", Output: out},
		"another video stream": {Source: s, VideoStream: 2, Output: out},
		"a segment":            {Source: s, Segment: &SegmentPlan{Index: 0, Count: 2}, Output: out},
	} {
		var fe *field.Error
		if err := o.Validate(); !errors.As(err, &fe) || fe.Field != "video.Options.Source" {
			t.Errorf("%s: %v, want a field error naming video.Options.Source", name, err)
		}
	}
	if err := (Options{Source: s, Input: in, VideoStream: 1, Output: out}).Validate(); err != nil {
		t.Errorf("the Source's own input and stream: %v", err)
	}
}

// mustOpen opens path's best video stream, closed when the test ends.
func mustOpen(t *testing.T, path string) *Source {
	t.Helper()
	s, err := Open(t.Context(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func mustProbe(t *testing.T, path string) Info {
	t.Helper()
	info, err := Probe(t.Context(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
