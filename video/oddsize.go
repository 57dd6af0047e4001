package video

import (
	"fmt"
	"strconv"

	"github.com/asticode/go-astiav"
)

// Odd sizes. H.264 and HEVC code 4:2:0 in whole chroma samples, so libx264 and libx265 refuse
// a 641×479 picture, and the cropping fields of their bitstreams count in chroma samples
// too (2 pixels), so no 4:2:0 stream can even display that size. Such videos exist (VP9 and
// AV1 allow them, so do screen recorders and cropping tools), and trackink re-encodes them
// one pixel larger by default, keeping every pixel of the input.

// OddSize says what becomes of an odd width or height.
type OddSize int

const (
	// OddPad codes one more column or row, a copy of the last one taken after the overlay is
	// drawn: 641×479 becomes 642×480, every pixel of the input and of the overlay kept, the
	// track coordinates unchanged. The default.
	OddPad OddSize = iota
	// OddCrop drops the last column or row: 641×479 becomes 640×478.
	OddCrop
	// Odd444 keeps the size by coding 4:4:4 (H.264 High 4:4:4 Predictive, HEVC Main 4:4:4),
	// which browsers, phones and QuickTime do not play.
	Odd444
)

func (s OddSize) String() string {
	switch s {
	case OddPad:
		return "pad"
	case OddCrop:
		return "crop"
	case Odd444:
		return "444"
	}
	return "OddSize(" + strconv.Itoa(int(s)) + ")"
}

// ParseOddSize reads "pad", "crop" or "444".
func ParseOddSize(s string) (OddSize, error) {
	for _, o := range []OddSize{OddPad, OddCrop, Odd444} {
		if s == o.String() {
			return o, nil
		}
	}
	return OddPad, fmt.Errorf("%q: want pad, crop or 444", s)
}

// sizeFit is the picture the encoder codes for frames of w × h: the same, or one pixel more
// or less where a side is odd, or 4:4:4.
type sizeFit struct {
	mode           OddSize
	w, h           int // the frames'
	codedW, codedH int
	yuv444         bool
}

func fitSize(mode OddSize, w, h int) sizeFit {
	f := sizeFit{mode: mode, w: w, h: h, codedW: w, codedH: h}
	if w%2 == 0 && h%2 == 0 {
		return f
	}
	switch mode {
	case OddPad:
		f.codedW, f.codedH = w+w%2, h+h%2
	case OddCrop:
		f.codedW, f.codedH = w-w%2, h-h%2
	case Odd444:
		f.yuv444 = true
	}
	return f
}

// changes reports whether frames need fitting before the encoder.
func (f sizeFit) changes() bool { return f.yuv444 || f.codedW != f.w || f.codedH != f.h }

// describe says what happens, for a warning.
func (f sizeFit) describe() string {
	switch {
	case f.yuv444:
		return fmt.Sprintf("%dx%d is odd: coded as 4:4:4 to keep the size, which browsers, phones and QuickTime do not play (--odd-size pad or crop for 4:2:0)", f.w, f.h)
	case f.mode == OddCrop:
		return fmt.Sprintf("%dx%d is odd, and 4:2:0 and 4:2:2 video (H.264, HEVC, ProRes, DNxHR) need even sizes: the output is %dx%d, the last column or row dropped", f.w, f.h, f.codedW, f.codedH)
	}
	return fmt.Sprintf("%dx%d is odd, and 4:2:0 and 4:2:2 video (H.264, HEVC, ProRes, DNxHR) need even sizes: the output is %dx%d, the last column or row repeated (--odd-size crop drops it, --odd-size 444 keeps the size)", f.w, f.h, f.codedW, f.codedH)
}

// fitter makes drawn frames the encoder's picture: padded into a pooled frame, cropped in
// place, or converted to 4:4:4.
type fitter struct {
	sizeFit
	work    workFormat
	pool    *framePool // OddPad: frames of the coded size
	toCoded *converter // the encoder's pixel format where it is not work's: Odd444, the editors' codecs
}

// newFitter fits frames of format work to the encoder: to f's coded size, then to the pixel
// format coded.
func newFitter(f sizeFit, work workFormat, coded astiav.PixelFormat) (*fitter, error) {
	ft := &fitter{sizeFit: f, work: work}
	var err error
	if !f.yuv444 && (f.codedW > f.w || f.codedH > f.h) {
		if ft.pool, err = newFramePool(work.pix, f.codedW, f.codedH); err != nil {
			return nil, err
		}
	}
	if coded != encoderPixelFormat(work.pix) {
		if ft.toCoded, err = newConverter(workFormat{pix: coded, matrix: work.matrix, rng: work.rng}, f.codedW, f.codedH); err != nil {
			ft.pool.close() // the pool's frames, which nothing else would free
			return nil, err
		}
	}
	return ft, nil
}

// needsFitter reports whether frames of format work need a fitter before an encoder that
// codes coded at f's size.
func needsFitter(f sizeFit, work workFormat, coded astiav.PixelFormat) bool {
	return f.changes() || coded != encoderPixelFormat(work.pix)
}

// fit returns the frame to encode in place of f, which it frees if it made a new one.
func (ft *fitter) fit(f *astiav.Frame) (*astiav.Frame, error) {
	switch {
	case ft.pool != nil:
		out := astiav.AllocFrame()
		err := ft.pool.get(out)
		if err == nil {
			err = pad(out, f, ft.work)
		}
		if f, err = ft.replace(f, out, err); err != nil {
			return nil, err
		}
	case !ft.yuv444:
		f.SetWidth(ft.codedW) // cropping the right column and bottom row needs no copy
		f.SetHeight(ft.codedH)
	}
	if ft.toCoded != nil {
		out := astiav.AllocFrame()
		err := ft.toCoded.scale(out, f)
		return ft.replace(f, out, err)
	}
	return f, nil
}

// replace frees f and returns out, or on err frees out too.
func (ft *fitter) replace(f, out *astiav.Frame, err error) (*astiav.Frame, error) {
	f.Free()
	if err != nil {
		out.Free()
		return nil, fmt.Errorf("video: fitting a %dx%d frame: %w", ft.w, ft.h, err)
	}
	return out, nil
}

func (ft *fitter) close() {
	ft.pool.close()
	if ft.toCoded != nil {
		ft.toCoded.close()
	}
}

// pad copies src into the larger dst (both in the 4:2:0 layout work, one column and/or row
// more) and repeats src's last column and row into the extra ones. The chroma planes are the
// same size in both: ⌈641/2⌉ = 642/2.
func pad(dst, src *astiav.Frame, work workFormat) error {
	w, h := src.Width(), src.Height()
	dw, dh := dst.Width(), dst.Height()
	size := work.sampleBytes()
	ys, sys, err := plane(src, 0, w*size, h)
	if err != nil {
		return err
	}
	yd, syd, err := plane(dst, 0, dw*size, dh)
	if err != nil {
		return err
	}
	for y := range dh {
		row := yd[y*syd : y*syd+dw*size]
		copy(row, ys[min(y, h-1)*sys:][:w*size])
		for x := w * size; x < dw*size; x += size {
			copy(row[x:x+size], row[(w-1)*size:])
		}
	}
	cw, ch := (w+1)/2*size, (h+1)/2
	planes, rowBytes := 3, cw
	if work.semiPlanar() {
		planes, rowBytes = 2, 2*cw
	}
	for i := 1; i < planes; i++ {
		cs, scs, err := plane(src, i, rowBytes, ch)
		if err != nil {
			return err
		}
		cd, scd, err := plane(dst, i, rowBytes, ch)
		if err != nil {
			return err
		}
		for y := range ch {
			copy(cd[y*scd:y*scd+rowBytes], cs[y*scs:])
		}
	}
	dst.SetPixelFormat(src.PixelFormat())
	return copyProps(dst, src)
}
