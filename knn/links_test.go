package knn

import (
	"math"
	"testing"
)

// A stamp set that wraps forgets the stamps past its length too: a later, larger frame
// reslices into them (once a position marked before the wrap read as a member after it).
func TestStampSetWrapForgetsPastLen(t *testing.T) {
	var s stampSet
	s.resize(8)
	s.next()
	s.add(6) // stamp 1
	s.resize(4)
	s.stamp = math.MaxUint32
	s.next() // wraps to 1
	s.resize(8)
	if s.has(6) {
		t.Error("position 6, marked before the wrap, is a member after it")
	}
}
