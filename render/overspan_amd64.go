//go:build gc && !purego

package render

import "golang.org/x/sys/cpu"

// haveAVX2 selects overSpanAVX2. It is a variable so that the tests can run the Go twin on the
// same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// overSpanAVX2 is overSpanGo on the 8·groups pixels of each plane from the pixel at p (in the
// first plane; the others follow at composite's plane stride).
//
//go:noescape
func overSpanAVX2(p *float32, groups int, c *layerColor)
