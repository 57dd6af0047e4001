package gpu

import (
	"unsafe"

	"trackink/overlay"
)

// The device's primitive records have overlay's field order (layout.h), so overlay's slices
// are uploaded as they are. These assertions fail to compile if an overlay type changes size.
var (
	_ [unsafe.Sizeof(overlay.Box{}) - boxBytes]byte
	_ [boxBytes - unsafe.Sizeof(overlay.Box{})]byte
	_ [unsafe.Sizeof(overlay.Line{}) - lineBytes]byte
	_ [lineBytes - unsafe.Sizeof(overlay.Line{})]byte
	_ [unsafe.Sizeof(overlay.Curve{}) - curveBytes]byte
	_ [curveBytes - unsafe.Sizeof(overlay.Curve{})]byte
)

func boxesBytes(b []overlay.Box) []byte    { return bytesOf(b) }
func linesBytes(l []overlay.Line) []byte   { return bytesOf(l) }
func curvesBytes(c []overlay.Curve) []byte { return bytesOf(c) }

// sizeofParams is the parameter block's size.
const sizeofParams = unsafe.Sizeof(tkParams{})

// The effects' record sizes.
const (
	sizeofEffects   = unsafe.Sizeof(tkEffects{})
	sizeofEffectBox = unsafe.Sizeof(overlay.EffectBox{})
	sizeofCamera    = unsafe.Sizeof(tkCamera{})
)
