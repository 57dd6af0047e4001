package overlay

import (
	"trackink/scene"
	"trackink/sdf"
)

// Particles (the pack's particle layer): every frame, each tracked point that moved since
// the frame before emits Particles small dots at its position, which drift on with half the
// track's velocity plus a spread of their own and fade out over ParticleLife frames. Each
// particle's spread and size come from a hash of ParticleSeed, the track, the frame number
// and the particle's number, so a render is the same every time; the live particles are
// the Builder's state, moved on by every frame built (a segment's replayed frames too), so
// segments join exactly.

// particle is one live dot.
type particle struct {
	x, y, vx, vy float32
	r            float32 // radius px
	age          int32
	c            scene.Color
}

// particles are the live particles and each track's last position.
type particles struct {
	live []particle
	last map[int]trackAt // track id → where it was, and in which frame
}

// trackAt is a track's position in a frame.
type trackAt struct {
	x, y  float32
	frame int
}

func newParticles() *particles { return &particles{last: map[int]trackAt{}} }

// update moves the particles on to frame index and emits those of frame f's moving points,
// in the style's colours; then adds every live particle to p as a dot.
func (ps *particles) update(b *Builder, p *Primitives, f *scene.Frame, index int) {
	s := &b.style
	// Move and age the live ones, dropping those past their life.
	n := 0
	for _, q := range ps.live {
		q.x, q.y, q.age = q.x+q.vx, q.y+q.vy, q.age+1
		if int(q.age) < s.ParticleLife {
			ps.live[n] = q
			n++
		}
	}
	ps.live = ps.live[:n]
	size := max(s.PointRadius, 3) * 0.6
	for i := range f.Points {
		pt := &f.Points[i]
		if pt.ID == scene.NoID {
			continue
		}
		prev, ok := ps.last[pt.ID]
		ps.last[pt.ID] = trackAt{pt.X, pt.Y, index}
		vx, vy := pt.X-prev.x, pt.Y-prev.y
		if !ok || prev.frame != index-1 || vx*vx+vy*vy < 0.25 {
			continue // new, lost a frame, or still: no velocity to drift with
		}
		speed := sdf.Sqrt(vx*vx + vy*vy)
		c := b.pointColor(pt)
		if s.PointColor.Set {
			c = s.PointColor.C
		}
		for j := range s.Particles {
			h := particleHash(s.ParticleSeed, pt.ID, index, j)
			// Two uniform numbers in −1..1 for the spread, one in 0.5..1 for the size.
			u := float32(int32(h)) / (1 << 31)
			v := float32(int32(h>>32)) / (1 << 31)
			w := 0.5 + float32(uint16(h>>16))/(1<<17)
			spread := 0.5*speed + 1
			ps.live = append(ps.live, particle{x: pt.X, y: pt.Y, vx: 0.5*vx + u*spread, vy: 0.5*vy + v*spread,
				r: size * w, c: c})
		}
	}
	// Forget tracks not seen for a while (their ids may be long gone).
	if index%64 == 0 {
		for id, at := range ps.last {
			if at.frame < index-2 {
				delete(ps.last, id)
			}
		}
	}
	for _, q := range ps.live {
		fade := 1 - float32(q.age)/float32(s.ParticleLife)
		p.Lines = append(p.Lines, Line{X0: q.x, Y0: q.y, X1: q.x, Y1: q.y, Width: 2 * q.r, Color: Premul(q.c, s.PointOpacity*fade)})
	}
}

// particleHash is 64 mixed bits of (seed, track id, frame, particle number): SplitMix64's
// finaliser (Steele, Lea and Flood 2014) over their sum with odd multipliers.
func particleHash(seed uint64, id, frame, j int) uint64 {
	z := seed + uint64(id)*0x9e3779b97f4a7c15 + uint64(frame)*0xd1b54a32d192ed03 + uint64(j)*0x8cb92ba72f3d8dd7
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
