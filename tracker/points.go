package tracker

// pointTracker follows corners with pyramidal Lucas–Kanade (lk.go).
type pointTracker struct{}

func (p *pointTracker) step(t *Tracker, lum *plane) {}
