package options

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// TestBoxEffectFlags: --box-effect and --effect-strength from the command line, a style file
// and the blob look, and their mistakes reported as usage errors naming the flag.
func TestBoxEffectFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("box-effect = \"pixelate, zoom\"\neffect-strength = \"24,3\"\n"), 0o644)
	for _, tc := range []struct {
		args      []string
		effects   []overlay.Effect
		strengths []float32
	}{
		{nil, nil, nil},
		{[]string{"--box-effect", "invert"}, []overlay.Effect{overlay.EffectInvert}, nil},
		{[]string{"--box-effect", "blur,threshold", "--effect-strength", "12,0.3"},
			[]overlay.Effect{overlay.EffectBlur, overlay.EffectThreshold}, []float32{12, 0.3}},
		{[]string{"--style", file}, []overlay.Effect{overlay.EffectPixelate, overlay.EffectZoom}, []float32{24, 3}},
		{[]string{"--style", file, "--box-effect", "blur,zoom"}, []overlay.Effect{overlay.EffectBlur, overlay.EffectZoom}, []float32{24, 3}},
		{[]string{"--look", "blob"}, []overlay.Effect{overlay.EffectInvert}, nil},
		{[]string{"--look", "blob", "--box-effect", ""}, nil, nil},
		{[]string{"--box-effect", "gaussian,blur", "--effect-strength", "2.5,0"},
			[]overlay.Effect{overlay.EffectGaussian, overlay.EffectBlur}, []float32{2.5, 0}},
	} {
		st, err := styleOptions(tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !slices.Equal(st.BoxEffects, tc.effects) || !slices.Equal(st.EffectStrengths, tc.strengths) {
			t.Errorf("%v: effects %v strengths %v, want %v %v", tc.args, st.BoxEffects, st.EffectStrengths, tc.effects, tc.strengths)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--box-effect", "sepia"}, `unknown effect "sepia"`},
		{[]string{"--box-effect", "blur", "--effect-strength", "500"}, "--effect-strength 500: blur's strength is outside 1..100"},
		{[]string{"--box-effect", "zoom", "--effect-strength", "0.5"}, "--effect-strength 0.5: zoom's strength is outside 1..16"},
		{[]string{"--box-effect", "gaussian", "--effect-strength", "60"}, "--effect-strength 60: gaussian's strength is outside 1..50"},
		{[]string{"--box-effect", "gaussian", "--effect-strength", "0.5"}, "--effect-strength 0.5: gaussian's strength is outside 1..50"},
		{[]string{"--box-effect", "gauss"}, `unknown effect "gauss"`},
		{[]string{"--box-effect", "invert", "--effect-strength", "1,2"}, "--effect-strength: more strengths (2) than box effects (1)"},
		{[]string{"--effect-strength", "24"}, "--effect-strength: more strengths (1) than box effects (0)"},
		{[]string{"--effect-strength", "x"}, `is not a number`},
		{[]string{"--style", file, "--box-effect", "tint"}, "s.toml:2: effect-strength = 24,3: more strengths (2) than box effects (1)"},
	} {
		_, err := styleOptions(tc.args...)
		var ue UsageError
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "effect") || !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error with %q", tc.args, err, tc.msg)
		}
	}
}

// TestEffectFeatherOpacityFlags: --effect-feather (default 0, the 1-px edge) and
// --effect-opacity (default 1, the effect alone) from the command line and a style file,
// their mistakes usage errors naming the flag or the file's line.
func TestEffectFeatherOpacityFlags(t *testing.T) {
	dir := t.TempDir()
	style := func(name, text string) string {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte("box-effect = \"blur\"\n"+text), 0o644)
		return f
	}
	file := style("s.toml", "effect-feather = 12\neffect-opacity = 0.4\n")
	for _, tc := range []struct {
		args             []string
		feather, opacity float32
	}{
		{nil, 0, 1},
		{[]string{"--box-effect", "blur", "--effect-feather", "8.5", "--effect-opacity", "0.5"}, 8.5, 0.5},
		{[]string{"--style", file}, 12, 0.4},
		{[]string{"--style", file, "--effect-feather", "0", "--effect-opacity", "1"}, 0, 1},
		{[]string{"--effect-feather", "4096", "--effect-opacity", "0"}, 4096, 0},
	} {
		st, err := styleOptions(tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if st.EffectFeather != tc.feather || st.EffectOpacity != tc.opacity {
			t.Errorf("%v: feather %g opacity %g, want %g %g", tc.args, st.EffectFeather, st.EffectOpacity, tc.feather, tc.opacity)
		}
	}
	wantUsageErrors(t, []usageCase{
		{[]string{"--effect-feather", "-1"}, "--effect-feather -1: is outside 0..4096"},
		{[]string{"--effect-feather", "5000"}, "--effect-feather 5000: is outside 0..4096"},
		{[]string{"--effect-feather", "NaN"}, "--effect-feather NaN: is outside 0..4096"},
		{[]string{"--effect-feather", "wide"}, "--effect-feather"},
		{[]string{"--style", style("f.toml", "effect-feather = -3\n")}, "f.toml:2: effect-feather = -3: is outside 0..4096"},
		{[]string{"--effect-opacity", "-0.1"}, "--effect-opacity -0.1: is outside 0..1"},
		{[]string{"--effect-opacity", "2"}, "--effect-opacity 2: is outside 0..1"},
		{[]string{"--effect-opacity", "NaN"}, "--effect-opacity NaN: is outside 0..1"},
		{[]string{"--effect-opacity", "half"}, "--effect-opacity"},
		{[]string{"--style", style("o.toml", "effect-opacity = 1.5\n")}, "o.toml:2: effect-opacity = 1.5: is outside 0..1"},
	})
}

// usageCase is a command line and what its usage error must say.
type usageCase struct {
	args []string
	msg  string
}

// wantUsageErrors checks that each case's command line is refused with a usage error (exit
// status 2) whose text holds its msg.
func wantUsageErrors(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, tc := range cases {
		_, err := styleOptions(tc.args...)
		var ue UsageError
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error with %q", tc.args, err, tc.msg)
		}
	}
}

// TestSortChoiceFlags: --sort-order and --sort-key from the command line and a style file
// (defaults ascending and luma: ""), a name a flag does not know a usage error naming the
// flag and the names.
func TestSortChoiceFlags(t *testing.T) {
	for _, fl := range []struct {
		flag, other, names string
		get                func(*overlay.Style) string
	}{
		{"sort-order", "descending", "ascending, descending", func(st *overlay.Style) string { return st.SortOrder }},
		{"sort-key", "hue", "luma, saturation, hue", func(st *overlay.Style) string { return st.SortKey }},
		{"sort-key", "saturation", "luma, saturation, hue", func(st *overlay.Style) string { return st.SortKey }},
	} {
		first := strings.SplitN(fl.names, ", ", 2)[0]
		file := filepath.Join(t.TempDir(), "s.toml")
		os.WriteFile(file, []byte("box-effect = \"sort\"\n"+fl.flag+" = \""+fl.other+"\"\n"), 0o644)
		for _, tc := range []struct {
			args []string
			want string
		}{
			{nil, ""},
			{[]string{"--" + fl.flag, fl.other}, fl.other},
			{[]string{"--" + fl.flag, first}, first},
			{[]string{"--style", file}, fl.other},
			{[]string{"--style", file, "--" + fl.flag, first}, first},
		} {
			st, err := styleOptions(tc.args...)
			if err != nil {
				t.Fatalf("%v: %v", tc.args, err)
			}
			if got := fl.get(&st); got != tc.want {
				t.Errorf("%v: --%s %q, want %q", tc.args, fl.flag, got, tc.want)
			}
		}
		_, err := styleOptions("--"+fl.flag, "random")
		var ue UsageError
		if err == nil || !strings.Contains(err.Error(), "--"+fl.flag) || !strings.Contains(err.Error(), fl.names) || !errors.As(err, &ue) {
			t.Errorf("--%s random: %v, want a usage error naming the flag and its values", fl.flag, err)
		}
		os.WriteFile(file, []byte(fl.flag+" = \"random\"\n"), 0o644)
		if _, err := styleOptions("--style", file); err == nil || !strings.Contains(err.Error(), "s.toml:1: "+fl.flag) {
			t.Errorf("%s = random in a style file: %v, want the file, line and key", fl.flag, err)
		}
	}
}

// TestSortMinRunFlag: --sort-min-run from the command line and a style file (default 0:
// every run sorted); a count below 0 or above MaxSortMinRun, or not a whole number, a
// usage error naming the flag (in a style file, the file, line and key).
func TestSortMinRunFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("box-effect = \"sort\"\nsort-min-run = 8\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0},
		{[]string{"--sort-min-run", "16"}, 16},
		{[]string{"--style", file}, 8},
		{[]string{"--style", file, "--sort-min-run", "0"}, 0},
	} {
		st, err := styleOptions(tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if st.SortMinRun != tc.want {
			t.Errorf("%v: --sort-min-run %d, want %d", tc.args, st.SortMinRun, tc.want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("sort-min-run = -3\n"), 0o644)
	wantUsageErrors(t, []usageCase{
		{[]string{"--sort-min-run", "-1"}, "--sort-min-run -1: want 0..8192 px"},
		{[]string{"--sort-min-run", "9000"}, "--sort-min-run 9000: want 0..8192 px"},
		{[]string{"--sort-min-run", "2.5"}, "--sort-min-run"},
		{[]string{"--style", bad}, "bad.toml:1: sort-min-run = -3: want 0..8192 px"},
	})
}

// FuzzEffectFlags: any --box-effect and --effect-strength text is parsed or refused, never
// a panic, and what parses prints back as text that parses to the same.
func FuzzEffectFlags(f *testing.F) {
	f.Add("invert,blur", "0,12")
	f.Add(" zoom ,none", "2")
	f.Add(",", "1e40,-0")
	f.Add("blur", "NaN,inf")
	f.Fuzz(func(t *testing.T, effects, strengths string) {
		var fx, fx2 []overlay.Effect
		var s, s2 []float32
		if (effectsValue{&fx}).Set(effects) == nil {
			if err := (effectsValue{&fx2}).Set(effectsValue{&fx}.String()); err != nil || !slices.Equal(fx, fx2) {
				t.Fatalf("%q: %v, printed %q, read back %v (%v)", effects, fx, effectsValue{&fx}.String(), fx2, err)
			}
		}
		if (strengthsValue{&s}).Set(strengths) == nil {
			if err := (strengthsValue{&s2}).Set(strengthsValue{&s}.String()); err != nil || !slices.Equal(s, s2) {
				t.Fatalf("%q: %v, printed %q, read back %v (%v)", strengths, s, strengthsValue{&s}.String(), s2, err)
			}
		}
		st := overlay.DefaultStyle()
		st.BoxEffects, st.EffectStrengths = fx, s
		_ = st.Validate()
	})
}

// TestEffectStrengthHelpNamesSortFlags: --effect-strength's help says sort takes no
// strength and sends the reader to sort's own flags: every one of them, so a flag added for
// sort is not missed there (--sort-key, --sort-min-run and --sort-order once were).
func TestEffectStrengthHelpNamesSortFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	st := overlay.DefaultStyle()
	registerEffectFlags(fs, &st)
	help := fs.Lookup("effect-strength").Usage
	n := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if strings.HasPrefix(f.Usage, "--box-effect sort:") {
			n++
			if !strings.Contains(help, "--"+f.Name+",") && !strings.Contains(help, "--"+f.Name+")") {
				t.Errorf("--effect-strength's help %q does not name --%s", help, f.Name)
			}
		}
	})
	if n < 5 {
		t.Errorf("%d sort flags found, want at least 5", n)
	}
}

// TestSortRangeWraps: --sort-range with LOW above HIGH is a hue range through red, taken
// with --sort-key hue (flag or style file) and refused for luma and saturation, which do
// not wrap, as a usage error naming --sort-range (in a style file its file, line and key).
func TestSortRangeWraps(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	for _, tc := range []struct {
		args  []string
		style string
		ok    bool
	}{
		{[]string{"--sort-key", "hue", "--sort-range", "0.9,0.1"}, "", true},
		{[]string{"--sort-key", "hue", "--sort-range", "1,0"}, "", true},
		{[]string{"--style", file}, "sort-key = \"hue\"\nsort-range = \"0.9,0.1\"\n", true},
		{[]string{"--sort-range", "0.9,0.1"}, "", false},
		{[]string{"--sort-key", "saturation", "--sort-range", "0.9,0.1"}, "", false},
		{[]string{"--sort-key", "hue", "--sort-range", "1.1,0.1"}, "", false},
		{[]string{"--sort-key", "hue", "--sort-range", "0.9,-0.1"}, "", false},
		{[]string{"--style", file}, "sort-key = \"luma\"\nsort-range = \"0.9,0.1\"\n", false},
	} {
		os.WriteFile(file, []byte(tc.style), 0o644)
		st, err := styleOptions(tc.args...)
		if tc.ok {
			if err != nil || st.SortRange != [2]float32{float32(0.9), float32(0.1)} && st.SortRange != [2]float32{1, 0} {
				t.Errorf("%v %q: range %v, error %v; want the wrapped range taken", tc.args, tc.style, st.SortRange, err)
			}
			continue
		}
		var ue UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), "sort-range") || !strings.Contains(err.Error(), "hue") {
			t.Errorf("%v %q: %v, want a usage error naming sort-range and saying only hue wraps", tc.args, tc.style, err)
		}
		if tc.style != "" && (err == nil || !strings.Contains(err.Error(), "s.toml:2: sort-range")) {
			t.Errorf("%q: %v, want the file, line and key", tc.style, err)
		}
	}
}
