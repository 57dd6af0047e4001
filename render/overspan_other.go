//go:build !amd64 || !gc || purego

package render

// haveAVX2 is false away from amd64 (and with -tags purego): overSpanGo runs.
var haveAVX2 = false

func overSpanAVX2(p *float32, groups int, c *layerColor) { panic("render: no AVX2 here") }
