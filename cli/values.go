package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

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
	"palette":     overlay.Palettes,
	"color-by":    func() []string { return []string{"track", "class"} },
	"backend":     func() []string { return []string{"cpu", "cuda", "emu", "auto"} },
	"knn":         knn.Backends,
	"knn-backend": knn.Backends,
	"encoder":     video.Encoders,
	"hwaccel":     video.HWAccels,
	"preset":      video.Presets,
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
		return didYouMean(value, c())
	}
	return ""
}

// badValue adds to pflag's "invalid argument" error the name meant, if one is close.
func badValue(err error) error {
	var ie *pflag.InvalidValueError
	if errors.As(err, &ie) {
		if h := valueHint(ie.GetFlag().Name, ie.GetValue()); h != "" {
			return fmt.Errorf("%w%s", err, h)
		}
	}
	return err
}
