package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/internal/suggest"
	"trackink/knn"
	"trackink/overlay"
	"trackink/video"
)

// flagChoices are the names a flag takes, where it takes a fixed list: shell completion
// offers them, and a mistyped one is answered with the nearest ("--look plexis: … (did you
// mean plexus?)"). Keyed like flagPlaces.
var flagChoices = map[string]func() []string{
	"look":        func() []string { names, _ := overlay.PresetNames(); return names },
	"box-style":   func() []string { return overlay.BoxStyles },
	"link-style":  func() []string { return overlay.LinkStyles },
	"links":       func() []string { return knn.Graphs },
	"blend":       func() []string { return overlay.Blends },
	"point-style": func() []string { return overlay.PointStyles },
	"box-from":    func() []string { return overlay.BoxFroms },
	"palette":     overlay.Palettes,
	"color-by":    func() []string { return []string{"track", "class"} },
	"backend":     func() []string { return []string{"cpu", "cuda", "emu", "auto"} },
	"knn":         knn.Backends,
	"knn-backend": knn.Backends,
	"encoder":     video.Encoders,
	"hwaccel":     video.HWAccels,
	"preset":      video.Presets,
	"profile":     video.Profiles,
	"anchor":      func() []string { return []string{"bottom", "centre"} },
	"untracked":   func() []string { return []string{"skip", "draw"} },
	"frame-base":  func() []string { return []string{"auto", "0", "1"} },
	"orientation": func() []string { return []string{"display", "stored"} },
	"odd-size":    func() []string { return []string{"pad", "crop", "444"} },
	"to":          func() []string { return []string{"jsonl", "mot"} },
	"bench scene": func() []string { return []string{"seed"} },
	"scene":       func() []string { return []string{"seed"} },
}

// choicesOf returns the names command's flag takes, nil where it takes any value. A
// command's own flag (flagPlaces has "command flag") takes only its own names.
func choicesOf(command, flag string) []string {
	if c, ok := flagChoices[command+" "+flag]; ok {
		return c()
	}
	if _, own := flagPlaces[command+" "+flag]; own {
		return nil
	}
	if c, ok := flagChoices[flag]; ok {
		return c()
	}
	return nil
}

// valueHint returns " (did you mean NAME?)" for a mistyped value of a flag that takes
// names, "" otherwise.
func valueHint(flag, value string) string {
	if c, ok := flagChoices[flag]; ok {
		return suggest.DidYouMean(value, c())
	}
	return ""
}

// badValue words pflag's "invalid argument" error as flagError words the library's:
// `--point-radius "big": is not a number`, with the name meant if one is close.
func badValue(err error) error {
	var ie *pflag.InvalidValueError
	if errors.As(err, &ie) {
		return fmt.Errorf("--%s %q: %s", ie.GetFlag().Name, ie.GetValue(), valueProblem(ie))
	}
	return err
}

// valueProblem says in words what is wrong with the value a flag was given, without the
// value, and the name meant if one is close: pflag's message carries Go's
// (strconv.ParseFloat: parsing "big": invalid syntax).
func valueProblem(ie *pflag.InvalidValueError) string {
	f, v := ie.GetFlag(), ie.GetValue()
	var msg string
	switch f.Value.Type() {
	case "float32", "float64":
		msg = "is not a number"
		if errors.Is(ie, strconv.ErrRange) {
			msg = "is out of range for this flag"
		}
	case "int", "int64", "uint":
		msg = "is not a whole number"
	case "bool":
		msg = "is not true or false"
	default:
		// Our own values' messages begin with the value: "\"wavy\": want …", "\"red\" is not
		// a color".
		msg = ie.Unwrap().Error()
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, strconv.Quote(v)+": "), strconv.Quote(v)+" ")
	}
	return msg + valueHint(f.Name, v)
}
