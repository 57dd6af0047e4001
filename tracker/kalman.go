package tracker

// kalman1 is a constant-velocity Kalman filter on one coordinate: state position p and
// velocity v (per frame), covariance P, process noise of a white acceleration q (the
// discrete model's Q = q·[¼ ½; ½ 1]) and measurement noise r. A track runs four of them,
// on its centre's x and y and its width and height: independent, which is exact when the
// noises are (they are modelled so) and costs a few multiplications each.
type kalman1 struct {
	p, v       float64
	pp, pv, vv float64 // covariance
	q, r       float64
}

func newKalman1(z, q, r, velVar float64) kalman1 {
	return kalman1{p: z, pp: max(r, q), vv: velVar, q: q, r: r}
}

// predict advances one frame.
func (k *kalman1) predict() {
	k.p += k.v
	// P = F P Fᵀ + Q with F = [1 1; 0 1].
	pp := k.pp + 2*k.pv + k.vv + k.q/4
	pv := k.pv + k.vv + k.q/2
	k.vv += k.q
	k.pp, k.pv = pp, pv
}

// update corrects with a measurement z of the position.
func (k *kalman1) update(z float64) { k.updateNoise(z, k.r) }

// updateNoise corrects with a measurement z of the position whose noise is r.
func (k *kalman1) updateNoise(z, r float64) {
	s := k.pp + r
	if s <= 0 {
		k.p = z
		return
	}
	kp, kv := k.pp/s, k.pv/s
	y := z - k.p
	k.p += float64(kp * y) // each product rounded on its own (package doc)
	k.v += float64(kv * y)
	// P = (I − K H) P.
	pp := (1 - kp) * k.pp
	pv := (1 - kp) * k.pv
	vv := k.vv - float64(kv*k.pv)
	k.pp, k.pv, k.vv = pp, pv, vv
}
