package video

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"trackink/internal/mediatest"
)

// Copied audio ends with the video: within one audio packet of the video's end, whatever
// kind of Start and End select the frames; and the join of the render's segments has the
// whole render's audio packets. A frame-number End is a time only once the decoder gives the
// frame after it, well after the demuxer has read the audio around it (the decoder's delay:
// B-frame reordering, frame threads): the audio read meanwhile went to the muxer uncut and
// ran past the video by that delay (0.55 s on OpenCV's Megamind.avi with End 100), and the
// whole render kept more audio packets than the join, which cuts where the frame table says.
func TestCopiedAudioEndsWithTheVideo(t *testing.T) {
	// 2 s of video and audio (ffmpegClip's audio stops where its 50 frames are counted, short
	// of them). At a constant 25 fps the cut, the pts of the frame after End, is the last
	// frame's end; x264's B-frames delay the decoder.
	in := clipWithAudio(t, "in.mp4", "-b:a", "64k")
	for _, c := range []struct {
		name       string
		start, end string
		length     float64 // the video's, s
	}{
		{"frame-number end", "", "30", 1.2},
		{"frame-number start and end", "11", "30", 0.8},
		{"time start, frame-number end", "0.4s", "30", 0.8},
		{"frame-number start, time end", "11", "1.2s", 0.8},
		{"time end", "", "1.2s", 1.2},
		{"frame-number end at the last frame", "", "50", 2},
		{"frame-number end past the video", "", "80", 2},
		{"no end", "", "", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{Input: in, Output: filepath.Join(t.TempDir(), "whole.mp4"), Preset: "ultrafast"}
			var err error
			if c.start != "" {
				if o.Start, err = ParsePosition(c.start); err != nil {
					t.Fatal(err)
				}
			}
			if c.end != "" {
				if o.End, err = ParsePosition(c.end); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Transcode(t.Context(), o, paintNumber); err != nil {
				t.Fatal(err)
			}
			video, audio, packet := streamEnds(t, o.Output)
			if math.Abs(video-c.length) > 0.002 {
				t.Errorf("the video ends at %.4f s, want %.4f s", video, c.length)
			}
			if math.Abs(audio-video) > packet {
				t.Errorf("the audio ends at %.4f s, the video at %.4f s: want them within one audio packet (%.4f s)", audio, video, packet)
			}
			segs, _ := renderSegments(t, o, 3)
			joined := join(t, in, segs)
			if want, got := mediatest.Packets(t, o.Output, "0:a"), mediatest.Packets(t, joined, "0:a"); !slices.Equal(got, want) {
				t.Errorf("the joined audio differs from the whole render's: %s", mediatest.Difference(want, got))
			}
		})
	}
}

// clipWithAudio makes name (its extension the container) in a temporary directory: 2 s of
// x264 video at 25 fps with AAC audio, both 2 s long, with extra ffmpeg output options.
func clipWithAudio(t *testing.T, name string, extra ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	args := append([]string{"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
		"-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac"}, extra...)
	if err := runFFmpeg(t.Context(), append(args, path)...); err != nil {
		t.Fatal(err)
	}
	return path
}

// streamEnds reads where the video at path ends (its first video stream's start time and
// duration, which in an MP4 are its edit list's), where its first audio stream ends (the
// latest end of a packet) and the longest audio packet's duration, in seconds.
func streamEnds(t *testing.T, path string) (video, audio, packet float64) {
	t.Helper()
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: ffprobe gave %q for a time: %v", path, s, err)
		}
		return f
	}
	var vs struct {
		Streams []struct {
			StartTime string `json:"start_time"`
			Duration  string `json:"duration"`
		}
	}
	probeJSON(t, &vs, "-select_streams", "v:0", "-show_entries", "stream=start_time,duration", path)
	if len(vs.Streams) != 1 {
		t.Fatalf("%s: %d video streams, want 1", path, len(vs.Streams))
	}
	video = num(vs.Streams[0].StartTime) + num(vs.Streams[0].Duration)
	var ap struct {
		Packets []struct {
			Pts      string `json:"pts_time"`
			Duration string `json:"duration_time"`
		}
	}
	probeJSON(t, &ap, "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time", path)
	if len(ap.Packets) == 0 {
		t.Fatalf("%s has no audio packets", path)
	}
	for _, p := range ap.Packets {
		d := num(p.Duration)
		audio, packet = max(audio, num(p.Pts)+d), max(packet, d)
	}
	return video, audio, packet
}
