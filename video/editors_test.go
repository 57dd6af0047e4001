package video

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/internal/field"
)

// The editors' intra codecs: ProRes and DNxHR at each kind of profile, from 8- and 10-bit
// sources. The overlay draws on 4:2:0 frames, converted after it to the profile's format;
// ffprobe finds the codec, the profile, the pixel format, the source's colour tags and
// timecode, and every frame; the drawn rectangle is where and what it should be.
func TestEditorsCodecs(t *testing.T) {
	tags := []string{"-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-timecode", "01:00:00:00", "-c:a", "aac"}
	in8 := ffmpegClip(t, "in8.mov", append([]string{"-c:v", "libx264", "-pix_fmt", "yuv420p"}, tags...)...)
	in10 := ffmpegClip(t, "in10.mov", append([]string{"-c:v", "libx264", "-pix_fmt", "yuv420p10le"}, tags...)...)
	for _, tc := range []struct {
		encoder, profile, in string
		codec, wantProfile   string
		pixFmt               string
		picture              bool // check the picture: a high-quality profile from the 8-bit clip
	}{
		{"prores_ks", "", in8, "prores", "HQ", "yuv422p10le", true},
		{"prores_ks", "proxy", in8, "prores", "Proxy", "yuv422p10le", false}, // proxy quality: MSE 26
		{"prores_ks", "4444", in10, "prores", "4444", "yuv444p12le", false},  // FFmpeg decodes ProRes 4444 to 12-bit
		{"dnxhd", "", in8, "dnxhd", "DNXHR HQ", "yuv422p", true},
		{"dnxhd", "dnxhr_hqx", in10, "dnxhd", "DNXHR HQX", "yuv422p10le", false},
		{"dnxhd", "", in10, "dnxhd", "DNXHR HQX", "yuv422p10le", false},    // a 10-bit source stays 10-bit
		{"dnxhd", "dnxhr_hq", in10, "dnxhd", "DNXHR HQ", "yuv422p", false}, // unless an 8-bit profile is asked for
	} {
		name := tc.encoder + " " + tc.profile
		t.Run(name, func(t *testing.T) {
			if astiav.FindEncoderByName(tc.encoder) == nil {
				t.Skipf("this FFmpeg has no %s encoder (the portable build leaves it out: docs/gpu.md)", tc.encoder)
			}
			out := filepath.Join(t.TempDir(), "out.mov")
			_, err := Transcode(context.Background(), Options{Input: tc.in, Output: out, Encoder: tc.encoder, Profile: tc.profile},
				func(n int, f composite.Surface) error { return fillRect(f, map[string]int{}) })
			if err != nil {
				t.Fatal(err)
			}
			var video *probeStream
			streams := probeStreams(t, out)
			for i := range streams {
				if streams[i].CodecType == "video" {
					video = &streams[i]
					break
				}
			}
			if video == nil || video.CodecName != tc.codec || video.Profile != tc.wantProfile || video.PixFmt != tc.pixFmt {
				t.Fatalf("video stream %+v; want %s %s %s", video, tc.codec, tc.wantProfile, tc.pixFmt)
			}
			if video.ColorSpace != "bt709" || video.ColorPrimaries != "bt709" || video.ColorTransfer != "bt709" {
				t.Errorf("colour tags %s/%s/%s, want the source's bt709", video.ColorSpace, video.ColorPrimaries, video.ColorTransfer)
			}
			if tc := video.Tags["timecode"]; tc != "01:00:00:00" {
				t.Errorf("timecode %q, want the source's 01:00:00:00", tc)
			}
			if n := len(videoPTS(t, out)); n != clipFrames {
				t.Errorf("%d frames, want %d", n, clipFrames)
			}
			if tc.picture {
				checkRect(t, tc.in, out, 10, true)
			}
		})
	}
}

// What the editors' codecs cannot do is refused before any work, naming the option.
func TestEditorsCodecOptions(t *testing.T) {
	for _, tc := range []struct {
		o     Options
		field string
		want  string
	}{
		{Options{Encoder: "prores_ks", CRF: 20}, "video.Options.CRF", "profile"},
		{Options{Encoder: "prores_ks", Bitrate: 1e8}, "video.Options.Bitrate", "profile"},
		{Options{Encoder: "dnxhd", Lossless: true}, "video.Options.Lossless", "not dnxhd"},
		{Options{Encoder: "prores_ks", Preset: "fast"}, "video.Options.Preset", "no presets"},
		{Options{Encoder: "libx264", Profile: "hq"}, "video.Options.Profile", "prores_ks and dnxhd"},
		{Options{Encoder: "dnxhd", Profile: "hq"}, "video.Options.Profile", "dnxhr_hq"},
		{Options{Encoder: "prores_ks", Output: "out.mp4"}, "video.Options.Output", "cannot hold ProRes video (use .mov or .mkv)"},
		{Options{Encoder: "dnxhd", Segment: &SegmentPlan{}}, "video.Options.Encoder", "segments are MP4, which cannot hold DNxHR"},
	} {
		tc.o.Input = "in.mp4"
		if tc.o.Output == "" {
			tc.o.Output = "out.mov"
		}
		err := tc.o.Validate()
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %s saying %q", tc.o, err, tc.field, tc.want)
		}
	}
}

// A container that cannot hold the video is refused before any work, naming the codec the
// render would write and the containers that hold it. Layers' codecs were called H.264
// ("the matroska container cannot hold H.264 video" for qtrle), and VP9 in .mov, which
// MOV's codec list has but its header refuses, failed after the work had started.
func TestContainerNamesTheCodec(t *testing.T) {
	for _, m := range []string{"mp4", "mov", "matroska", "webm", "image2"} {
		if astiav.FindOutputFormat(m) == nil {
			t.Skipf("this FFmpeg has no %s muxer: the containers named differ", m) // the kit's
		}
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Layer: true, Encoder: "qtrle", Output: "x.mkv"}, "the matroska container cannot hold QuickTime Animation (qtrle) video (use .mov)"},
		{Options{Layer: true, Encoder: "qtrle", Output: "x.webm"}, "the webm container cannot hold QuickTime Animation (qtrle) video (use .mov)"},
		{Options{Layer: true, Encoder: "libvpx-vp9", Output: "x.mov"}, "the mov container cannot hold VP9 video (use .mp4, .mkv or .webm)"},
		{Options{Output: "x.webm"}, "the webm container cannot hold H.264 video (use .mp4, .mov or .mkv)"},
		{Options{Encoder: "libx265", Output: "x.webm"}, "the webm container cannot hold HEVC video (use .mp4, .mov or .mkv)"},
		{Options{Output: "f_%04d.png"}, "the image2 container cannot hold H.264 video (use .mp4, .mov or .mkv); a numbered picture sequence is written by a layer-only render"},
		{Options{Encoder: "dnxhd", Output: "x.mkv"}, "the matroska container cannot hold DNxHR video (use .mov)"},
	} {
		if tc.o.Layer && layerUnbuilt(tc.o.Output, tc.o.Encoder) != "" ||
			!tc.o.Layer && astiav.FindEncoderByName(cmpOr(tc.o.Encoder, "libx264")) == nil {
			continue // the kit's FFmpeg: the missing encoder or muxer is the error
		}
		tc.o.Input = "in.mp4"
		err := tc.o.Validate()
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Field != "video.Options.Output" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("layer %t, encoder %q, output %s: %v; want video.Options.Output saying %q", tc.o.Layer, tc.o.Encoder, tc.o.Output, err, tc.want)
		}
	}
}

// An editor's encoder that cannot code the video's size is refused before any frame, as
// a mistake naming --encoder: DNxHR under 256 × 120, a prores_aw layer of an odd width.
// Both failed once the encoder opened, with FFmpeg's words.
func TestEditorsCodecsRefuseSizesTheyCannotCode(t *testing.T) {
	small := ffmpegClip(t, "small.mov", "-c:v", "libx264", "-vf", "scale=160:90", "-c:a", "aac")
	odd := ffmpegClip(t, "odd.mkv", "-c:v", "libx264", "-vf", "scale=161:120", "-pix_fmt", "yuv444p", "-c:a", "aac")
	for _, tc := range []struct {
		in, output, encoder string
		layer               bool
		says                string
	}{
		{small, "out.mov", "dnxhd", false, "dnxhd codes frames of 256 × 120 or more"},
		{odd, "layer.mov", "prores_aw", true, "prores_aw codes frames of an even width only, and this video is 161 wide"},
	} {
		t.Run(tc.encoder, func(t *testing.T) {
			if astiav.FindEncoderByName(tc.encoder) == nil {
				t.Skipf("this FFmpeg has no %s encoder", tc.encoder)
			}
			out := filepath.Join(t.TempDir(), tc.output)
			_, err := Transcode(context.Background(), Options{Input: tc.in, Output: out, Encoder: tc.encoder, Layer: tc.layer},
				func(n int, f composite.Surface) error { return nil })
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Field != "video.Options.Encoder" || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v; want video.Options.Encoder saying %q", err, tc.says)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the output was left: %v", err)
			}
		})
	}
}
