//go:build gc && !purego

package render

import (
	"golang.org/x/sys/cpu"

	"trackink/overlay"
)

// haveAVX2 selects overSpanAVX2. It is a variable so that the tests can run the Go twin on the
// same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// overSpanAVX2 is overSpanGo on the n pixels at px.
//
//go:noescape
func overSpanAVX2(px *float32, n int, c *overlay.RGBA)
