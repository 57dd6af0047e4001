package kernels

import (
	"unsafe"

	"trackink/render"
)

// The device's primitive records have render's field order (layout.h), so render's slices
// are uploaded as they are. These assertions fail to compile if a render type changes size.
var (
	_ [unsafe.Sizeof(render.Box{}) - boxBytes]byte
	_ [boxBytes - unsafe.Sizeof(render.Box{})]byte
	_ [unsafe.Sizeof(render.Line{}) - lineBytes]byte
	_ [lineBytes - unsafe.Sizeof(render.Line{})]byte
	_ [unsafe.Sizeof(render.Curve{}) - curveBytes]byte
	_ [curveBytes - unsafe.Sizeof(render.Curve{})]byte
)

func boxesBytes(b []render.Box) []byte    { return bytesOf(b) }
func linesBytes(l []render.Line) []byte   { return bytesOf(l) }
func curvesBytes(c []render.Curve) []byte { return bytesOf(c) }

// sizeofParams is the parameter block's size.
const sizeofParams = unsafe.Sizeof(tkParams{})
