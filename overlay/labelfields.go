package overlay

import "strconv"

// appendPadded appends x with the given decimals, zeros in front of its integer part up to
// digits digits (after a minus sign), so coordinates keep their width: 7 with 4 digits is
// "0007", −7 "-0007".
func appendPadded(dst []byte, x float32, decimals, digits int) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, float64(x), 'f', decimals, 32)
	if dst[start] == '-' {
		start++
	}
	intLen := len(dst) - start
	if decimals > 0 {
		intLen -= decimals + 1
	}
	pad := digits - intLen
	if pad <= 0 {
		return dst
	}
	for range pad { // room, then shift the digits right
		dst = append(dst, '0')
	}
	copy(dst[start+pad:], dst[start:len(dst)-pad])
	for i := start; i < start+pad; i++ {
		dst[i] = '0'
	}
	return dst
}

// appendHex appends track id's six hex digits: a hash of the id (splitmix64's finaliser),
// so every track keeps its string and neighbouring ids look unrelated.
func appendHex(dst []byte, id int) []byte {
	z := uint64(id) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	const hex = "0123456789abcdef"
	for i := 5; i >= 0; i-- {
		dst = append(dst, hex[z>>(4*i)&15])
	}
	return dst
}

// digitsFor is how many digits the larger side of a w × h frame has: {x} {y} {w} {h} are
// padded to it.
func digitsFor(w, h int) int { return len(strconv.Itoa(max(w, h))) }
