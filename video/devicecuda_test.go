//go:build cuda

package video

import (
	"fmt"
	"path/filepath"
	"testing"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/kernels/gpu"
	"trackink/overlay"
)

// TestDeviceFramesCUDA runs a render whose frames stay in GPU memory, on a GPU or on the fake
// driver (make cuda-fake): FFmpeg's CUDA device on the primary context, the frame pool, the
// frames reaching the overlay as device addresses, the copy to host memory for libx264. The
// overlay draws the test rectangle into the device planes, once by writing its bytes through
// the CUDA device and once as an opaque box drawn by the CUDA backend, so the output shows it
// only if the addresses, pitches, copies and the ordering after FFmpeg's copies are right.
// (Without NVDEC, as on the fake driver, frames are decoded in software and uploaded.) With an
// encoder that takes no NV12 the frames still go through GPU memory.
func TestDeviceFramesCUDA(t *testing.T) {
	dev, err := device.OpenCUDA(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	backend, err := gpu.NewCUDA(overlay.BackendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	red := overlay.RGBA{R: 1, A: 1} // BT.601 limited: the rectangle's Y'CbCr
	box := &overlay.Primitives{Boxes: []overlay.Box{{X: rectX0, Y: rectY0, W: rectX1 - rectX0, H: rectY1 - rectY0, Fill: red}}}
	bytes := func(f *composite.DeviceNV12) error { return writeRect(dev, f) }
	drawn := func(f *composite.DeviceNV12) error { return backend.Draw(f, box) }
	for _, c := range []struct {
		name, encoder string
		draw          func(*composite.DeviceNV12) error
	}{
		{"bytes", "libx264", bytes},
		{"backend", "libx264", drawn},
		// libx265 takes no NV12: the frames go back to host memory as yuv420p.
		{"backend-x265", "libx265", drawn},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := demoClip(t, ".mp4")
			out := filepath.Join(t.TempDir(), "out.mp4")
			st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", CRF: 18, Encoder: c.encoder,
				HWAccel: "cuda", DeviceFrames: true, Log: func(s string) { t.Log(s) }},
				func(n int, f composite.Surface) error {
					df, ok := f.(*composite.DeviceNV12)
					if !ok {
						return fmt.Errorf("frame %d is a %T, not in GPU memory", n, f)
					}
					return c.draw(df)
				})
			if err != nil {
				t.Fatal(err)
			}
			if st.HWAccel != "cuda" || st.DeviceOverlay != clipFrames || st.Frames != clipFrames {
				t.Errorf("hwaccel %s, %d frames drawn in GPU memory, %d encoded; want cuda, %d, %d", st.HWAccel, st.DeviceOverlay, st.Frames, clipFrames, clipFrames)
			}
			// NVDEC decodes the whole stream or, where it cannot start (the fake driver has
			// no libnvcuvid), none of it.
			if st.NVDECFrames != 0 && st.NVDECFrames != clipFrames {
				t.Errorf("%d of %d frames decoded on NVDEC", st.NVDECFrames, clipFrames)
			}
			t.Logf("%d of %d frames decoded on NVDEC", st.NVDECFrames, clipFrames)
			for _, i := range []int{0, clipFrames / 2, clipFrames - 1} {
				checkRect(t, in, out, i, true)
			}
		})
	}
}

// writeRect is fillRect for a frame in device memory. Like the backend, it first orders its
// work after FFmpeg's copy of the frame.
func writeRect(dev device.Device, f *composite.DeviceNV12) error {
	if err := dev.AfterLegacy(); err != nil {
		return err
	}
	y := make([]byte, rectX1-rectX0)
	uv := make([]byte, rectX1-rectX0)
	for i := range y {
		y[i] = rectY
		uv[i] = []byte{rectU, rectV}[i%2]
	}
	for r := rectY0; r < rectY1; r++ {
		if err := dev.CopyIn(device.Ptr(f.Y+uint64(r*f.StrideY+rectX0)), y); err != nil {
			return err
		}
	}
	for r := rectY0 / 2; r < rectY1/2; r++ {
		if err := dev.CopyIn(device.Ptr(f.UV+uint64(r*f.StrideUV+rectX0)), uv); err != nil {
			return err
		}
	}
	return nil
}
