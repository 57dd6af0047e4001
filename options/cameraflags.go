package options

import (
	"github.com/spf13/pflag"

	"trackink/overlay"
)

// The camera look's flags (overlay.Style.Camera, overlay/camera.go; --look cctv sets them
// all), also style-file keys.

// registerCameraFlags adds the camera look's flags for style st.
func registerCameraFlags(fs *pflag.FlagSet, st *overlay.Style) {
	c := &st.Camera
	fs.Float32Var(&c.Scanlines, "scanlines", c.Scanlines, "camera look: darken every other band of rows (a band is --scanline-period rows) by this much, 0..1 (0 = off)")
	fs.IntVar(&c.ScanlinePeriod, "scanline-period", c.ScanlinePeriod, "camera look: rows in a band of the scanlines, 1..2160 (0 = height/540, at least 1)")
	if c.ScanlinePeriod == 0 {
		fs.Lookup("scanline-period").DefValue = "height/540 rows"
	}
	fs.Var(sizeValue{&c.Aberration}, "aberration", "camera look: shift the red and blue apart by this many px, so edges fringe (0 = off)")
	if c.Aberration == overlay.Auto {
		fs.Lookup("aberration").DefValue = "6 px at 2160 lines, scaled"
	}
	fs.Float32Var(&c.Grain, "grain", c.Grain, "camera look: luma noise within ± this fraction of the luma range, new each frame, 0..1 (0 = off)")
	fs.Float32Var(&c.GrainColor, "grain-color", c.GrainColor, "camera look: colour noise, Cb and Cr each within ± this fraction of the luma range (hue, not brightness), new each frame, 0..1 (0 = off)")
	fs.Uint64Var(&c.Seed, "grain-seed", c.Seed, "camera look: the grain's and the colour grain's seed (the same seed, the same grain)")
	fs.Float32Var(&c.Vignette, "vignette", c.Vignette, "camera look: darken toward the corners, 0..1 (0 = off)")
	tint := fs.VarPF(colorValue{&c.Tint}, "camera-tint", "", "camera look: make the picture monochrome, toned with this colour (#rrggbb or a name: lime for night vision's green; \"\" = off)")
	tint.DefValue = "off"
	fs.Float32Var(&c.TintStrength, "camera-tint-strength", c.TintStrength, "camera look: how much of --camera-tint's toned picture is mixed over the original, 0..1 (0 takes the default, 1)")
	if c.TintStrength == 0 {
		fs.Lookup("camera-tint-strength").DefValue = "1"
	}
	fs.StringVar(&c.Name, "camera-name", c.Name, "camera look: stamp this name and a clock in the top-left corner (\"\" = no stamp)")
	fs.StringVar(&c.Clock, "camera-clock", c.Clock, "camera look: the stamp's time at frame 1, \""+overlay.CameraClockLayout+"\" (\"\" = time since frame 1)")
	fs.Float32Var(&c.FPS, "camera-fps", c.FPS, "camera look: the frame rate the stamp's clock counts at, 1e-5 (a frame every 28 hours) to 1e6 (0: the video's own)")
	if c.FPS == 0 {
		fs.Lookup("camera-fps").DefValue = "the video's frame rate"
	}
}
