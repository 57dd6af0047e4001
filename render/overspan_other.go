//go:build !amd64 || !gc || purego

package render

import "trackink/overlay"

// haveAVX2 is false away from amd64 (and with -tags purego): overSpanGo runs.
var haveAVX2 = false

func overSpanAVX2(px *float32, n int, c *overlay.RGBA) { panic("render: no AVX2 here") }
