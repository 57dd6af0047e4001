//go:build race

package render

// raceEnabled says the race detector is on: its runtime allocates on its own (sync.Pool
// drops what it is given at random), so allocation counts are not the renderer's.
const raceEnabled = true
