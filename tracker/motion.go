package tracker

import "math"

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
	// recentStep is how often a frame is kept for the ghost test (dropGhosts): it
	// compares the frame with one recentStep to 2·recentStep frames older.
	recentStep = 4
	// minMoved is how many pixels of a frame must differ from the last picture analysed
	// (repeats) for the frame to be a new picture: the area of the motion mask's opening
	// (Tracker.detect), less than which no region is found either.
	minMoved = (2*motionRadius + 3) * (2*motionRadius + 3)
	// minMoving is the speed, in analysed pixels a frame, from which a track moves for the
	// ghost test: the neighbourhood's radius over the test's shortest gap.
	minMoving = float64(motionRadius) / recentStep
)

type background struct {
	ring [motionSamples][]byte
	// recent holds two frames taken every recentStep frames, for dropGhosts.
	recent   [2][]byte
	recentAt [2]int
	// last is the last picture analysed, t the foreground's threshold in it (repeats).
	last   []byte
	t      int
	filled int // samples taken so far, up to motionSamples
	next   int // ring slot the next sample goes to
	frames int
	bg     []byte
	diff   []byte
	box    boxWork
	moved  []int64 // per region: summed change from the older frame, then from the background
	ghost  []bool  // per region: dropped by dropGhosts
	burn   []bool  // per region: written into the background by dropGhosts
	grain  int     // the background's texture grain (textureGrain), 0 until the ring is full
	w, h   int
}

// update samples p into the ring when it is time and recomputes the median. Inside the
// boxes of what was found in p (frame pixels, f times the plane's) the sample keeps the
// background as it is (selective update): an object that moves slowly is not learnt into
// the background, however long it takes. One that stops is, by the ghost test
// (dropGhosts).
func (b *background) update(p *plane, found []rect, f int) {
	if b.w != p.w || b.h != p.h {
		*b = background{w: p.w, h: p.h}
	}
	b.last = grow(b.last, len(p.pix))
	copy(b.last, p.pix)
	if b.frames%motionStep == 0 {
		b.sample(p, found, f)
	}
	if b.frames%(recentStep) == 0 {
		k := 0
		if b.recent[0] != nil && (b.recent[1] == nil || b.recentAt[1] < b.recentAt[0]) {
			k = 1
		}
		b.recent[k] = grow(b.recent[k], len(p.pix))
		copy(b.recent[k], p.pix)
		b.recentAt[k] = b.frames
	}
	b.frames++
}

// prime adds p to the ring as a sample taken before tracking starts: a frame from anywhere
// in the video (Tracker.PrimeBackground).
func (b *background) prime(p *plane) {
	if b.w != p.w || b.h != p.h {
		*b = background{w: p.w, h: p.h}
	}
	b.sample(p, nil, 1)
}

// sample puts p into the ring's next slot, the background kept inside found's boxes, and
// recomputes the median.
func (b *background) sample(p *plane, found []rect, f int) {
	b.ring[b.next] = grow(b.ring[b.next], len(p.pix))
	copy(b.ring[b.next], p.pix)
	if b.filled > 0 {
		keepBackground(b.ring[b.next], b.bg, p.w, p.h, found, float64(f))
	}
	b.next = (b.next + 1) % motionSamples
	b.filled = min(b.filled+1, motionSamples)
	b.median()
	// The grain is measured when the ring is first full, then once each time it has been
	// filled anew: textures change with the scene, not from frame to frame.
	if b.filled == motionSamples && (b.grain == 0 || b.next == 0) {
		b.grain = textureGrain(b.bg, b.w, b.h)
	}
}

// Texture grain (textureGrain): pixels up to grainReach apart are compared, on every
// grainStep-th row and column.
const (
	grainReach = 24
	grainStep  = 4
)

// grainClosing is the side of the square that closes the motion mask over a background of
// the given grain (textureGrain): where an object's texture matches the background's, its
// mask has holes and gaps about as wide as the texture's grain, which break it into
// pieces. The side is the grain's, made odd, from 3 (pinholes and two-pixel gaps) up to
// open, the opening's: a closing wider than what the opening takes for noise would join
// objects apart by more than the blur of the neighbourhood mean.
func grainClosing(grain, open int) int {
	return min(max(3, grain|1), open)
}

// textureGrain returns the texture's grain of p (w × h): the distance d at which the mean
// absolute difference between pixels d apart (across and down) first reaches half of what
// it is grainReach apart, where the texture no longer resembles itself. 0 for a plane too
// small to measure.
func textureGrain(p []byte, w, h int) int {
	var diff [grainReach + 1]float64
	for d := 1; d <= grainReach; d++ {
		s, n := 0, 0
		for y := 0; y < h-d; y += grainStep {
			row, down := p[y*w:(y+1)*w], p[(y+d)*w:(y+d+1)*w]
			for x := 0; x < w-d; x += grainStep {
				s += abs(int(row[x+d])-int(row[x])) + abs(int(down[x])-int(row[x]))
				n += 2
			}
		}
		if n == 0 {
			return 0
		}
		diff[d] = float64(s) / float64(n)
	}
	d := 1
	for 2*diff[d] < diff[grainReach] {
		d++
	}
	return d
}

// keepBackground copies into sample, inside each box of found (frame pixels, f times the
// plane's), the background bg.
func keepBackground(sample, bg []byte, w, h int, found []rect, f float64) {
	for _, r := range found {
		x0, x1 := max(int(r.x0/f), 0), min(int(math.Ceil(r.x1/f)), w)
		y0, y1 := max(int(r.y0/f), 0), min(int(math.Ceil(r.y1/f)), h)
		for y := y0; y < y1; y++ {
			copy(sample[y*w+x0:y*w+x1], bg[y*w+x0:y*w+x1])
		}
	}
}

// median recomputes bg as the per-pixel median of the samples (the lower middle one of an
// even count).
func (b *background) median() {
	b.bg = grow(b.bg, b.w*b.h)
	if b.filled == motionSamples {
		b.median9()
		return
	}
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

// median9 is median with all nine samples: Paeth's exchange network (19 exchanges leave
// the median in the middle), without the branches an insertion sort mispredicts on noise;
// 32 pixels at once in AVX2 (median9Rows).
func (b *background) median9() {
	n := len(b.bg)
	bg := b.bg[:n]
	r0, r1, r2 := b.ring[0][:n], b.ring[1][:n], b.ring[2][:n]
	r3, r4, r5 := b.ring[3][:n], b.ring[4][:n], b.ring[5][:n]
	r6, r7, r8 := b.ring[6][:n], b.ring[7][:n], b.ring[8][:n]
	for i := median9Rows(bg, &b.ring); i < n; i++ {
		p0, p1, p2, p3, p4, p5, p6, p7, p8 := r0[i], r1[i], r2[i], r3[i], r4[i], r5[i], r6[i], r7[i], r8[i]
		p1, p2 = min(p1, p2), max(p1, p2)
		p4, p5 = min(p4, p5), max(p4, p5)
		p7, p8 = min(p7, p8), max(p7, p8)
		p0, p1 = min(p0, p1), max(p0, p1)
		p3, p4 = min(p3, p4), max(p3, p4)
		p6, p7 = min(p6, p7), max(p6, p7)
		p1, p2 = min(p1, p2), max(p1, p2)
		p4, p5 = min(p4, p5), max(p4, p5)
		p7, p8 = min(p7, p8), max(p7, p8)
		p3 = max(p0, p3)
		p5 = min(p5, p8)
		p4, p7 = min(p4, p7), max(p4, p7)
		p6 = max(p3, p6)
		p4 = max(p1, p4)
		p2 = min(p2, p5)
		p4 = min(p4, p7)
		p4, p2 = min(p4, p2), max(p4, p2)
		p4 = max(p6, p4)
		bg[i] = min(p4, p2)
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
	bg := b.bg[:len(p.pix)]
	for i := absDiff(b.diff, p.pix, bg); i < len(p.pix); i++ {
		b.diff[i] = byte(abs(int(p.pix[i]) - int(bg[i])))
	}
	boxMean(b.diff, w, h, motionRadius, &b.box)
	t := threshold
	if t == Auto {
		var hist [256]int
		histogram(&hist, b.diff)
		med, seen := 0, 0
		for i, c := range hist {
			seen += c
			if 2*seen >= len(b.diff) {
				med = i
				break
			}
		}
		// The neighbourhood mean of pure noise has a median near its mean; objects stand
		// far above it. Sensitivity 0 takes five times the noise, 0.5 twice, 1 once.
		k := 5 - 6*sensitivity
		if sensitivity > 0.5 {
			k = 2 - sensitivity
		}
		// The floor keeps out what compression, flicker and shadows leave: 4 levels from
		// the middle sensitivity up, 10 at 0.
		t = max(k*float64(med), 4+float64(12*max(0, 0.5-sensitivity)))
	}
	// A whole level d is above t where it is above ⌊t⌋ (t ≥ 0).
	b.t = int(min(t, 255))
	binarize(mask, b.diff, b.t, false)
	return true
}

// repeats reports whether p repeats the last picture analysed: fewer than minMoved of its
// pixels differ from it by the foreground's test (the mean absolute difference over the
// neighbourhood above the last threshold). A video made at a higher frame rate than it was
// shot at shows each picture several times, each time re-encoded with a codec's noise.
// A repeat carries no motion: analysed as a new picture, its regions would not differ
// from a frame recentStep frames older that is the same picture, and every one of them
// would be taken for a ghost (dropGhosts); nor would a track's velocity be that of its
// object, which stops, then jumps. So the background's clocks, the ghost test's and the
// tracks' count pictures, not frames.
func (b *background) repeats(p *plane) bool {
	if b.last == nil || b.filled == 0 || b.w != p.w || b.h != p.h {
		return false
	}
	b.diff = grow(b.diff, len(p.pix))
	last := b.last[:len(p.pix)]
	for i := absDiff(b.diff, p.pix, last); i < len(p.pix); i++ {
		b.diff[i] = byte(abs(int(p.pix[i]) - int(last[i])))
	}
	boxMean(b.diff, p.w, p.h, motionRadius, &b.box)
	var hist [256]int
	histogram(&hist, b.diff)
	moved := 0
	for _, c := range hist[b.t+1:] {
		moved += c
	}
	return moved < minMoved
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// boxWork is boxMean's work space.
type boxWork struct {
	rows    []uint16 // per pixel: the sum along its row
	recip   []uint32 // per neighbourhood height 1 … 2r+1, per column: ⌊2²⁴/area⌋ + 1
	w, h, r int
	window  [2*maxBoxRadius + 1][]uint16
}

const maxBoxRadius = 7

// boxMean replaces p (w × h) by its mean over (2r+1)² neighbourhoods clipped to the plane
// (rounded down), r ≤ maxBoxRadius: sums along rows, then down columns (16 bits hold
// 225·255), each divided by the neighbourhood's area as a multiplication by its
// reciprocal: floor(v·(⌊2²⁴/n⌋+1)/2²⁴) = ⌊v/n⌋ for every v ≤ 255·n while 255·n² < 2²⁴.
func boxMean(p []byte, w, h, r int, b *boxWork) {
	if b.w != w || b.h != h || b.r != r {
		b.w, b.h, b.r = w, h, r
		b.recip = make([]uint32, (2*r+1)*w)
		for ny := 1; ny <= 2*r+1; ny++ {
			for x := range w {
				nx := min(x+r, w-1) - max(x-r, 0) + 1
				b.recip[(ny-1)*w+x] = 1<<24/uint32(nx*ny) + 1
			}
		}
	}
	b.rows = grow(b.rows, w*h)
	for y := 0; y < h; y++ {
		boxRow(b.rows[y*w:(y+1)*w], p[y*w:(y+1)*w], r)
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(y-r, 0), min(y+r, h-1)
		k := y1 - y0 + 1
		for i := range k {
			b.window[i] = b.rows[(y0+i)*w : (y0+i+1)*w]
		}
		out := p[y*w : (y+1)*w]
		m := b.recip[(k-1)*w : k*w]
		for x := colMeanRows(out, b.window[:k], m); x < w; x++ {
			var v uint32
			for _, row := range b.window[:k] {
				v += uint32(row[x])
			}
			out[x] = byte(v * m[x] >> 24)
		}
	}
}

// boxRow sets s[x] to the sum of p from x − r to x + r, clipped to the row.
func boxRow(s []uint16, p []byte, r int) {
	w := len(p)
	n := 0
	if r == 2 && w > 4 {
		n = box5Rows(s[2:w-2], p)
	}
	for x := 0; x < w; x++ {
		if x == 2 && n > 0 {
			x += n - 1
			continue
		}
		var v uint16
		for _, c := range p[max(x-r, 0) : min(x+r, w-1)+1] {
			v += uint16(c)
		}
		s[x] = v
	}
}

// mostlyInside reports whether insideShare of c's box or more lies inside one of boxes.
func mostlyInside(c rect, boxes []rect) bool {
	for _, m := range boxes {
		if share(c, m) >= insideShare {
			return true
		}
	}
	return false
}

// older returns a frame between recentStep and motionStep frames older than the frame
// being analysed, or nil at the start.
func (b *background) older() []byte {
	k := 0
	if b.recentAt[1] < b.recentAt[0] {
		k = 1
	}
	if b.recent[k] == nil || b.frames-b.recentAt[k] < recentStep {
		return nil
	}
	return b.recent[k]
}

// dropGhosts removes from comps the regions that differ from the background but not from
// an older frame: ghosts, where an object stood when the background was sampled and has
// since left (an object in view from the first frame). Their pixels are written into every
// sample, so that the background holds what is there now at once instead of after half the
// window. An object that stopped (4 to 8 frames ago) passes this test as well and is
// dropped with them, written into the background: lost. The test cannot tell it from a
// ghost, its mirror image (the background shows one picture, the frame another, neither
// changing); docs/tracking.md says what was tried. A moving object differs from the older frame
// at least where it came from and went to; a ghost only by noise. The test is per region,
// on its summed differences: per pixel, the smooth inside of a slow object would pass for
// a ghost.
//
// A piece of a moving object can pass it too: where coarse texture breaks an object into
// pieces, a piece that is the flat inside of its texture matches the older frame. Written
// into the background, it leaves a false region where the object was, which trails the
// object and widens its box. So a ghost lying half or more inside where a moving track is
// predicted (moving, analysed pixels) is dropped but not written: a true ghost there is
// written when the test finds it again with no moving track over it, or learnt by the
// median meanwhile.
func (b *background) dropGhosts(l *labeller, comps []rect, cur *plane, moving []rect) []rect {
	old := b.older()
	if old == nil || len(comps) == 0 {
		return comps
	}
	b.moved = grow(b.moved, 2*len(comps))
	clear(b.moved)
	for i, lab := range l.labels[:len(cur.pix)] {
		if lab == 0 {
			continue
		}
		k := l.rootOf[l.find(lab)]
		b.moved[2*k] += int64(abs(int(cur.pix[i]) - int(old[i])))
		b.moved[2*k+1] += int64(abs(int(cur.pix[i]) - int(b.bg[i])))
	}
	b.ghost = grow(b.ghost, len(comps))
	b.burn = grow(b.burn, len(comps))
	ghosts, burns := false, false
	for k := range comps {
		b.ghost[k] = 2*b.moved[2*k] < b.moved[2*k+1]
		b.burn[k] = b.ghost[k] && !mostlyInside(comps[k], moving)
		ghosts, burns = ghosts || b.ghost[k], burns || b.burn[k]
	}
	if !ghosts {
		return comps
	}
	if burns {
		for i, lab := range l.labels[:len(cur.pix)] {
			if lab != 0 && b.burn[l.rootOf[l.find(lab)]] {
				v := cur.pix[i]
				for s := 0; s < b.filled; s++ {
					b.ring[s][i] = v
				}
				b.bg[i] = v
			}
		}
	}
	out := comps[:0]
	for k, c := range comps {
		if !b.ghost[k] {
			out = append(out, c)
		}
	}
	return out
}
