package tracker

import (
	"math"
	"testing"
)

// normalHist adds n values drawn evenly from the normal distribution of mean m and spread sd
// (by its quantiles, so that the histogram is the same each run) to h.
func normalHist(h *[256]int, n int, m, sd float64) {
	for i := range n {
		p := (float64(i) + 0.5) / float64(n)
		v := m + sd*math.Sqrt2*math.Erfinv(2*p-1)
		h[min(max(int(math.Round(v)), 0), 255)]++
	}
}

// isodata finds something where a class stands out of the background by more than
// 2 + 4 × (1 − sensitivity) of the background's spread, whatever its own spread: lamps
// and faces in the dark (measured on Megamind.avi: 17 ± 19 under 140 ± 43) are found at
// the default, a noisy or textured background alone never, an evenly lit street (87 ± 27
// and 181 ± 27, vtest.avi) only at a high sensitivity.
func TestIsodataStandsOut(t *testing.T) {
	type class struct {
		n     int
		m, sd float64
	}
	for _, tc := range []struct {
		name        string
		classes     []class
		sensitivity float64
		ok          bool
	}{
		{"lamps and faces in the dark", []class{{85000, 17, 19}, {15000, 140, 43}}, 0.5, true},
		{"bright shapes on noise", []class{{97000, 38, 6}, {3000, 180, 22}}, 0.5, true},
		{"noise alone", []class{{100000, 100, 12}}, 0.5, false},
		{"noise alone, sensitivity 0.8", []class{{100000, 100, 12}}, 0.8, false},
		{"noise alone, sensitivity 1", []class{{100000, 100, 12}}, 1, false},
		{"a street in daylight", []class{{63000, 87, 27}, {37000, 181, 27}}, 0.5, false},
		{"a street in daylight, sensitivity 1", []class{{63000, 87, 27}, {37000, 181, 27}}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h [256]int
			for _, c := range tc.classes {
				normalHist(&h, c.n, c.m, c.sd)
			}
			th, ok := isodata(&h, tc.sensitivity)
			if ok != tc.ok {
				t.Errorf("ok %v (threshold %d), want %v", ok, th, tc.ok)
			}
		})
	}
}

// The threshold lies between the classes' means, at the midpoint by default, nearer the
// background's with a higher sensitivity.
func TestIsodataThresholdMoves(t *testing.T) {
	var h [256]int
	normalHist(&h, 90000, 30, 5)
	normalHist(&h, 10000, 200, 5)
	for _, tc := range []struct {
		sensitivity float64
		want        int
	}{{0, 200}, {0.5, 115}, {1, 30}} {
		if th, ok := isodata(&h, tc.sensitivity); !ok || math.Abs(float64(th-tc.want)) > 1 {
			t.Errorf("sensitivity %g: threshold %d, ok %v; want %d±1, true", tc.sensitivity, th, ok, tc.want)
		}
	}
}
