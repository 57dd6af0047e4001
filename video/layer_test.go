package video

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/goldens"
	"trackink/internal/field"
	"trackink/internal/testdir"
	"trackink/kernels/gpu"
	"trackink/outfile"
	"trackink/overlay"

	"github.com/asticode/go-astiav"
)

// layerCases are the layer's formats as a user asks for them: the output's name, the
// encoder (auto for the name's default), what ffmpeg needs to read the alpha back, and
// whether every scene is drawn in it. A scene's drawing reaches the layer by the same path
// whatever the format, and each format's own (its pixel format, its alpha) is the same for
// every scene: the default of each kind (Y'CbCr with alpha, RGBA) takes every scene, the
// others layerShortScenes.
var layerCases = []struct {
	name, output, encoder string
	decoder               []string // ffmpeg's input options for the layer
	everyScene            bool
}{
	{"prores4444", "layer.mov", "", nil, true},
	{"png", "layer_%05d.png", "", nil, true},
	{"qtrle", "layer.mov", "qtrle", nil, false},
	{"prores_aw", "layer.mov", "prores_aw", nil, false},
	// FFmpeg's own VP9 decoder drops the alpha plane; libvpx's reads it.
	{"vp9", "layer.webm", "", []string{"-c:v", "libvpx-vp9"}, false},
}

// layerShortScenes are the scenes every layer format draws, and all that -short draws:
// overlapping translucent fills, a look's strokes, labels and links, and real footage.
var layerShortScenes = []string{"overlapping-fills", "look-default", "vtest-default"}

// layerScenes are the golden scenes the composite-back test draws: every scene blended
// with over, without box effects and without the camera look (a layer refuses the others), but for those set in
// fonts a machine may lack, on a clip of the scene's size; and the scenes drawn on real
// footage, on the footage itself (vtest.avi).
func layerScenes(t *testing.T) []goldens.Scene {
	var out []goldens.Scene
	for _, s := range goldens.Scenes {
		font, err := s.NewFont()
		if err != nil || s.Font.Path != "" || s.Width%2 == 1 || s.Height%2 == 1 {
			continue // a font this machine may lack; an odd size, which H.264 pads
		}
		p := overlay.Primitives{Font: font}
		if err := s.Draw(&p, font, s.Width, s.Height); err != nil {
			t.Fatal(err)
		}
		if p.Blend == composite.BlendOver && len(p.Effects) == 0 && !p.Camera.On() {
			out = append(out, s)
		}
	}
	return out
}

// TestLayerCompositesBack renders each layer format of golden scenes and composites it back
// over the source with FFmpeg's overlay filter (straight alpha, the layer converted to the
// source's matrix): the picture must be within 1 code value, on average over every sample,
// of trackink's own burnt-in render of the same scene (coded losslessly, so that only the
// layer's path differs). -short runs layerShortScenes alone.
func TestLayerCompositesBack(t *testing.T) {
	scenes := layerScenes(t)
	for _, name := range layerShortScenes { // each format's only scenes: a renamed one would leave it none
		if !slices.ContainsFunc(scenes, func(s goldens.Scene) bool { return s.Name == name }) {
			t.Fatalf("layerShortScenes: no layer scene %q", name)
		}
	}
	if testing.Short() {
		scenes = slices.DeleteFunc(scenes, func(s goldens.Scene) bool { return !slices.Contains(layerShortScenes, s.Name) })
	}
	const frames = 3
	sources, dir := map[string]string{}, t.TempDir() // a clip per size, shared by the scenes
	for _, s := range scenes {
		t.Run(s.Name, func(t *testing.T) {
			src := goldens.Footage
			if s.Footage == 0 {
				size := fmt.Sprintf("%dx%d", s.Width, s.Height)
				if sources[size] == "" {
					sources[size] = filepath.Join(dir, size+".mkv")
					makeSource(t, "-f", "lavfi", "-i", "testsrc2=size="+size+":rate=25", "-frames:v", strconv.Itoa(frames),
						"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-y", sources[size])
				}
				src = sources[size]
			} else if _, err := os.Stat(src); err != nil {
				t.Skipf("%s is not installed", src)
			}
			draw := func(n int, f composite.Surface) error { return goldens.DrawOn(s, f, 1, nil) }
			burnt := filepath.Join(t.TempDir(), "burnt.mkv")
			st, err := Transcode(t.Context(), Options{Input: src, Output: burnt, Lossless: true, End: Position{Frame: frames}}, draw)
			if err != nil {
				t.Fatal(err)
			}
			want := rawFrames(t, burnt, frames, nil)
			matrix, _, _ := strings.Cut(st.Color, "/")
			for _, lc := range layerCases {
				if !lc.everyScene && !slices.Contains(layerShortScenes, s.Name) {
					continue
				}
				t.Run(lc.name, func(t *testing.T) {
					skipUnlessLayerBuilt(t, lc.output, lc.encoder)
					layer := filepath.Join(t.TempDir(), lc.output)
					ls, err := Transcode(t.Context(), Options{Input: src, Output: layer, Encoder: lc.encoder, Layer: true, End: Position{Frame: frames}}, draw)
					if err != nil {
						t.Fatal(err)
					}
					if ls.Frames != frames || ls.Overlaid != frames {
						t.Fatalf("%d frames, %d drawn on; want %d", ls.Frames, ls.Overlaid, frames)
					}
					got := compositeBack(t, src, layer, lc.decoder, matrix, frames)
					mean, worst, covered := sampleDiff(got, want)
					t.Logf("%s %s: composite back differs from the burnt-in render by %.4f code values on average, %.3f where it differs, at most %d",
						s.Name, lc.name, mean, covered, worst)
					if mean > 1 {
						t.Errorf("mean difference %.3f code values, want ≤ 1", mean)
					}
				})
			}
		})
	}
}

// compositeBack composites the layer over src with FFmpeg's overlay filter and returns the
// first frames as yuv420p: the layer is read as its format says (a PNG sequence at the
// source's rate), turned into R'G'B' from BT.709 and into Y'CbCr in the source's matrix at
// limited range, and blended with straight alpha (the filter's default).
func compositeBack(t *testing.T, src, layer string, decoder []string, matrix string, frames int) []byte {
	t.Helper()
	var in []string
	if strings.Contains(layer, "%") {
		in = []string{"-framerate", probeRate(t, src)}
	}
	m := map[string]string{"bt601": "bt601", "bt709": "bt709", "bt2020": "bt2020"}[matrix]
	if m == "" {
		t.Fatalf("render colour %q: no ffmpeg matrix for it", matrix)
	}
	filter := "[1:v]scale=in_color_matrix=bt709:in_range=tv,format=gbrap,scale=out_color_matrix=" + m + ":out_range=tv,format=yuva420p[l];" +
		"[0:v][l]overlay=format=yuv420[o]"
	args := append(append([]string{"-i", src}, append(decoder, in...)...), "-i", layer, "-filter_complex", filter, "-map", "[o]")
	return rawFrames(t, "", frames, args)
}

// rawFrames decodes the first frames of path (or what args, ffmpeg's input and mapping
// options, make) to yuv420p, all in one slice.
func rawFrames(t *testing.T, path string, frames int, args []string) []byte {
	t.Helper()
	if args == nil {
		args = []string{"-i", path}
	}
	raw := filepath.Join(t.TempDir(), "frames.yuv")
	if err := runFFmpeg(t.Context(), append(args, "-frames:v", strconv.Itoa(frames), "-f", "rawvideo", "-pix_fmt", "yuv420p", "-y", raw)...); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// probeRate is the video stream's frame rate as ffprobe gives it (25/1).
func probeRate(t *testing.T, path string) string {
	t.Helper()
	var out struct {
		Streams []struct {
			Rate string `json:"r_frame_rate"`
		}
	}
	probeJSON(t, &out, "-select_streams", "v:0", "-show_streams", path)
	return out.Streams[0].Rate
}

// sampleDiff compares two pictures sample by sample: the mean absolute difference, the
// largest, and the mean over the samples that differ.
func sampleDiff(a, b []byte) (mean float64, worst int, differing float64) {
	if len(a) != len(b) {
		return 255, 255, 255
	}
	var sum, n int
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < 0 {
			d = -d
		}
		if d > 0 {
			sum += d
			n++
		}
		worst = max(worst, d)
	}
	mean = float64(sum) / float64(len(a))
	if n > 0 {
		differing = float64(sum) / float64(n)
	}
	return mean, worst, differing
}

// The layer keeps the source's timing: a variable frame rate's timestamps frame for frame,
// and with Start and End the burnt-in render's range, shifted to start at 0 as it is.
func TestLayerTimestamps(t *testing.T) {
	vfr := ffmpegClip(t, "vfr.mkv", "-vf", "select='not(eq(mod(n\\,5)\\,2))*not(eq(mod(n\\,7)\\,3))'", "-fps_mode", "vfr",
		"-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	draw := func(n int, f composite.Surface) error { return fillRect(f, map[string]int{}) }
	for _, tc := range []struct {
		name       string
		start, end Position
	}{
		{"whole", Position{}, Position{}},
		{"range", Position{Frame: 7}, Position{Time: 1500 * 1e6, IsTime: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			burnt := filepath.Join(t.TempDir(), "burnt.mkv")
			if _, err := Transcode(t.Context(), Options{Input: vfr, Output: burnt, Preset: "ultrafast", Start: tc.start, End: tc.end}, draw); err != nil {
				t.Fatal(err)
			}
			want := videoPTS(t, burnt)
			for _, out := range []string{"layer.mov", "layer.webm"} {
				skipUnlessLayerBuilt(t, out, "")
				layer := filepath.Join(t.TempDir(), out)
				if _, err := Transcode(t.Context(), Options{Input: vfr, Output: layer, Layer: true, Start: tc.start, End: tc.end}, draw); err != nil {
					t.Fatal(err)
				}
				if got := videoPTS(t, layer); !slices.Equal(got, want) {
					t.Errorf("%s: frame times %v, want the burnt-in render's %v", out, got, want)
				}
				if ss := probeStreams(t, layer); len(ss) != 1 {
					t.Errorf("%s: %d streams, want the layer's alone", out, len(ss))
				}
			}
		})
	}
}

// A PNG sequence is named by the video's frame numbers, appears whole, is not written over
// without Overwrite, and with it replaces the old sequence whole.
func TestLayerSequence(t *testing.T) {
	in := ffmpegClip(t, "in.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	dir := t.TempDir()
	pattern := filepath.Join(dir, "layer_%05d.png")
	skipUnlessLayerBuilt(t, pattern, "")
	draw := func(n int, f composite.Surface) error { return nil }
	names := func() []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range entries {
			n = append(n, e.Name())
		}
		return n
	}
	run := func(start, end int, overwrite bool) error {
		_, err := Transcode(t.Context(), Options{Input: in, Output: pattern, Layer: true, Overwrite: overwrite,
			Start: Position{Frame: start}, End: Position{Frame: end}}, draw)
		return err
	}
	if err := run(5, 14, false); err != nil {
		t.Fatal(err)
	}
	var want []string
	for n := 5; n <= 14; n++ {
		want = append(want, fmt.Sprintf("layer_%05d.png", n))
	}
	if got := names(); !slices.Equal(got, want) {
		t.Fatalf("wrote %v, want %v", got, want)
	}
	if s := probeStreams(t, filepath.Join(dir, want[0])); len(s) != 1 || s[0].PixFmt != "rgba" {
		t.Errorf("picture %+v, want one rgba stream", s)
	}
	if err := run(1, 5, false); !errors.Is(err, outfile.ErrExists) {
		t.Errorf("a sequence over an existing one without Overwrite: %v, want outfile.ErrExists", err)
	}
	if got := names(); !slices.Equal(got, want) {
		t.Fatalf("a refused render left %v, want %v", got, want)
	}
	if err := run(5, 8, true); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, want[:4]) {
		t.Errorf("replacing the sequence left %v, want %v", got, want[:4])
	}
}

// A sequence's own pictures are the names image2 writes for its pattern
// (outfile.SequencePictures): a render without Overwrite is refused over any of them and
// leaves other files alone; one with Overwrite leaves exactly the new pictures of them, the
// rest of the directory as it was. a_%05d.png was once refused over a_1.png, which -y
// then kept, and -y kept b_7.png after a render of b_1..b_3 (only pictures next after the
// new last went).
func TestLayerSequenceOwnPictures(t *testing.T) {
	in := ffmpegClip(t, "in.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	skipUnlessLayerBuilt(t, "x_%05d.png", "")
	for _, tc := range []struct {
		name       string
		old        []string // the directory's files before
		pattern    string
		start, end int
		refused    bool     // without Overwrite
		after      []string // with Overwrite
	}{
		{"another width's pictures stay", []string{"a_1.png", "a_2.png", "a_3.png"}, "a_%05d.png", 1, 2, false,
			[]string{"a_00001.png", "a_00002.png", "a_1.png", "a_2.png", "a_3.png"}},
		{"padded pictures are not an unpadded sequence's", []string{"st_00120.png"}, "st_%d.png", 1, 2, false,
			[]string{"st_00120.png", "st_1.png", "st_2.png"}},
		{"a lone picture past the new last", []string{"b_7.png"}, "b_%d.png", 1, 3, true,
			[]string{"b_1.png", "b_2.png", "b_3.png"}},
		{"pictures before the new first and past a gap", []string{"c_00001.png", "c_00002.png", "c_00009.png"}, "c_%05d.png", 5, 6, true,
			[]string{"c_00005.png", "c_00006.png"}},
		{"the same pictures", []string{"d_1.png", "d_2.png"}, "d_%d.png", 1, 2, true,
			[]string{"d_1.png", "d_2.png"}},
		{"other files beside", []string{"e_00003.jpg", "e_00003.png.bak", "e_000003.png", "notes.txt"}, "e_%05d.png", 1, 2, false,
			[]string{"e_00001.png", "e_00002.png", "e_000003.png", "e_00003.jpg", "e_00003.png.bak", "notes.txt"}},
	} {
		for _, overwrite := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, overwrite %v", tc.name, overwrite), func(t *testing.T) {
				dir := t.TempDir()
				for _, name := range tc.old {
					if err := os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				_, err := Transcode(t.Context(), Options{Input: in, Output: filepath.Join(dir, tc.pattern), Layer: true,
					Overwrite: overwrite, Start: Position{Frame: tc.start}, End: Position{Frame: tc.end}},
					func(int, composite.Surface) error { return nil })
				want := tc.after
				if !overwrite {
					if got := errors.Is(err, outfile.ErrExists); got != tc.refused {
						t.Fatalf("without Overwrite: %v, refused: %v, want %v", err, got, tc.refused)
					}
					if want = tc.old; !tc.refused {
						want = tc.after // the same new pictures, the old left alone
					}
				} else if err != nil {
					t.Fatal(err)
				}
				testdir.Holds(t, dir, want...)
				first := filepath.Join(dir, fmt.Sprintf(tc.pattern, tc.start))
				if b, err := os.ReadFile(first); (overwrite || !tc.refused) && (err != nil || string(b) == "old") {
					t.Errorf("%s is not the new picture: %q, %v", first, b, err)
				}
			})
		}
	}
}

// A rotated video's layer is drawn and written upright, as the burnt-in render is seen
// played, with no display matrix; drawn on the stored frame (Stored) it keeps the matrix.
func TestLayerRotated(t *testing.T) {
	plain := ffmpegClip(t, "plain.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	in := filepath.Join(t.TempDir(), "rot.mp4")
	if err := runFFmpeg(t.Context(), "-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=90", in); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		orientation Orientation
		output      string
		w, h, rot   int
		warned      bool // that the output cannot say the source's turn
	}{
		{Displayed, "layer.mov", clipH, clipW, 0, false},
		{Stored, "layer.mov", clipW, clipH, displayRotation(t, in), false},
		{Displayed, "layer.webm", clipH, clipW, 0, false},
		// Matroska, WebM and pictures hold no display matrix: the layer lies turned over
		// the video as shown, which is said.
		{Stored, "layer.webm", clipW, clipH, 0, true},
		{Stored, "layer_%03d.png", clipW, clipH, 0, true},
	} {
		t.Run(tc.orientation.String()+"/"+strings.ReplaceAll(tc.output, "%", ""), func(t *testing.T) { // a % in the temporary folder would be a pattern
			skipUnlessLayerBuilt(t, tc.output, "")
			out := filepath.Join(t.TempDir(), tc.output)
			st, err := Transcode(t.Context(), Options{Input: in, Output: out, Layer: true, Orientation: tc.orientation},
				func(n int, f composite.Surface) error {
					if w, h := f.Size(); w != tc.w || h != tc.h {
						return fmt.Errorf("drawing on %dx%d, want %dx%d", w, h, tc.w, tc.h)
					}
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if warned := strings.Contains(strings.Join(st.Warnings, "\n"), "cannot say so"); warned != tc.warned {
				t.Errorf("warned of the turn lost: %v, want %v (%q)", warned, tc.warned, st.Warnings)
			}
			if strings.Contains(tc.output, "%") {
				return
			}
			s := probeStreams(t, out)[0]
			if s.Width != tc.w || s.Height != tc.h || displayRotation(t, out) != tc.rot {
				t.Errorf("layer %dx%d turned %d°, want %dx%d turned %d°", s.Width, s.Height, displayRotation(t, out), tc.w, tc.h, tc.rot)
			}
		})
	}
}

// Each container says what the layer is: the codec and profile, the pixel format with alpha,
// BT.709 limited range for Y'CbCr (sRGB for RGB), the encoder, the source's timecode (which
// QuickTime writes as a timecode track of its own); VP9's alpha flag.
func TestLayerStreams(t *testing.T) {
	in := ffmpegClip(t, "in.mov", "-c:v", "libx264", "-preset", "ultrafast", "-timecode", "01:00:00:00", "-c:a", "aac")
	for _, tc := range []struct {
		output, encoder               string
		codec, profile, pixFmt, space string
		tag, tagValue                 string
	}{
		{"l.mov", "", "prores", "4444", "yuva444p12le", "bt709", "timecode", "01:00:00:00"}, // FFmpeg decodes ProRes 4444 to 12-bit
		{"l.mov", "prores_aw", "prores", "4444", "yuva444p12le", "bt709", "timecode", "01:00:00:00"},
		{"l.mov", "qtrle", "qtrle", "", "argb", "gbr", "timecode", "01:00:00:00"},
		{"l.webm", "", "vp9", "Profile 0", "yuv420p", "bt709", "alpha_mode", "1"}, // the alpha plane is side data FFmpeg's vp9 decoder skips
	} {
		t.Run(tc.codec+tc.encoder, func(t *testing.T) {
			skipUnlessLayerBuilt(t, tc.output, tc.encoder)
			out := filepath.Join(t.TempDir(), tc.output)
			if _, err := Transcode(t.Context(), Options{Input: in, Output: out, Encoder: tc.encoder, Layer: true}, func(int, composite.Surface) error { return nil }); err != nil {
				t.Fatal(err)
			}
			ss := probeStreams(t, out)
			s := ss[0]
			if s.CodecName != tc.codec || s.Profile != tc.profile || s.PixFmt != tc.pixFmt || s.ColorSpace != tc.space || s.Tags[tc.tag] != tc.tagValue {
				t.Errorf("stream %+v; want %s %s %s in %s with %s %s", s, tc.codec, tc.profile, tc.pixFmt, tc.space, tc.tag, tc.tagValue)
			}
			enc := cmp.Or(tc.encoder, map[string]string{"prores": "prores_ks", "vp9": "libvpx-vp9"}[tc.codec])
			if e := cmp.Or(s.Tags["encoder"], s.Tags["ENCODER"]); !strings.HasSuffix(e, " "+enc) {
				t.Errorf("encoder tag %q, want one naming %s", e, enc)
			}
			for _, other := range ss[1:] {
				if other.CodecType != "data" || other.Tags["timecode"] != "01:00:00:00" {
					t.Errorf("a stream other than the layer and its timecode track: %+v", other)
				}
			}
			if tc.space == "bt709" && (s.ColorRange != "tv" || s.ColorPrimaries != "bt709" || s.ColorTransfer != "bt709") {
				t.Errorf("colour %s %s %s, want tv bt709 bt709", s.ColorRange, s.ColorPrimaries, s.ColorTransfer)
			}
		})
	}
}

// The layer's options are checked before any work, naming the option.
func TestLayerOptions(t *testing.T) {
	for _, tc := range []struct {
		o     Options
		field string
		want  string
	}{
		{Options{Output: "out.mp4"}, "video.Options.Output", ".mov or .mkv (ProRes 4444), .webm (VP9)"},
		{Options{Output: "out.png"}, "video.Options.Output", "numbered"},
		{Options{Output: "out.mov", Encoder: "libx264"}, "video.Options.Encoder", "codes no alpha"},
		{Options{Output: "out.mov", Profile: "hq"}, "video.Options.Profile", "4444 or 4444xq"},
		{Options{Output: "out.webm", Profile: "4444"}, "video.Options.Profile", "not libvpx-vp9"},
		{Options{Output: "out.mov", Encoder: "prores_aw", Profile: "lt"}, "video.Options.Profile", "codes no alpha"},
		{Options{Output: "out.mov", CRF: 20}, "video.Options.CRF", "libvpx-vp9"},
		{Options{Output: "out.mov", Preset: "fast"}, "video.Options.Preset", "no presets"},
		{Options{Output: "out.mov", Lossless: true}, "video.Options.Lossless", "lossless"},
		{Options{Output: "f_%05d.png", Encoder: "prores_ks"}, "video.Options.Encoder", "PNG"},
		{Options{Output: "out.mp4", Encoder: "qtrle"}, "video.Options.Output", "cannot hold"},
		{Options{Output: "out.mov", Segment: &SegmentPlan{}}, "video.Options.Segment", "segments"},
	} {
		if layerUnbuilt(tc.o.Output, tc.o.Encoder) != "" {
			continue // the kit's FFmpeg: the missing encoder or muxer is the error
		}
		tc.o.Input, tc.o.Layer = "in.mp4", true
		err := tc.o.Validate()
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %s saying %q", tc.o, err, tc.field, tc.want)
		}
	}
	for _, ok := range []Options{{Output: "l.mov"}, {Output: "l.mov", Encoder: "qtrle"}, {Output: "l.webm", CRF: 30},
		{Output: "l_%04d.png"}, {Output: "l.mov", Profile: "4444xq"}, {Output: "l.mov", Encoder: "prores_aw", Profile: "4444xq"}} {
		if layerUnbuilt(ok.Output, ok.Encoder) != "" {
			continue
		}
		ok.Input, ok.Layer = "in.mp4", true
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

// Frames the DrawFunc is not called on (before the tracks start, Options.FrameOffset) are
// transparent, and the frames it draws on hold what it drew, with straight alpha.
func TestLayerUndrawnFramesTransparent(t *testing.T) {
	in := ffmpegClip(t, "in.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	dir := t.TempDir()
	skipUnlessLayerBuilt(t, "l_%02d.png", "")
	st, err := Transcode(t.Context(), Options{Input: in, Output: filepath.Join(dir, "l_%02d.png"), Layer: true, FrameOffset: 3, End: Position{Frame: 5}},
		func(n int, f composite.Surface) error {
			l := f.(*composite.RGBA)
			copy(l.Pix[4*(10*l.W+20):], []byte{64, 32, 0, 128}) // pixel (20, 10): premultiplied half orange
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if st.Frames != 5 || st.Overlaid != 2 {
		t.Fatalf("%d frames, %d drawn on; want 5 and 2", st.Frames, st.Overlaid)
	}
	for v := 1; v <= 5; v++ {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("l_%02d.png", v)))
		if err != nil {
			t.Fatal(err)
		}
		m, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		img := m.(*image.NRGBA)
		drawn := 0
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] != 0 {
				drawn++
			}
		}
		want, px := 0, img.NRGBAAt(20, 10)
		if v > 3 {
			want = 1
			if px != (color.NRGBA{128, 64, 0, 128}) {
				t.Errorf("frame %d: pixel %v, want straight {128 64 0 128}", v, px)
			}
		}
		if drawn != want {
			t.Errorf("frame %d: %d pixels not transparent, want %d", v, drawn, want)
		}
	}
}

// A layer render's PNG sequence is the layer golden, drawn by the CPU renderer or by the GPU
// backend on the emulated device (what --backend cuda runs): alpha and premultiplied colour
// within goldens.Tolerance and the device's 1 code value.
func TestLayerGoldenThroughPipeline(t *testing.T) {
	for _, backend := range []struct {
		name string
		new  overlay.NewBackend
		tol  int
	}{{"cpu", nil, goldens.Tolerance}, {"emu", gpu.NewEmu, 1}} {
		for _, name := range goldens.LayerScenes {
			t.Run(backend.name+"/"+name, func(t *testing.T) {
				s, err := goldens.SceneNamed(name)
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				src := filepath.Join(dir, "src.mkv")
				makeSource(t, "-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=25", s.Width, s.Height), "-frames:v", "1",
					"-c:v", "libx264", "-preset", "ultrafast", "-y", src)
				skipUnlessLayerBuilt(t, "l_%d.png", "")
				if _, err := Transcode(t.Context(), Options{Input: src, Output: filepath.Join(dir, "l_%d.png"), Layer: true},
					func(n int, f composite.Surface) error { return goldens.DrawOn(s, f, 1, backend.new) }); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(filepath.Join(dir, "l_1.png"))
				if err != nil {
					t.Fatal(err)
				}
				m, err := png.Decode(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				worst, over, err := goldens.CheckLayer(filepath.Join("..", "goldens", "testdata"), name, m.(*image.NRGBA), backend.tol, false)
				if err != nil {
					t.Fatal(err)
				}
				if over > 0 {
					t.Errorf("%d pixels differ from the layer golden by more than %d (largest %d)", over, backend.tol, worst)
				}
			})
		}
	}
}

// The layer does not depend on the source's colour: drawn over a BT.601 limited-range clip
// and over a BT.709 full-range one of the same size, it is the same, byte for byte.
func TestLayerIgnoresSourceColour(t *testing.T) {
	s, err := goldens.SceneNamed("overlapping-fills")
	if err != nil {
		t.Fatal(err)
	}
	var layers [][]byte
	for i, tags := range [][]string{
		{"-pix_fmt", "yuv420p", "-colorspace", "bt470bg", "-color_range", "tv"},
		{"-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_range", "pc"},
	} {
		dir := t.TempDir()
		src := filepath.Join(dir, "src.mkv")
		makeSource(t, append(append([]string{"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=25", s.Width, s.Height), "-frames:v", "2",
			"-c:v", "libx264", "-preset", "ultrafast"}, tags...), "-y", src)...)
		skipUnlessLayerBuilt(t, "layer.mov", "qtrle")
		out := filepath.Join(dir, "layer.mov")
		if _, err := Transcode(t.Context(), Options{Input: src, Output: out, Layer: true, Encoder: "qtrle"},
			func(n int, f composite.Surface) error { return goldens.DrawOn(s, f, 1, nil) }); err != nil {
			t.Fatal(err)
		}
		raw := filepath.Join(dir, "layer.rgba")
		if err := runFFmpeg(t.Context(), "-i", out, "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		if layers = append(layers, b); len(b) != 2*4*s.Width*s.Height {
			t.Fatalf("%d bytes of RGBA, want 2 frames of %dx%d", len(b), s.Width, s.Height)
		}
		if i > 0 && !slices.Equal(layers[i], layers[0]) {
			t.Errorf("the layer over the clip tagged %v differs from the one over the BT.601 limited-range clip", tags)
		}
	}
}

// skipUnlessLayerBuilt skips t where the FFmpeg linked in cannot write a layer to output with
// encoder ("" for the name's default): the portable build, which the GPU kit's tests run
// with, carries few encoders and muxers (docs/gpu.md).
func skipUnlessLayerBuilt(t testing.TB, output, encoder string) {
	t.Helper()
	if missing := layerUnbuilt(output, encoder); missing != "" {
		t.Skipf("this FFmpeg has no %s (the portable build leaves it out: docs/gpu.md)", missing)
	}
}

// layerUnbuilt names the encoder or muxer a layer to output with encoder needs that the
// FFmpeg linked in lacks; "" when it has both (or the options are the caller's mistake).
func layerUnbuilt(output, encoder string) string {
	lf, err := layerFormatFor(encoder, output)
	if err != nil {
		return ""
	}
	if astiav.FindEncoderByName(lf.encoder) == nil {
		return lf.encoder + " encoder"
	}
	muxer := map[string]string{".mov": "mov", ".mkv": "matroska", ".webm": "webm", ".png": "image2"}[strings.ToLower(filepath.Ext(output))]
	if muxer != "" && astiav.FindOutputFormat(muxer) == nil {
		return muxer + " muxer"
	}
	return ""
}

// A sequence written over an old run's with Overwrite, with a partner (the tracks it drew):
// the old partner is gone before any new picture takes its place, so that a run stopped
// half-way through placing its pictures (here: a name it cannot take, a directory) never
// leaves new pictures beside the old run's tracks. It once placed the sequence first.
func TestLayerSequenceDropsOldPartnersFirst(t *testing.T) {
	in := ffmpegClip(t, "in.mp4", "-c:v", "libx264", "-preset", "ultrafast")
	dir := t.TempDir()
	pattern := filepath.Join(dir, "layer_%05d.png")
	skipUnlessLayerBuilt(t, pattern, "")
	tracks := filepath.Join(dir, "tracks.txt")
	run := func() error {
		_, err := Transcode(t.Context(), Options{Input: in, Output: pattern, Layer: true, Overwrite: true,
			End: Position{Frame: 6},
			Partners: func(Stats) ([]*outfile.PartialFile, error) {
				p, err := outfile.CreatePartial(tracks)
				if err == nil {
					_, err = p.WriteString("new\n")
				}
				return []*outfile.PartialFile{p}, err
			}},
			func(int, composite.Surface) error { return nil })
		return err
	}
	if err := os.WriteFile(tracks, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Frame 4's name is a directory with a file in it: no picture can be renamed over it.
	if err := os.MkdirAll(filepath.Join(dir, "layer_00004.png", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := run(); err == nil {
		t.Fatal("placing a picture over a directory succeeded")
	}
	if b, err := os.ReadFile(tracks); err == nil {
		t.Errorf("the old run's tracks (%q) stayed beside the new pictures", b)
	}
	os.RemoveAll(filepath.Join(dir, "layer_00004.png"))
	if err := run(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(tracks); err != nil || string(b) != "new\n" {
		t.Errorf("the tracks after a whole run: %q, %v", b, err)
	}
}
