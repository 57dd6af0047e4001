package render

import (
	"bytes"
	"testing"

	"trackink/composite"
	"trackink/overlay"
)

// opacityFrame is a w × h frame of the format (yuv420p or rgba) with samples in 90..165,
// away from the clamps, so that a blend's result is its formula's.
func opacityFrame(format string, w, h int) composite.HostSurface {
	fill := func(n, seed int) []byte {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(90 + (i*37+seed*11)%76)
		}
		return p
	}
	if format == "rgba" {
		pix := fill(4*w*h, 1)
		for i := 3; i < len(pix); i += 4 {
			pix[i] = 255
		}
		return &composite.RGBA{Pix: pix, Stride: 4 * w, W: w, H: h}
	}
	return &composite.YUV420P{Y: fill(w*h, 1), U: fill(w*h/4, 2), V: fill(w*h/4, 3), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
}

// frameSamples is f's samples, plane after plane.
func frameSamples(f composite.HostSurface) []byte {
	if r, ok := f.(*composite.RGBA); ok {
		return bytes.Clone(r.Pix)
	}
	y := f.(*composite.YUV420P)
	return append(append(bytes.Clone(y.Y), y.U...), y.V...)
}

// TestOverlayOpacity checks --overlay-opacity (Primitives.Transparency) in every blend
// mode, on a Y'CbCr and an R'G'B' frame: the frame moves toward the layer's full result by
// the opacity (out = s + A·(full − s), each sample within a code value), opacity 0 leaves it
// (but for the labels), overlapping boxes do not show through each other (the whole layer
// is faded, not each box), and labels keep their own opacity.
func TestOverlayOpacity(t *testing.T) {
	const w, h = 96, 96
	r := newRenderer(t, 2)
	font, err := overlay.NewFont(14)
	if err != nil {
		t.Fatal(err)
	}
	red, blue := overlay.RGBA{R: 0.9, G: 0.2, B: 0.1, A: 1}, overlay.RGBA{R: 0.1, G: 0.3, B: 0.9, A: 1}
	prims := func(blend composite.Blend, transparency float32, label bool) *overlay.Primitives {
		p := &overlay.Primitives{Blend: blend, Transparency: transparency, Font: font}
		p.Boxes = []overlay.Box{
			{X: 4, Y: 4, W: 40, H: 40, Fill: red},
			{X: 24, Y: 14, W: 40, H: 40, Fill: blue}, // over the red one from (24, 14) to (44, 44)
			{X: 70.5, Y: 6.5, W: 20, H: 50, Radius: 6, Stroke: 3, StrokeColor: overlay.RGBA{R: 0.8, G: 0.8, B: 0.8, A: 0.7}},
		}
		if label {
			text := []byte("ID 7")
			lw, lh := font.LabelSize(text)
			// Below the boxes (to row 56).
			p.Labels = []overlay.Label{{X: 2, Y: h - lh - 2, W: lw, H: lh, Text: text, Color: overlay.RGBA{R: 1, G: 1, B: 1, A: 1},
				Background: overlay.RGBA{A: 0.85}}}
		}
		return p
	}
	for _, format := range []string{"yuv420p", "rgba"} {
		s := frameSamples(opacityFrame(format, w, h))
		render := func(p *overlay.Primitives) []byte {
			f := opacityFrame(format, w, h)
			draw(t, r, f, p)
			return frameSamples(f)
		}
		for _, blend := range []composite.Blend{composite.BlendOver, composite.BlendAdd, composite.BlendScreen,
			composite.BlendMultiply, composite.BlendLighten, composite.BlendDarken} {
			full := render(prims(blend, 0, false))
			for _, a := range []float32{0, 0.3, 0.5} {
				got := render(prims(blend, 1-a, false))
				bad := 0
				for i := range got {
					if full[i] == 0 || full[i] == 255 {
						continue // clamped (add, screen): no longer the formula's
					}
					want := float32(s[i]) + a*(float32(full[i])-float32(s[i]))
					if d := float32(got[i]) - want; d > 1 || d < -1 {
						bad++
					}
				}
				if bad > 0 {
					t.Errorf("%s %s opacity %g: %d samples off s + A·(full − s) by more than a code value", format, blend, a, bad)
				}
			}
			// Labels at full opacity whatever the layer's: the rows from 64 down, the label's,
			// are the same at opacity 0.3 as at 1 (the boxes end at row 56).
			withLabel, faded := render(prims(blend, 0, true)), render(prims(blend, 0.7, true))
			if format == "yuv420p" {
				rows := w * (h - 64)
				if !bytes.Equal(withLabel[w*h-rows:w*h], faded[w*h-rows:w*h]) {
					t.Errorf("%s %s: the label faded with the layer", format, blend)
				}
			}
		}
	}
	// A layer (--layer-only: drawn onto a transparent frame): its alpha scaled.
	layer := &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
	draw(t, r, layer, prims(composite.BlendOver, 0.5, false))
	if a := layer.Pix[30*layer.Stride+4*30+3]; a < 127 || a > 128 {
		t.Errorf("layer at opacity 0.5: an opaque box's alpha %d, want 127.5", a)
	}
	// Overlap: at opacity 0.5 the blue box over the red shows the blue alone at half its
	// alpha, as where it lies on the frame alone; the red does not show through.
	f := opacityFrame("rgba", w, h).(*composite.RGBA)
	flat := bytes.Repeat([]byte{120, 120, 120, 255}, w*h)
	copy(f.Pix, flat)
	draw(t, r, f, prims(composite.BlendOver, 0.5, false))
	px := func(x, y int) []byte { return f.Pix[y*f.Stride+4*x:][:3] }
	overlap, alone := px(30, 30), px(50, 30)
	for c := range 3 {
		if d := int(overlap[c]) - int(alone[c]); d > 1 || d < -1 {
			t.Errorf("overlap %v, blue alone %v: the red shows through", overlap, alone)
			break
		}
	}
}
