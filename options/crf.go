package options

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"trackink/video"
)

// crfZero makes a given --crf 0 what x264 users mean by it: lossless (--lossless; for
// libx265, whose crf 0 is merely its best lossy quality, too). An unset --crf leaves
// o.CRF 0, which keeps the encoder's own default.
func (v *Video) crfZero(fs *pflag.FlagSet, o *video.Options) error {
	if fs.Changed("crf") && v.crf != 0 && v.bitrate > 0 {
		// The encoder takes one rate control: a bitrate would drop the crf without a word.
		return UsageError{errors.New("--crf and --bitrate: give one (a quality or a rate)")}
	}
	if !fs.Changed("crf") || v.crf != 0 {
		return nil
	}
	switch {
	case strings.HasSuffix(v.encoder, "_nvenc"):
		return UsageError{fmt.Errorf("--crf 0 is lossless, which trackink codes with libx264 or libx265, not %s: give --crf 1..51", v.encoder)}
	case v.bitrate > 0:
		return UsageError{errors.New("--crf 0 (lossless) and --bitrate: give one")}
	}
	o.Lossless = true
	return nil
}
