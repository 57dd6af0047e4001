package options

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/overlay"
	"trackink/scene"
)

// styleOptions returns the style render's style flags make of args: the look, the style
// file and the flags.
func styleOptions(args ...string) (overlay.Style, error) {
	var s Style
	fs := NewFlagSet("render", "", "", io.Discard)
	s.Register(fs, "knn", "default")
	if err := Parse(fs, args); err != nil {
		return overlay.Style{}, err
	}
	o, err := s.Options(fs, false)
	return o.Style, err
}

// TestDrawFlags: the drawing flags beyond the basic look from a style file and the command line reach
// the style, the looks built of them set them, and a bad value is a usage error naming the
// flag (or the style file's line).
func TestDrawFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	options := styleOptions
	os.WriteFile(file, []byte("blend = \"screen\"\nlink-fade = 300\ntrail-smooth = 2\nbox-from = \"age\"\n"), 0o644)
	if st, err := options("--box-from", "radius", "--box-size", "40×80.5"); err != nil || st.BoxSize != [2]float32{40, 80.5} {
		t.Errorf("--box-size 40×80.5: %v, %v", err, st.BoxSize)
	}
	if st, err := options("--look", "hud", "--box-size", "40X80"); err != nil || st.BoxSize != [2]float32{40, 80} {
		t.Errorf("--look hud --box-size 40X80: %v, %v", err, st.BoxSize)
	}
	// The command line's box size overrides the style file's box radius, as any key's.
	sized := filepath.Join(dir, "sized.toml")
	os.WriteFile(sized, []byte("box-from = \"radius\"\nbox-radius = 40\n"), 0o644)
	if st, err := options("--style", sized, "--box-size", "20x60"); err != nil || st.BoxSize != [2]float32{20, 60} || st.BoxRadius != overlay.Auto {
		t.Errorf("box-radius from a file, --box-size given: %v, %v, %v", err, st.BoxSize, st.BoxRadius)
	}
	os.WriteFile(sized, []byte("box-from = \"radius\"\nbox-size = \"20x60\"\n"), 0o644)
	if st, err := options("--style", sized, "--box-radius", "12"); err != nil || st.BoxSize != [2]float32{} || st.BoxRadius != 12 {
		t.Errorf("box-size from a file, --box-radius given: %v, %v, %v", err, st.BoxSize, st.BoxRadius)
	}
	st, err := options("--style", file, "--box-radius", "30", "--link-reach", "0.3", "--trail-smooth", "4")
	if err != nil || st.Blend != "screen" || st.LinkFade != 300 || st.TrailSmooth != 4 || st.BoxFrom != "age" || st.BoxRadius != 30 || st.LinkReach != 0.3 {
		t.Errorf("from a file and the command line: %v, %+v", err, st)
	}
	if st, err := options("--box-color", "Orange", "--class-colors", "person=CYAN,car=grey", "--link-color", "gradient:white,Magenta"); err != nil ||
		st.BoxColor.C != (scene.Color{R: 255, G: 165, A: 255}) || st.ClassColors["person"] != (scene.Color{G: 255, B: 255, A: 255}) ||
		st.ClassColors["car"] != (scene.Color{R: 128, G: 128, B: 128, A: 255}) || st.LinkGradientColors[1].C != (scene.Color{R: 255, B: 255, A: 255}) {
		t.Errorf("colour names in colour flags: %v, box %v, classes %v, gradient %v", err, st.BoxColor, st.ClassColors, st.LinkGradientColors)
	}
	white, black := overlay.OptionalColor{C: scene.Color{R: 255, G: 255, B: 255, A: 255}, Set: true}, overlay.OptionalColor{C: scene.Color{A: 255}, Set: true}
	for _, tc := range []struct {
		args     []string
		gradient bool
		ends     [2]overlay.OptionalColor
	}{
		{[]string{"--link-color", "gradient:#ffffff,#000000"}, true, [2]overlay.OptionalColor{white, black}},
		{[]string{"--look", "neon", "--link-color", "gradient:#000000,#ffffff"}, true, [2]overlay.OptionalColor{black, white}},
		{[]string{"--link-color", "gradient"}, true, [2]overlay.OptionalColor{}},
		{[]string{"--link-color", "#ffffff"}, false, [2]overlay.OptionalColor{}},
	} {
		st, err := options(tc.args...)
		if err != nil || st.LinkGradient != tc.gradient || st.LinkGradientColors != tc.ends || st.LinkColor.Set == tc.gradient {
			t.Errorf("%v: %v, gradient %v between %v, colour %v", tc.args, err, st.LinkGradient, st.LinkGradientColors, st.LinkColor)
		}
	}
	if st, err := options(); err != nil || st.PointStroke != overlay.Auto || st.PointFillOpacity != overlay.Auto {
		t.Errorf("the default look: %v, point stroke %g and fill %g, want auto (today's shapes)", err, st.PointStroke, st.PointFillOpacity)
	}
	os.WriteFile(file, []byte("point-fill-opacity = 0.3\npoint-stroke = 1.5\n"), 0o644)
	if st, err := options("--style", file); err != nil || st.PointStroke != 1.5 || st.PointFillOpacity != 0.3 {
		t.Errorf("point-stroke and point-fill-opacity from a style file: %v, %g, %g", err, st.PointStroke, st.PointFillOpacity)
	}
	if st, err := options("--style", file, "--point-fill-opacity", "auto"); err != nil || st.PointFillOpacity != overlay.Auto {
		t.Errorf("--point-fill-opacity auto over a style file: %v, %g", err, st.PointFillOpacity)
	}
	if st, err := options("--look", "neon", "--label-anchor", "inside-bottom", "--label-offset", "-3,2.5"); err != nil ||
		!st.Labels || st.LabelAnchor != "inside-bottom" || st.LabelOffset != [2]float32{-3, 2.5} {
		t.Errorf("--label-anchor inside-bottom --label-offset -3,2.5 over neon: %v, labels %v, anchor %q, offset %v", err, st.Labels, st.LabelAnchor, st.LabelOffset)
	}
	if st, err := options("--look", "neon"); err != nil || st.Blend != "add" || st.LinkFade != overlay.Auto {
		t.Errorf("--look neon: %v, blend %q, fade %g", err, st.Blend, st.LinkFade)
	}
	if st, err := options(); err != nil || st.LinkReach != 0.2 || st.Blend != "" {
		t.Errorf("the default look: %v, reach %g (want a fifth of the width), blend %q", err, st.LinkReach, st.Blend)
	}
	for _, tc := range []struct {
		args []string
		file string
		msg  string
	}{
		{[]string{"--blend", "burn"}, "", `--blend "burn": want over, add, screen, multiply, lighten, darken`},
		{[]string{"--blend", "difference"}, "", `--blend "difference": want over, add, screen, multiply, lighten, darken; difference (|frame − overlay| per R'G'B' channel) cannot be made in the frame's own Y'CbCr: render the overlay alone with --layer-only and set its layer's blend mode to Difference in the editor`},
		{[]string{"--blend", "overlay"}, "", `--blend "overlay": want over, add, screen, multiply, lighten, darken; overlay (multiply or screen per R'G'B' channel, as the frame's is dark or light) cannot be made`},
		{[]string{"--blend", "max"}, "", `set its layer's blend mode to Lighten in the editor`},
		{[]string{"--blend", "normal"}, "", `--blend "normal": want over, add, screen, multiply, lighten, darken (over is the editors' Normal)`},
		{[]string{"--blend", "Normal"}, "", `(over is the editors' Normal)`},
		{[]string{"--blend", "Difference"}, "", `set its layer's blend mode to Difference in the editor`},
		{[]string{"--point-style", "star"}, "", `--point-style "star": want dot, ring, cross, plus, square, diamond`},
		{[]string{"--box-from", "size"}, "", `--box-from "size": want none, radius, age`},
		{[]string{"--trail-smooth", "-1"}, "", "--trail-smooth -1: want 0 (off) to 100 positions"},
		{[]string{"--link-fade", "-3"}, "", "--link-fade -3: is outside"},
		{[]string{"--link-reach", "20"}, "", "--link-reach 20: is outside 0..10"},
		{[]string{"--box-radius", "-2"}, "", `--box-radius "-2": is negative`},
		// -1 is the looks' "scaled to the frame" inside, no size a user gives.
		{[]string{"--point-radius", "-1"}, "", `--point-radius "-1": is negative`},
		{[]string{"--curve-width", "-1"}, "", `--curve-width "-1": is negative`},
		{[]string{"--glow", "1e39"}, "", `--glow "1e39": is out of range`},
		// Once drew the class in transparent black: gone.
		{[]string{"--class-colors", "person=auto"}, "", `person=auto: want a colour`},
		{[]string{"--class-colors", "car=#00ff00,person="}, "", `person=: want a colour`},
		{[]string{"--style", file}, "blend = \"overlay\"\n", `s.toml:1: blend = "overlay": want over, add, screen, multiply, lighten, darken`},
		{[]string{"--glow", "-1"}, "", `--glow "-1": is negative`},
		{[]string{"--glow", "NaN"}, "", `--glow "NaN": is not a number`},
		{[]string{"--glow", "wide"}, "", `--glow "wide": is not a number`},
		{[]string{"--glow", "5000"}, "", "--glow 5000: is outside 0..1000"},
		{[]string{"--glow-opacity", "-0.5"}, "", "--glow-opacity -0.5: is outside 0..1"},
		{[]string{"--glow-opacity", "NaN"}, "", "--glow-opacity NaN: is outside 0..1"},
		{[]string{"--link-color", "gradiant"}, "", `--link-color "gradiant": is not a color: want #rrggbb, #rrggbbaa or a name (aqua black blue cyan fuchsia gray green grey lime magenta maroon navy olive orange purple red silver teal white yellow) (did you mean gradient?)`},
		{[]string{"--style", file}, "glow = -4\n", `s.toml:1: glow = "-4": is negative`},
		{[]string{"--link-shape", "zigzag"}, "", `--link-shape "zigzag": want straight, wave, s, elastic, spiral, swirl`},
		{[]string{"--link-shape", "wave", "--link-style", "electric"}, "", `--link-shape "wave": electric links (--link-style electric) have a shape of their own`},
		{[]string{"--link-shape", "elastic", "--link-style", "sparkle"}, "", `--link-shape "elastic": sparkle links (--link-style sparkle) are scattered along the straight line`},
		{[]string{"--link-style", "sparkles"}, "", `--link-style "sparkles": want solid, dashed, dotted, electric, sparkle (did you mean sparkle?)`},
		{[]string{"--style", file}, "link-style = \"sparkel\"\n", `s.toml:1: link-style = "sparkel": want solid, dashed, dotted, electric, sparkle (did you mean sparkle?)`},
		{[]string{"--link-freq", "0.2"}, "", "--link-freq 0.2: is outside 0.5..32 cycles a link"},
		{[]string{"--link-speed", "20"}, "", "--link-speed 20: is outside -10..10 cycles a frame"},
		{[]string{"--link-turns", "9"}, "", "--link-turns 9: is outside 0.25..5 turns"},
		{[]string{"--label-outline", "17"}, "", "--label-outline 17: is outside 0..16"},
		{[]string{"--label-outline", "-1"}, "", "--label-outline -1: is outside 0..16"},
		{[]string{"--label-outline", "NaN"}, "", "--label-outline NaN: is outside 0..16"},
		{[]string{"--label-outline-color", "nope"}, "", `--label-outline-color "nope": is not a color`},
		{[]string{"--style", file}, "label-outline = 40\n", "s.toml:1: label-outline = 40: is outside 0..16"},
		{[]string{"--style", file}, "link-turns = 0.1\n", "s.toml:1: link-turns = 0.1: is outside 0.25..5 turns"},
		{[]string{"--link-amp", "-3"}, "", `--link-amp "-3": is negative`},
		{[]string{"--style", file}, "link-shape = \"sine\"\n", `s.toml:1: link-shape = "sine": want straight, wave, s, elastic`},
		{[]string{"--link-color", "gradient:#ffffff"}, "", `--link-color "gradient:#ffffff": want gradient:COLOR,COLOR (from the lower track id's end to the higher's)`},
		{[]string{"--link-color", "gradient:#ffffff,#000000,#ff0000"}, "", `want gradient:COLOR,COLOR`},
		{[]string{"--link-color", "gradient:#ffffff,#nope"}, "", `--link-color "gradient:#ffffff,#nope": "#nope" is not a color`},
		{[]string{"--link-color", "gradient:auto,#000000"}, "", `"auto" is no colour: want gradient:COLOR,COLOR, or gradient for the ends' own`},
		{[]string{"--style", file}, "link-color = \"gradient:#fff\"\n", `s.toml:1: link-color = "gradient:#fff": want gradient:COLOR,COLOR`},
		// Colour names: a typo is suggested once, whichever list (the colours, the flag's own names) holds it.
		{[]string{"--box-color", "Oragne"}, "", `--box-color "Oragne": is not a color: want #rrggbb, #rrggbbaa or a name (aqua`},
		{[]string{"--box-color", "oragne"}, "", `(did you mean orange?)`},
		{[]string{"--link-color", "auot"}, "", `(did you mean auto?)`},
		{[]string{"--class-colors", "person=bleu"}, "", `person: "bleu" is not a color: want #rrggbb, #rrggbbaa or a name`},
		{[]string{"--link-color", "gradient:white,blakc"}, "", `"blakc" is not a color`},
		{[]string{"--box-color", "#ff00"}, "", `--box-color "#ff00": is not a color: want #rrggbb, #rrggbbaa or a name (aqua black blue cyan fuchsia gray green grey lime magenta maroon navy olive orange purple red silver teal white yellow)`},
		{[]string{"--point-stroke", "-1"}, "", `--point-stroke "-1": is negative`},
		{[]string{"--point-stroke", "2000"}, "", "--point-stroke 2000: is outside 0..1000"},
		{[]string{"--point-fill-opacity", "half"}, "", `--point-fill-opacity "half": is not a number`},
		{[]string{"--point-fill-opacity", "1.5"}, "", "--point-fill-opacity 1.5: is outside 0..1"},
		{[]string{"--point-fill-opacity", "-0.5"}, "", `--point-fill-opacity "-0.5": is negative: want 0..1 or auto`},
		{[]string{"--style", file}, "point-fill-opacity = 2\n", "s.toml:1: point-fill-opacity = 2: is outside 0..1"},
		{[]string{"--label-anchor", "toop"}, "", `--label-anchor "toop": want auto, top-left, top, top-right, left, centre, right, bottom-left, bottom, bottom-right, inside-top-left, inside-top, inside-top-right, inside-left, inside-right, inside-bottom-left, inside-bottom, inside-bottom-right (did you mean top?)`},
		{[]string{"--style", file}, "label-anchor = \"lft\"\n", `s.toml:1: label-anchor = "lft": want auto, `},
		{[]string{"--label-offset", "4"}, "", `--label-offset "4": want DX,DY`},
		{[]string{"--label-offset", "4,2e5"}, "", `--label-offset [4 200000]: is outside -10000..10000 px`},
		{[]string{"--style", file}, "label-offset = \"0,NaN\"\n", `s.toml:1: label-offset = "0,NaN": "NaN" is not a number`},
		{[]string{"--jitter", "-4"}, "", `--jitter "-4": is negative`},
		{[]string{"--jitter", "5000"}, "", "--jitter 5000: is outside 0..1000"},
		{[]string{"--jitter", "some"}, "", `--jitter "some": is not a number`},
		{[]string{"--style", file}, "jitter = 2000\n", "s.toml:1: jitter = 2000: is outside 0..1000"},
		{[]string{"--dash", "12"}, "", `--dash "12": want LENGTH,GAP`},
		{[]string{"--dash", "12,0"}, "", `--dash "12,0": a gap of 0 is a solid stroke: want GAP above 0`},
		{[]string{"--dash", "-3,4"}, "", `--dash "-3,4": is outside 0..10000 px`},
		{[]string{"--dash", "4,1e5"}, "", `--dash "4,100000": is outside 0..10000 px`},
		{[]string{"--dash", "long,4"}, "", `--dash "long,4": "long" is not a number`},
		{[]string{"--style", file}, "dash = \"8,0\"\n", `s.toml:1: dash = 8,0: a gap of 0 is a solid stroke`},
		{[]string{"--style", file}, "dash = \"8\"\n", `s.toml:1: dash = "8": want LENGTH,GAP`},
		{[]string{"--box-size", "40"}, "", `--box-size "40": want WxH in px, like 40x80`},
		{[]string{"--box-size", "40x-2"}, "", `--box-size "40x-2": "-2": is negative`},
		{[]string{"--box-size", "40x0"}, "", `--box-size "40x0": want W and H above 0 and up to 20000 px, or 0x0 for --box-radius's squares`},
		{[]string{"--box-size", "3e4x10"}, "", `--box-size "30000x10": want W and H above 0`},
		{[]string{"--box-size", "wide"}, "", `--box-size "wide": want WxH`},
		{[]string{"--box-size", "40x80", "--box-radius", "20"}, "", "--box-radius 20 and --box-size 40x80: both size --box-from's boxes: give one"},
		{[]string{"--style", file}, "box-size = \"40x80\"\nbox-radius = 20\n", "s.toml:2: box-radius, and box-size on line 1: both size --box-from's boxes"},
		{[]string{"--style", file}, "box-size = \"40x\"\n", `s.toml:1: box-size = "40x": "" is not a number`},
		{[]string{"--overlay-opacity", "1.2"}, "", "--overlay-opacity 1.2: is outside 0..1"},
		{[]string{"--overlay-opacity", "-1"}, "", "--overlay-opacity -1: is outside 0..1"},
		{[]string{"--overlay-opacity", "NaN"}, "", "--overlay-opacity NaN: is outside 0..1"},
		{[]string{"--style", file}, "overlay-opacity = 3\n", "s.toml:1: overlay-opacity = 3: is outside 0..1"},
		{[]string{"--grain-color", "1.5"}, "", "--grain-color 1.5: is outside 0..1"},
		{[]string{"--grain-color", "-0.1"}, "", "--grain-color -0.1: is outside 0..1"},
		{[]string{"--grain-color", "lots"}, "", `"lots"`},
		{[]string{"--style", file}, "grain-color = 2\n", "s.toml:1: grain-color = 2: is outside 0..1"},
	} {
		os.WriteFile(file, []byte(tc.file), 0o644)
		_, err := options(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.msg)
		}
		if err != nil && strings.Count(err.Error(), "did you mean") > 1 {
			t.Errorf("%v: %v: two suggestions", tc.args, err)
		}
		if _, usage := err.(UsageError); err != nil && !usage {
			t.Errorf("%v: %T is not a usage error (exit 2)", tc.args, err)
		}
	}
}

// TestDashFlag: --dash reaches the style from the command line and a style file, the
// command line winning; without it the style keeps 0,0, today's dashes tied to the width.
func TestDashFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("link-style = \"dashed\"\ndash = \"20,10\"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want [2]float32
	}{
		{nil, [2]float32{}},
		{[]string{"--look", "hud"}, [2]float32{}},
		{[]string{"--dash", "12.5,6"}, [2]float32{12.5, 6}},
		{[]string{"--dash", "0,5", "--link-style", "dotted"}, [2]float32{0, 5}},
		{[]string{"--style", file}, [2]float32{20, 10}},
		{[]string{"--style", file, "--dash", "9,3"}, [2]float32{9, 3}},
	} {
		if st, err := styleOptions(tc.args...); err != nil || st.Dash != tc.want {
			t.Errorf("%v: %v, dash %v, want %v", tc.args, err, st.Dash, tc.want)
		}
	}
}

// TestLayerGrainAndJitterFlags: --overlay-opacity, --grain-color and --jitter reach the
// style from the command line and a style file, the command line winning (0 too); by
// default (and in the looks, --look cctv's grain colour too) the overlay opaque, no colour
// grain and no jitter.
func TestLayerGrainAndJitterFlags(t *testing.T) {
	for _, flag := range []struct {
		name string
		def  float32
		get  func(st *overlay.Style) float32
	}{
		{"overlay-opacity", 1, func(st *overlay.Style) float32 { return st.OverlayOpacity }},
		{"grain-color", 0, func(st *overlay.Style) float32 { return st.Camera.GrainColor }},
		{"jitter", 0, func(st *overlay.Style) float32 { return st.Jitter }},
	} {
		file := filepath.Join(t.TempDir(), "s.toml")
		os.WriteFile(file, []byte(flag.name+" = 0.25\n"), 0o644)
		for _, tc := range []struct {
			args []string
			want float32
		}{
			{nil, flag.def},
			{[]string{"--look", "neon"}, flag.def},
			{[]string{"--look", "plexus"}, flag.def},
			{[]string{"--look", "cctv"}, flag.def},
			{[]string{"--look", "cctv", "--" + flag.name, "0.6"}, 0.6},
			{[]string{"--style", file}, 0.25},
			{[]string{"--style", file, "--" + flag.name, "0.5"}, 0.5},
			{[]string{"--style", file, "--" + flag.name, "0"}, 0},
		} {
			if st, err := styleOptions(tc.args...); err != nil || flag.get(&st) != tc.want {
				t.Errorf("%v: %v, %s %g, want %g", tc.args, err, flag.name, flag.get(&st), tc.want)
			}
		}
	}
}

// TestLinkShapeFlags: --link-shape, --link-amp, --link-freq and --link-speed reach the style
// from the command line and a style file (TestDrawFlags: a bad value is a usage error naming
// the flag or the file's line).
func TestLinkShapeFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("link-shape = \"elastic\"\nlink-freq = 1.5\nlink-turns = -2.5\n"), 0o644)
	st, err := styleOptions("--style", file, "--link-amp", "9", "--link-speed", "-0.1")
	if err != nil || st.LinkShape != "elastic" || st.LinkFreq != 1.5 || st.LinkAmp != 9 || st.LinkSpeed != -0.1 || st.LinkTurns != -2.5 {
		t.Errorf("from a file and the command line: %v, %q amp %g freq %g speed %g", err, st.LinkShape, st.LinkAmp, st.LinkFreq, st.LinkSpeed)
	}
	if st, err := styleOptions(); err != nil || st.LinkShape != "straight" || st.LinkAmp != overlay.Auto {
		t.Errorf("the default: %v, %q amp %g", err, st.LinkShape, st.LinkAmp)
	}
}

// TestLabelOutlineFlags: --label-outline and --label-outline-color reach the style from the
// command line and a style file; the default is none, its colour auto.
func TestLabelOutlineFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("label-outline = 2.5\nlabel-outline-color = \"#ffd400\"\n"), 0o644)
	st, err := styleOptions("--style", file, "--label-opacity", "0")
	if err != nil || st.LabelOutline != 2.5 || !st.LabelOutlineColor.Set || st.LabelOutlineColor.C != (scene.Color{R: 0xff, G: 0xd4, A: 0xff}) {
		t.Errorf("from a file: %v, outline %g %+v", err, st.LabelOutline, st.LabelOutlineColor)
	}
	if st, err := styleOptions("--label-outline", "3", "--label-outline-color", "auto"); err != nil || st.LabelOutline != 3 || st.LabelOutlineColor.Set {
		t.Errorf("from the command line: %v, outline %g %+v", err, st.LabelOutline, st.LabelOutlineColor)
	}
	if st, err := styleOptions(); err != nil || st.LabelOutline != 0 || st.LabelOutlineColor.Set {
		t.Errorf("the default: %v, outline %g %+v", err, st.LabelOutline, st.LabelOutlineColor)
	}
}
