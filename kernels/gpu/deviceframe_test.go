package gpu

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/overlay"
)

// TestDeviceFrameInPlace composites onto NV12 frames that live in device memory, as NVDEC
// decodes them, with pitches wider than the rows: the result must match the CPU on the same
// picture, the bytes between a row's end and the pitch must stay untouched, and host and
// device frames must mix on one backend (one graph: the planes' addresses are data).
func TestDeviceFrameInPlace(t *testing.T) { testDeviceFrameInPlace(t, newTestGPU(t, false)) }

func testDeviceFrameInPlace(t *testing.T, g *Backend) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	cpu := newTestCPU(t)
	f := testFont(t, 12)
	const w, h = 203, 117
	for i := range 6 {
		p := randomScene(rng, w, h, f)
		if i%2 == 1 {
			// A host frame between device frames.
			fa, fb := randomFrame(rng, w, h)
			if err := cpu.Draw(fa.frame, p); err != nil {
				t.Fatal(err)
			}
			if err := g.Draw(fb.frame, p); err != nil {
				t.Fatal(err)
			}
			if worst, over := fa.diff(fb, fa.tolerance()); over > 0 {
				t.Fatalf("host frame %d (%s): %d samples differ by more than %d (largest %d)", i, fa.name, over, fa.tolerance(), worst)
			}
			continue
		}
		m, r := composite.Matrix(rng.Intn(2)), composite.Range(rng.Intn(2))
		pitch := (w + 255) &^ 255 // a CUDA allocation's pitch: rows padded to 256 bytes
		ch := (h + 1) / 2
		y, uv := make([]byte, pitch*h), make([]byte, pitch*ch)
		rng.Read(y)
		rng.Read(uv)
		want := &composite.NV12{Y: bytes.Clone(y), UV: bytes.Clone(uv), StrideY: pitch, StrideUV: pitch, W: w, H: h, Matrix: m, Range: r}
		if err := cpu.Draw(want, p); err != nil {
			t.Fatal(err)
		}
		dy, duv := deviceCopy(t, g.dev, y), deviceCopy(t, g.dev, uv)
		df := &composite.DeviceNV12{Y: uint64(dy), UV: uint64(duv), StrideY: pitch, StrideUV: pitch, W: w, H: h, Matrix: m, Range: r}
		if err := g.Draw(df, p); err != nil {
			t.Fatal(err)
		}
		for _, pl := range []struct {
			name string
			dev  device.Ptr
			want []byte
		}{{"Y", dy, want.Y}, {"UV", duv, want.UV}} {
			got := make([]byte, len(pl.want))
			if err := g.dev.CopyOut(got, pl.dev); err != nil {
				t.Fatal(err)
			}
			if worst, over := diffBytes(pl.want, got, EmuTolerance); over > 0 {
				t.Errorf("device frame %d, plane %s: %d bytes differ by more than %d (largest %d)", i, pl.name, over, EmuTolerance, worst)
			}
			g.dev.Free(pl.dev)
		}
	}
	if g.captures != 1 {
		t.Errorf("%d captures for one frame size, want 1", g.captures)
	}
}

// deviceCopy returns a device allocation holding b.
func deviceCopy(t *testing.T, d device.Device, b []byte) device.Ptr {
	t.Helper()
	p, err := d.Alloc(len(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.CopyIn(p, b); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeviceFrameRejected: frames the composite cannot address are errors, not pictures.
func TestDeviceFrameRejected(t *testing.T) {
	g := newTestGPU(t, false)
	for _, c := range []struct {
		f    composite.DeviceNV12
		want string
	}{
		{composite.DeviceNV12{Y: 1, UV: 1, StrideY: 64, StrideUV: 64, W: 0, H: 4}, "size 0x4"},
		{composite.DeviceNV12{UV: 1, StrideY: 64, StrideUV: 64, W: 64, H: 4}, "null plane"},
		{composite.DeviceNV12{Y: 1, UV: 1, StrideY: 63, StrideUV: 64, W: 64, H: 4}, "Y pitch 63"},
		{composite.DeviceNV12{Y: 1, UV: 1, StrideY: 64, StrideUV: 63, W: 63, H: 4}, "UV pitch 63"},
	} {
		err := g.Draw(&c.f, &overlay.Primitives{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.f, err, c.want)
		}
	}
}

// callLog is an emulated device that logs the calls that order work between streams.
type callLog struct {
	*device.Emu
	calls []string
}

func (c *callLog) AfterLegacy() error {
	c.calls = append(c.calls, "AfterLegacy")
	return c.Emu.AfterLegacy()
}

func (c *callLog) LaunchGraph(g device.GraphExec) error {
	c.calls = append(c.calls, "LaunchGraph")
	return c.Emu.LaunchGraph(g)
}

// TestDeviceFrameWaitsForDecoder: FFmpeg copies a decoded frame on the CUDA legacy stream and
// the backend's stream does not wait for that stream by itself, so each graph launch that
// reads a device frame must come right after AfterLegacy; a host frame needs no wait.
func TestDeviceFrameWaitsForDecoder(t *testing.T) {
	dev := &callLog{Emu: device.NewEmu(device.EmuOptions{Workers: 1, Poison: true})}
	g, err := New(dev, overlay.BackendOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	const w, h = 64, 32
	y, uv := deviceCopy(t, dev, make([]byte, w*h)), deviceCopy(t, dev, make([]byte, w*h/2))
	p := &overlay.Primitives{Lines: []overlay.Line{{X0: 2, Y0: 2, X1: 60, Y1: 30, Width: 3, Color: overlay.RGBA{R: 1, A: 1}}}}
	for _, c := range []struct {
		frame composite.Surface
		want  string
	}{
		{&composite.DeviceNV12{Y: uint64(y), UV: uint64(uv), StrideY: w, StrideUV: w, W: w, H: h}, "AfterLegacy LaunchGraph"},
		{&composite.NV12{Y: make([]byte, w*h), UV: make([]byte, w*h/2), StrideY: w, StrideUV: w, W: w, H: h}, "LaunchGraph"},
	} {
		dev.calls = nil
		if err := g.Draw(c.frame, p); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(dev.calls, " "); got != c.want {
			t.Errorf("%T: calls %q, want %q", c.frame, got, c.want)
		}
	}
}

// TestDeviceNV12Hook: the frames trackink bench --format device draws on (overlay.DeviceFrames)
// hold the fill asked for in every plane, odd sizes included (the chroma's pitch rounded up
// to even), read back what a draw wrote, and are freed.
func TestDeviceNV12Hook(t *testing.T) {
	g := newTestGPU(t, false)
	for _, c := range []struct{ w, h, pitch, chromaRows int }{{64, 32, 64, 16}, {7, 5, 8, 3}} {
		f, err := g.NewDeviceNV12(c.w, c.h, 110, 128)
		if err != nil {
			t.Fatal(err)
		}
		if f.StrideY != c.pitch || f.StrideUV != c.pitch || f.Check() != nil {
			t.Fatalf("%dx%d: %+v (check: %v), want pitch %d", c.w, c.h, f, f.Check(), c.pitch)
		}
		y, uv, err := g.ReadDeviceNV12(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(y, bytes.Repeat([]byte{110}, c.pitch*c.h)) || !bytes.Equal(uv, bytes.Repeat([]byte{128}, c.pitch*c.chromaRows)) {
			t.Errorf("%dx%d: planes %v %v, want 110s and 128s", c.w, c.h, y, uv)
		}
		p := &overlay.Primitives{Boxes: []overlay.Box{{X: 0, Y: 0, W: float32(c.w), H: float32(c.h), Fill: overlay.RGBA{R: 1, A: 1}}}}
		if err := g.Draw(f, p); err != nil {
			t.Fatal(err)
		}
		if drawn, _, err := g.ReadDeviceNV12(f); err != nil || bytes.Equal(drawn, y) {
			t.Errorf("%dx%d: a red frame read back as it was (error %v)", c.w, c.h, err)
		}
		g.FreeDeviceNV12(f)
		if f.Y != 0 || f.UV != 0 {
			t.Errorf("%dx%d: freed frame still has planes %+v", c.w, c.h, f)
		}
	}
}
