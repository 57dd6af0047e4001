package video

import "slices"

// Encoders returns the names Options.Encoder takes, auto first.
func Encoders() []string { return slices.Clone(encoderNames) }

// HWAccels returns the names Options.HWAccel takes.
func HWAccels() []string { return slices.Clone(hwaccelNames) }

// Presets returns every name Options.Preset takes with some encoder: x264's, placebo, and
// NVENC's p1 … p7.
func Presets() []string {
	return append(presetsOf("libx264"), presetsOf("h264_nvenc")[len(x264Presets):]...)
}

// EncoderPresets returns the names Options.Preset takes with encoder name (auto: those
// libx264 and NVENC share).
func EncoderPresets(name string) []string { return slices.Clone(presetsOf(name)) }

// Profiles returns every name Options.Profile takes with some encoder: ProRes's and DNxHR's.
func Profiles() []string { return append(profilesOf("prores_ks"), profilesOf("dnxhd")...) }
