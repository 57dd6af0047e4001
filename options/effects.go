package options

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// The box effects' flags (overlay/effects.go): --box-effect and --effect-strength, both
// comma lists, also style-file keys.

// registerEffectFlags adds the effects' flags for style st: the box effects', then the
// camera look's (cameraflags.go), which change the picture too.
func registerEffectFlags(fs *pflag.FlagSet, st *overlay.Style) {
	fs.Var(effectsValue{&st.BoxEffects}, "box-effect", "change the frame under each box before drawing: "+
		strings.Join(overlay.EffectNames(), ", ")+"; a comma list gives track id k the k-th mod its length")
	fs.Var(strengthsValue{&st.EffectStrengths}, "effect-strength", "each --box-effect's strength, a comma list in the same order: "+overlay.EffectHelp)
	fs.Var(pairValue{&st.SortRange, "low,high"}, "sort-range", "--box-effect sort: sort the runs of pixels whose --sort-key lies in LOW,HIGH (fractions of its range, 0..1: luma from black to white; for hue, LOW above HIGH wraps through red: 0.9,0.1 the reds; greys lie in no hue range)")
	fs.BoolVar(&st.SortColumns, "sort-columns", st.SortColumns, "--box-effect sort: sort along columns instead of rows")
	fs.Var(choiceValue{&st.SortKey, overlay.SortKeys}, "sort-key", "--box-effect sort: sort by, and gate --sort-range on, luma, saturation (distance from grey) or hue (the colour's angle, red 0, yellow, green, cyan, blue, magenta)")
	fs.IntVar(&st.SortMinRun, "sort-min-run", st.SortMinRun, "--box-effect sort: leave runs shorter than this many px unsorted, 0.."+strconv.Itoa(overlay.MaxSortMinRun)+" (0: sort every run)")
	fs.Var(choiceValue{&st.SortOrder, overlay.SortOrders}, "sort-order", "--box-effect sort: ascending (darkest first, left or top) or descending (brightest first)")
	fs.Float32Var(&st.EffectOpacity, "effect-opacity", st.EffectOpacity, "mix each --box-effect with the picture under it, 0..1 (1: the effect alone)")
	fs.Float32Var(&st.EffectFeather, "effect-feather", st.EffectFeather, "fade each --box-effect in over this many px inside the box's edge (a soft privacy blur, a focus spot); 0: over its 1-px anti-aliased edge")
	registerCameraFlags(fs, st)
}

// pairValue is a pair of numbers, A,B (its type names them: low,high; dx,dy).
type pairValue struct {
	r   *[2]float32
	typ string
}

func (v pairValue) String() string {
	if v.r == nil {
		return ""
	}
	return strconv.FormatFloat(float64(v.r[0]), 'g', -1, 32) + "," + strconv.FormatFloat(float64(v.r[1]), 'g', -1, 32)
}

func (v pairValue) Set(s string) error {
	var pair []float32
	if err := (strengthsValue{&pair}).Set(s); err != nil {
		return err
	}
	if len(pair) != 2 {
		return fmt.Errorf("%q: want %s", s, strings.ToUpper(v.typ))
	}
	*v.r = [2]float32{pair[0], pair[1]}
	return nil
}

func (v pairValue) Type() string { return v.typ }

// effectsValue is a comma list of effect names.
type effectsValue struct{ fx *[]overlay.Effect }

func (v effectsValue) String() string {
	if v.fx == nil {
		return ""
	}
	names := make([]string, len(*v.fx))
	for i, e := range *v.fx {
		names[i] = e.String()
	}
	return strings.Join(names, ",")
}

func (v effectsValue) Set(s string) error {
	*v.fx = nil
	if strings.TrimSpace(s) == "" {
		return nil
	}
	for _, name := range strings.Split(s, ",") {
		e, err := overlay.ParseEffect(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		*v.fx = append(*v.fx, e)
	}
	return nil
}

func (effectsValue) Type() string { return "list" }

// strengthsValue is a comma list of numbers.
type strengthsValue struct{ s *[]float32 }

func (v strengthsValue) String() string {
	if v.s == nil {
		return ""
	}
	parts := make([]string, len(*v.s))
	for i, x := range *v.s {
		parts[i] = strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	return strings.Join(parts, ",")
}

func (v strengthsValue) Set(s string) error {
	*v.s = nil
	if strings.TrimSpace(s) == "" {
		return nil
	}
	for _, part := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(part), 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%q is not a number", part)
		}
		*v.s = append(*v.s, float32(x))
	}
	return nil
}

func (strengthsValue) Type() string { return "list" }
