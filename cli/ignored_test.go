package cli

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/internal/mediatest"
	"trackink/options"
	"trackink/scene"
)

// Flags that were silently ignored or changed meaning are refused, exit 2 naming the flag,
// before any work; .ndjson is JSON Lines to --save-tracks as it is to the readers.
func TestFlagsNotIgnored(t *testing.T) {
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(tracks, []byte("1,1,10,10,20,40,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.mp4")
	clip := mediatest.Clip(t, "mp4") // opened by the checks, never rendered
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--detect", "motion", "--frame-offset", "5"}, "--frame-offset"},
		{[]string{"--detect", "motion", "--tracks-size", "1920x1080"}, "--tracks-size"},
		{[]string{"--tracks", tracks, "--crf", "20", "--bitrate", "2000000"}, "--crf and --bitrate"},
		{[]string{"--tracks", tracks, "--box-effect", "invert", "--effect-strength", "5"}, "invert takes no strength"},
	} {
		args := append([]string{"render", "-i", clip, "-o", out}, c.args...)
		code, _, stderr := trackink(args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %s", c.args, code, stderr, c.want)
		}
	}
	for _, name := range []string{"t.ndjson", "t.NDJSON", "t.jsonl"} {
		if f, err := options.TracksFormat("--save-tracks", name); err != nil || f != scene.FormatJSONL {
			t.Errorf("%s: %v, %v; want JSON Lines", name, f, err)
		}
	}
}

// videoFlagValues are a value each flag of videoOnlyFlags takes.
var videoFlagValues = map[string]string{"start": "3", "end": "4", "frame-offset": "100", "video-stream": "1", "orientation": "stored",
	"odd-size": "crop", "hwaccel": "none", "encoder": "libx264", "profile": "hq", "crf": "3", "preset": "slow",
	"bitrate": "100000", "lossless": "true", "threads": "2"}

// TestPreviewRefusesEncodingFlags: a video's preview (-o PICTURE) refuses the flags that only
// shape the encoded video, naming the flag, exit 2 (it dropped them unsaid: --crf 3 gave the
// picture of --crf 51); it keeps those that choose the frame and how it is decoded, and demo
// -o PICTURE, which passes its --preset on only to a video, still draws its frame.
func TestPreviewRefusesEncodingFlags(t *testing.T) {
	dir := t.TempDir()
	clip, tracks, out := mediatest.Clip(t, "mp4"), writeFile(t, dir, "t.txt", "1,1,10,10,20,40,1,-1,-1,-1\n"), filepath.Join(dir, "p.png")
	kept := map[string]string{"frame-offset": "0", "start": "2", "end": "4"} // within the clip
	for _, name := range videoOnlyFlags {
		value := cmp.Or(kept[name], videoFlagValues[name])
		args := []string{"render", "-i", clip, "--tracks", tracks, "--frame", "3", "-o", out, "-y", "--" + name + "=" + value}
		code, _, stderr := trackink(args...)
		if slices.Contains(encodingFlags, name) {
			if want := "--" + name + " shapes the encoded video"; code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, %q; want 2 saying %q", args[1:], code, stderr, want)
			}
		} else if code != 0 {
			t.Errorf("%v: exit %d, %q; want the preview, which it changes", args[1:], code, stderr)
		}
	}
	demo := filepath.Join(dir, "demo.png")
	if code, _, stderr := trackink("demo", "--frames", "1", "--width", "64", "--height", "48", "-o", demo); code != 0 {
		t.Errorf("demo -o %s: exit %d, %q", demo, code, stderr)
	}
}

// TestPictureRefusesVideoFlags: a picture drawn on a canvas or on -i PICTURE refuses the
// flags of a video's frames and encoding, naming the flag, exit 2; it drew as if they were
// not given (--frame 150 --frame-offset 100 drew tracks frame 150, not 50).
func TestPictureRefusesVideoFlags(t *testing.T) {
	dir := t.TempDir()
	tracks, pic, out := filepath.Join(dir, "t.txt"), filepath.Join(dir, "in.png"), filepath.Join(dir, "o.png")
	os.WriteFile(tracks, []byte("1,1,10,10,20,40,1,-1,-1,-1\n"), 0o644)
	writePicture(t, pic, 32, 24)
	values := videoFlagValues
	for _, in := range [][]string{{"--width", "32", "--height", "24"}, {"-i", pic}} {
		for _, name := range videoOnlyFlags {
			want := "--" + name + " is for a video: drawn on a picture"
			if name == "frame-offset" {
				want = "for video frame 150 with --frame-offset 100, give --frame 50"
			}
			args := append([]string{"render", "--tracks", tracks, "--frame", "150", "-o", out, "--" + name + "=" + values[name]}, in...)
			if code, _, stderr := trackink(args...); code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, %q; want 2 saying %q", args[1:], code, stderr, want)
			}
		}
	}
	if len(values) != len(videoOnlyFlags) {
		t.Errorf("values for %d flags, want the %d of videoOnlyFlags", len(values), len(videoOnlyFlags))
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a picture was written")
	}
}

// Messages say what is wrong in the user's words, naming the file or the flag, not the
// library's fields or a stage that is not at fault.
func TestMessagesInUsersWords(t *testing.T) {
	dir := t.TempDir()
	clip := mediatest.Clip(t, "mkv")
	full, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.mkv")
	if err := os.WriteFile(cut, full[:1500], 0o644); err != nil { // the header, no frame
		t.Fatal(err)
	}
	tracks := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(tracks, []byte("1,1,10,10,20,40,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yolo := filepath.Join(dir, "labels")
	if err := os.MkdirAll(yolo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(yolo, "clip_1.txt"), []byte("0 0.5 0.5 0.2 0.3 0.9 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"render", "-i", cut, "--tracks", tracks, "-o", filepath.Join(dir, "a.mp4")}, cut + ": the video stream gives no picture", "encoder"},
		{[]string{"track", "-i", cut, "-o", filepath.Join(dir, "a.txt")}, cut + ": the video stream gives no picture", "pixel format"},
		{[]string{"eval", "--gt", tracks, "--tracks", yolo}, "give the video with -i, or --width and --height", "Options.Width"},
		{[]string{"render", "-i", cut, "--tracks", tracks, "--line-width", "1e308", "-o", filepath.Join(dir, "b.mp4")}, `--line-width "1e308": is out of range`, "not a number"},
	} {
		code, _, stderr := trackink(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, c.not) {
			t.Errorf("%v: exit %d, %q; want %q, not %q", c.args, code, stderr, c.want, c.not)
		}
	}
}

// TestSizeFlagsWithInput: --width or --height with -i, which sizes the picture, is refused,
// exit 2 naming both; tracks, eval and render took -i's size and dropped them unsaid.
func TestSizeFlagsWithInput(t *testing.T) {
	dir := t.TempDir()
	clip, tracks := mediatest.Clip(t, "mp4"), writeFile(t, dir, "t.txt", "1,1,10,10,20,40,1,-1,-1,-1\n")
	for _, cmd := range [][]string{
		{"tracks", tracks, "-i", clip},
		{"eval", "--gt", tracks, "--tracks", tracks, "-i", clip},
		{"render", "--tracks", tracks, "-i", clip, "-o", filepath.Join(dir, "o.mp4")},
	} {
		for _, size := range [][]string{{"--width", "640"}, {"--height", "480"}, {"--width", "640", "--height", "480"}} {
			args := append(slices.Clone(cmd), size...)
			want := "-i " + clip + " and " + size[0] + ": give one"
			if code, _, stderr := trackink(args...); code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, %q; want 2 saying %q", args, code, stderr, want)
			}
		}
	}
}

// TestTunersNeedWhatTheyTune: a flag that only tunes another's drawing, given while that
// drawing is off (a spiral's turns without --link-shape spiral), is refused naming both,
// exit 2: it changed nothing, without a word (a byte-identical picture). With what it
// tunes on, from the command line or a look, it draws.
func TestTunersNeedWhatTheyTune(t *testing.T) {
	dir := t.TempDir()
	out, style := filepath.Join(dir, "p.png"), writeFile(t, dir, "s.toml", "link-turns = 2\nsort-range = \"0.1,0.9\"\necho-decay = 0.5\n")
	words := writeFile(t, dir, "words.txt", "alpha\nbeta\n")
	noLabels := writeFile(t, dir, "quiet.toml", "no-labels = true\nlabel-size = 20\n")
	for _, c := range []struct {
		args []string
		want string // "" for a picture
	}{
		{[]string{"--link-turns", "2"}, "--link-turns tunes what --link-shape spiral draws"},
		{[]string{"--link-shape", "wave", "--link-turns", "2"}, "--link-turns tunes what --link-shape spiral draws"},
		{[]string{"--link-shape", "spiral", "--link-turns", "2"}, ""},
		{[]string{"--link-freq", "5"}, "--link-freq tunes what --link-shape wave, elastic or swirl draws"},
		{[]string{"--link-shape", "swirl", "--link-speed", "0.1"}, ""},
		{[]string{"--link-flow", "2"}, "--link-flow tunes what --link-style dashed or dotted draws"},
		{[]string{"--echo-decay", "0.5"}, "--echo-decay tunes what --echo N draws"},
		{[]string{"--particle-seed", "3"}, "--particle-seed tunes what --particles N draws"},
		{[]string{"--effect-feather", "4"}, "--effect-feather tunes what --box-effect draws"},
		{[]string{"--look", "blob", "--effect-feather", "4"}, ""}, // the look sets invert
		{[]string{"--box-effect", "blur", "--sort-key", "hue"}, "--sort-key tunes what --box-effect sort draws"},
		{[]string{"--box-effect", "blur,sort", "--sort-key", "hue"}, ""},
		{[]string{"--box-radius", "20"}, "--box-radius tunes what --box-from radius or age draws"},
		{[]string{"--box-size", "20x40"}, "--box-size tunes what --box-from radius or age draws"},
		{[]string{"--box-from", "age", "--box-size", "20x40"}, ""},
		{[]string{"--label-outline-color", "red"}, "--label-outline-color tunes what --label-outline PX draws"},
		{[]string{"--glow-opacity", "0.2"}, "--glow-opacity tunes what --glow PX draws"},
		{[]string{"--look", "neon", "--glow-opacity", "0.2"}, ""},
		{[]string{"--grain-seed", "4"}, "--grain-seed tunes what --grain or --grain-color draws"},
		{[]string{"--grain-color", "0.1", "--grain-seed", "4"}, ""},
		{[]string{"--look", "cctv", "--grain-seed", "4"}, ""},
		{[]string{"--trail-width", "3"}, "--trail-width tunes what --trail N draws"},
		{[]string{"--trail", "10", "--trail-smooth", "2"}, ""},
		{[]string{"--bracket-length", "0.3"}, "--bracket-length tunes what --box-style corners draws"},
		{[]string{"--dash", "8,4"}, "--dash tunes what --link-style or --box-style dashed or dotted draws"},
		{[]string{"--box-style", "dashed", "--dash", "8,4"}, ""},
		{[]string{"--bend", "0.4"}, "--bend tunes what --curve-width PX or --link-shape s draws"},
		{[]string{"--link-shape", "s", "--bend", "0.4"}, ""},
		{[]string{"--point-fill-opacity", "0.5"}, "--point-fill-opacity tunes what --point-style ring, square or diamond draws"},
		{[]string{"--point-style", "plus", "--point-stroke", "2"}, ""},
		{[]string{"--look", "cctv", "--point-style", "ring", "--point-stroke", "2"}, "--point-style tunes what --point-radius PX draws"},
		{[]string{"--look", "cctv", "--point-color", "red"}, "--point-color tunes what --point-radius PX or --particles N draws"},
		{[]string{"--look", "cctv", "--particles", "2", "--point-color", "red"}, ""},
		// Looks that hide links (cctv, clean) or boxes (plexus) whole.
		{[]string{"--look", "cctv", "--links", "delaunay"}, "--links tunes what --line-width PX or --curve-width PX draws"},
		{[]string{"--look", "clean", "--link-style", "electric"}, "--link-style tunes what --line-width PX or --curve-width PX draws"},
		{[]string{"--look", "clean", "--k", "3"}, "--k tunes what --line-width PX or --curve-width PX draws"},
		{[]string{"--look", "cctv", "--line-width", "3", "--links", "delaunay", "--link-color", "red"}, ""},
		{[]string{"--look", "plexus", "--box-style", "corners"}, "--box-style tunes what --box-stroke PX draws"},
		{[]string{"--look", "plexus", "--roundness", "1"}, "--roundness tunes what --box-stroke PX, --fill-opacity O or --box-effect draws"},
		{[]string{"--look", "plexus", "--box-color", "red"}, "--box-color tunes what --box-stroke PX or --box-effect draws"},
		{[]string{"--look", "plexus", "--box-effect", "blur", "--box-color", "red", "--roundness", "1"}, ""},
		{[]string{"--fill-opacity", "0", "--fill-color", "red"}, "--fill-color tunes what --fill-opacity O draws"},
		// A strong fill's halo takes the outline's pattern: the style changes it.
		{[]string{"--box-stroke", "0", "--fill-opacity", "0.6", "--box-style", "dotted"}, ""},
		{[]string{"--box-stroke", "0", "--fill-opacity", "0.3", "--box-style", "dotted"}, "--box-style tunes what --box-stroke PX draws"},
		{[]string{"--look", "cctv", "--point-radius", "4", "--point-style", "ring", "--point-stroke", "2"}, ""},
		{[]string{"--camera-fps", "30"}, "--camera-fps tunes what --camera-name NAME draws"},
		{[]string{"--look", "neon", "--halo-opacity", "0.5"}, "--halo-opacity tunes what --halo PX (without --glow) draws"},
		// The labels' text files are read for {line} and {word} alone.
		{[]string{"--label-lines", words}, "--label-lines tunes what --label or --class-label with {line} draws"},
		// --no-labels turns off all that the label flags shape: one given beside it names both.
		{[]string{"--label-lines", words, "--label", "{id} {line}", "--no-labels"}, "shapes the labels, and --no-labels turns them off"},
		{[]string{"--no-labels", "--label-size", "20"}, "--label-size shapes the labels, and --no-labels turns them off"},
		{[]string{"--style", noLabels, "--label", "{id}"}, "--label shapes the labels, and " + noLabels + ":1 turns them off (no-labels)"},
		{[]string{"--style", noLabels}, ""},
		{[]string{"--no-labels=false", "--label-size", "20"}, ""},
		{[]string{"--label-lines", words, "--label", "{id} {line}"}, ""},
		{[]string{"--label-words", words, "--label", "{id}"}, "--label-words tunes what --label or --class-label with {word} draws"},
		{[]string{"--label-words", words, "--class-label", "person={word}"}, ""},
		// A style file is a look kept for many renders: it may hold what a render leaves off.
		{[]string{"--style", style}, ""},
		{[]string{"--style", style, "--link-shape", "wave", "--link-turns", "2"}, "--link-turns tunes"},
	} {
		args := append([]string{"render", "--scene", "seed", "--width", "96", "--height", "64", "-o", out, "-y"}, c.args...)
		code, _, stderr := trackink(args...)
		if c.want == "" && code != 0 {
			t.Errorf("%v: exit %d, %q; want the picture", c.args, code, stderr)
		}
		if c.want != "" && (code != exitUsage || !strings.Contains(stderr, c.want)) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, stderr, c.want)
		}
	}
}

// TestReaderFlagsNeedTheirFormat: a reader's flag that only one format reads, given for
// tracks of none of that format, is refused naming the flag, exit 2: the files were read as
// if it had not been given (--frame-column on JSON Lines drew the same picture). With a
// file of that format among several, it is read.
func TestReaderFlagsNeedTheirFormat(t *testing.T) {
	dir := t.TempDir()
	mot := writeFile(t, dir, "t.txt", "1,1,10,10,20,40,1,-1,-1,-1\n")
	jsonl := writeFile(t, dir, "t.jsonl", `{"frame":1,"boxes":[{"id":1,"x":10,"y":10,"w":20,"h":40}]}`+"\n")
	csv := writeFile(t, dir, "t.csv", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame\n10,10,30,50,0,0.9,1,0\n")
	broken := writeFile(t, dir, "broken.jsonl", `{"frame":1,"boxes":[]}`+"\n{\n")
	out := filepath.Join(dir, "p.png")
	for _, c := range []struct {
		args []string
		want string // "" for a picture
	}{
		{[]string{"--tracks", jsonl, "--frame-column", "frame"}, "--frame-column reads supervision CSVSink CSV, and the tracks are trackink JSON Lines"},
		{[]string{"--tracks", csv, "--frame-column", "frame"}, ""},
		{[]string{"--tracks", jsonl, "--frame-column", "frame_index"}, "--frame-column reads supervision CSVSink CSV"}, // the default's name, given
		{[]string{"--tracks", jsonl, "--drop-ignored"}, "--drop-ignored reads MOTChallenge text, and the tracks are trackink JSON Lines"},
		{[]string{"--tracks", csv, "--tracks", jsonl, "--frame-column", "frame", "--drop-ignored"},
			"--drop-ignored reads MOTChallenge text, and the tracks are supervision CSVSink CSV and trackink JSON Lines"},
		{[]string{"--tracks", mot, "--tracks", jsonl, "--drop-ignored"}, ""},
		// Refused before the file is read: its mistake on line 2 is not reached.
		{[]string{"--tracks", broken, "--drop-ignored"}, "--drop-ignored reads MOTChallenge text, and the tracks are trackink JSON Lines"},
		{[]string{"--tracks", mot, "--tracks", broken, "--frame-column", "frame"}, "--frame-column reads supervision CSVSink CSV"},
		// With --gt the column may be the ground truth's: render tells to give it there.
		{[]string{"--tracks", jsonl, "--gt", csv, "--frame-column", "frame"}, ""},
	} {
		args := append([]string{"render", "--width", "96", "--height", "64", "-o", out, "-y"}, c.args...)
		code, _, stderr := trackink(args...)
		if c.want == "" && code != 0 {
			t.Errorf("%v: exit %d, %q; want the picture", c.args, code, stderr)
		}
		if c.want != "" && (code != exitUsage || !strings.Contains(stderr, c.want)) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := trackink("tracks", jsonl, "--frame-column", "frame"); code != exitUsage || !strings.Contains(stderr, "--frame-column reads") {
		t.Errorf("tracks --frame-column on JSON Lines: exit %d, %q; want 2", code, stderr)
	}
}
