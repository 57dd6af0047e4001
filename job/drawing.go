package job

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"trackink/overlay"
	"trackink/scene"
)

// drawing describes what a render draws, for its segments' plan (video.SegmentPlan.Drawing):
// the backend, the look and link options, and the tracks frames from to to, by content (a
// SHA-256), with their judgement against ground truth where one is drawn (render --gt), so
// that the join refuses segments drawn with other options, other tracks or other truth.
// A font file counts by its bytes as they were read to draw with (a FIFO or a file replaced
// since is not read again). Render threads are left out: they do not change a pixel.
func drawing(backend string, o overlay.Options, src Source, from, to int) string {
	h := sha256.New()
	fmt.Fprintf(h, "backend %s\nstyle %+v\nlinks %+v\n", backend, o.Style, o.Links)
	if font := o.Style.Font; font != "" && font != overlay.GoMono {
		if tf, err := overlay.LoadTypeface(font); err == nil { // loaded already, to draw with
			fmt.Fprintf(h, "font %x\n", tf.Sum())
		}
	}
	tracks := stored(src)
	if tracks == nil {
		fmt.Fprintln(h, "the seed scene")
		return hex.EncodeToString(h.Sum(nil))
	}
	var tf scene.Frame
	var b []byte
	u32 := func(v uint32) { b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	f32 := func(v float32) { u32(math.Float32bits(v)) }
	flag := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	color := func(c scene.Color, set bool) {
		u32(uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A))
		flag(set)
	}
	for n := from; n <= to; n++ {
		if j := judgement(src, n); j != nil {
			// What render --gt draws: the ground truth, the tags, the counts.
			fmt.Fprintf(h, "judgement %d %+v\n", n, *j)
		}
		if tracks.Frame(n, &tf) == nil {
			continue
		}
		b = b[:0]
		u32(uint32(n))
		u32(uint32(len(tf.Boxes)))
		for _, x := range tf.Boxes {
			u32(uint32(x.ID))
			f32(x.X)
			f32(x.Y)
			f32(x.W)
			f32(x.H)
			f32(x.Score)
			flag(x.HasScore)
			color(x.Color, x.HasColor)
			u32(uint32(len(x.Class)))
			b = append(b, x.Class...)
		}
		u32(uint32(len(tf.Points)))
		for _, p := range tf.Points {
			u32(uint32(p.ID))
			f32(p.X)
			f32(p.Y)
			color(p.Color, p.HasColor)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
