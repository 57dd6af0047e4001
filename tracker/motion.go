package tracker

// Motion detection: the background is the per-pixel median of a ring of past frames
// sampled every motionStep frames (motionSamples of them, about three seconds at 25 fps).
// A median, unlike a running mean, is not pulled by an object passing over a pixel for
// less than half the window, so objects present from the first frame fade out of the
// background once they have moved on, slow light changes are followed within the window,
// and sensor noise averages out. The foreground is where the mean absolute difference
// from the background over a 5 × 5 neighbourhood exceeds a threshold set from the frame's
// own median difference (the noise level); the neighbourhood mean keeps textured objects
// over a background of the same texture whole, where a per-pixel test leaves holes.
const (
	motionSamples = 9
	motionStep    = 8
	motionRadius  = 2
)

type background struct {
	ring   [motionSamples][]byte
	filled int // samples taken so far, up to motionSamples
	next   int // ring slot the next sample goes to
	frames int
	bg     []byte
	diff   []byte
	sums   []int32
	w, h   int
}

// update samples p into the ring when it is time and recomputes the median.
func (b *background) update(p *plane) {
	if b.w != p.w || b.h != p.h {
		*b = background{w: p.w, h: p.h}
	}
	if b.frames%motionStep == 0 {
		b.ring[b.next] = grow(b.ring[b.next], len(p.pix))
		copy(b.ring[b.next], p.pix)
		b.next = (b.next + 1) % motionSamples
		b.filled = min(b.filled+1, motionSamples)
		b.median()
	}
	b.frames++
}

// median recomputes bg as the per-pixel median of the samples (the lower middle one of an
// even count).
func (b *background) median() {
	b.bg = grow(b.bg, b.w*b.h)
	var v [motionSamples]byte
	n := b.filled
	for i := range b.bg {
		for k := 0; k < n; k++ {
			x := b.ring[k][i]
			j := k
			for ; j > 0 && v[j-1] > x; j-- {
				v[j] = v[j-1]
			}
			v[j] = x
		}
		b.bg[i] = v[(n-1)/2]
	}
}

// foreground writes into mask where p differs from the background, and returns false
// before there is one (the first frame).
func (b *background) foreground(mask []byte, p *plane, threshold, sensitivity float64) bool {
	if b.filled == 0 {
		return false
	}
	w, h := p.w, p.h
	b.diff = grow(b.diff, w*h)
	for i, v := range p.pix {
		d := int(v) - int(b.bg[i])
		b.diff[i] = byte(min(abs(d), 255))
	}
	boxMean(b.diff, w, h, motionRadius, &b.sums)
	t := threshold
	if t == Auto {
		var hist [256]int
		for _, d := range b.diff {
			hist[d]++
		}
		med, seen := 0, 0
		for i, c := range hist {
			seen += c
			if 2*seen >= len(b.diff) {
				med = i
				break
			}
		}
		// The neighbourhood mean of pure noise has a median near its mean; objects stand
		// far above it. Sensitivity 0.5 takes three times the noise, 0 five, 1 two.
		k := 5 - 6*sensitivity
		if sensitivity > 0.5 {
			k = 4 - 2*sensitivity
		}
		t = max(k*float64(med), 4)
	}
	for i, d := range b.diff {
		mask[i] = b2u(float64(d) > t)
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// boxMean replaces p (w × h) by its mean over (2r+1)² neighbourhoods clipped to the plane,
// by running sums along rows and then columns.
func boxMean(p []byte, w, h, r int, sums *[]int32) {
	*sums = grow(*sums, w*h)
	s := *sums
	for y := 0; y < h; y++ {
		row, out := p[y*w:(y+1)*w], s[y*w:(y+1)*w]
		var acc int32
		for x := 0; x < min(r, w); x++ {
			acc += int32(row[x])
		}
		for x := 0; x < w; x++ {
			if x+r < w {
				acc += int32(row[x+r])
			}
			if x-r-1 >= 0 {
				acc -= int32(row[x-r-1])
			}
			out[x] = acc
		}
	}
	for x := 0; x < w; x++ {
		var acc int32
		for y := 0; y < min(r, h); y++ {
			acc += s[y*w+x]
		}
		// The column sums are written back into p as means; s still holds the row sums
		// needed below, so the sum runs a step ahead of what it overwrites.
		for y := 0; y < h; y++ {
			if y+r < h {
				acc += s[(y+r)*w+x]
			}
			if y-r-1 >= 0 {
				acc -= s[(y-r-1)*w+x]
			}
			nx := min(x+r, w-1) - max(x-r, 0) + 1
			ny := min(y+r, h-1) - max(y-r, 0) + 1
			p[y*w+x] = byte(acc / int32(nx*ny))
		}
	}
}
