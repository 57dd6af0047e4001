package kernels

// #include "emu.h"
import "C"

// cLayout returns entry i of tk_emu_layout (for layout_test.go, which cannot use cgo).
func cLayout(i int) int { return int(C.tk_emu_layout(C.int(i))) }
