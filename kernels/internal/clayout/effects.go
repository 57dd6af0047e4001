package clayout

// #cgo CXXFLAGS: -std=c++17
// long tk_effects_layout(int i);
import "C"

// EffectsEntry returns entry i of effects.h's table: sizeof TkEffectBox, TkFxPlane, TkFxCopy,
// TkEffects, then the offsets of TkEffectBox's kind and tint, TkFxPlane's stride and black,
// TkEffects' boxes, planes and copies, TkParams' effects, then sizeof TkCamera, its amp,
// shift, planes and copies, TkParams' camera, TkEffectBox's sortLo and sortColumns, and
// TkCamera's tint and move, TkEffectBox's feather, transparency, sortDescending, sortKey and
// sortMinRun, TkCamera's ampC and keyC, sizeof TkFxGauss, its cols, TkEffects' gauss,
// TkFxGauss' r, sizeof TkFxSort, its cols and first, TkEffects' sort and sortLines; -1 past
// the end.
func EffectsEntry(i int) int { return int(C.tk_effects_layout(C.int(i))) }
