//go:build !race

package render

// raceEnabled says the race detector is on (race_on_test.go).
const raceEnabled = false
