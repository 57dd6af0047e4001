package cputime

import "testing"

// Work done on the CPU shows in Self, which never goes back.
func TestSelfGrows(t *testing.T) {
	before := Self()
	x := 0
	for i := range 200_000_000 {
		x ^= i * i
	}
	if after := Self(); after <= before || x == 1 {
		t.Errorf("Self went from %v to %v over a busy loop", before, after)
	}
}
