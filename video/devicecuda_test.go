//go:build cuda

package video

import (
	"fmt"
	"path/filepath"
	"testing"

	"trackink/composite"
	"trackink/kernels"
)

// TestDeviceFramesCUDA runs a render whose frames stay in GPU memory, on a GPU or on the fake
// driver (make cuda-fake): FFmpeg's CUDA device on the primary context, the frame pool, the
// frames reaching the overlay as device addresses, the copy to host memory for libx264. The
// overlay writes the test rectangle's bytes into the device planes through the CUDA device,
// so the output shows it only if the addresses, pitches and copies are all right. (Without
// NVDEC, as on the fake driver, frames are decoded in software and uploaded into the pool.)
func TestDeviceFramesCUDA(t *testing.T) {
	dev, err := kernels.NewCUDADevice(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	in := demoClip(t, ".mp4")
	out := filepath.Join(t.TempDir(), "out.mp4")
	st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast", Encoder: "libx264",
		HWAccel: "cuda", DeviceFrames: true, Log: func(s string) { t.Log(s) }},
		func(n int, f composite.Frame) error {
			df, ok := f.(*composite.DeviceNV12)
			if !ok {
				return fmt.Errorf("frame %d is a %T, not in GPU memory", n, f)
			}
			return writeRect(dev, df)
		})
	if err != nil {
		t.Fatal(err)
	}
	if st.HWAccel != "cuda" || st.DeviceOverlay != clipFrames || st.Frames != clipFrames {
		t.Errorf("hwaccel %s, %d frames drawn in GPU memory, %d encoded; want cuda, %d, %d", st.HWAccel, st.DeviceOverlay, st.Frames, clipFrames, clipFrames)
	}
	for _, i := range []int{0, clipFrames / 2, clipFrames - 1} {
		checkRect(t, in, out, i, true)
	}
}

// writeRect is fillRect for a frame in device memory.
func writeRect(dev kernels.Device, f *composite.DeviceNV12) error {
	y := make([]byte, rectX1-rectX0)
	uv := make([]byte, rectX1-rectX0)
	for i := range y {
		y[i] = rectY
		uv[i] = []byte{rectU, rectV}[i%2]
	}
	for r := rectY0; r < rectY1; r++ {
		if err := dev.CopyIn(kernels.Ptr(f.Y+uint64(r*f.StrideY+rectX0)), y); err != nil {
			return err
		}
	}
	for r := rectY0 / 2; r < rectY1/2; r++ {
		if err := dev.CopyIn(kernels.Ptr(f.UV+uint64(r*f.StrideUV+rectX0)), uv); err != nil {
			return err
		}
	}
	return nil
}
