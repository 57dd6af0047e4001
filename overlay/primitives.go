package overlay

import (
	"trackink/composite"
	"trackink/sdf"
)

// RGBA is a premultiplied colour with components in [0, 1].
type RGBA struct{ R, G, B, A float32 }

// Scale returns c at k times its opacity (premultiplied: every component scales).
func (c RGBA) Scale(k float32) RGBA { return RGBA{c.R * k, c.G * k, c.B * k, c.A * k} }

// Dash is a stroke's dash pattern along its arc length: a dash of length On at the start
// of every Period pixels (the dashes [k·Period, k·Period + On], k = 0, 1, …), each with the
// stroke's round caps, so On = 0 draws round dots. Period 0 is a solid stroke. Phase is the
// arc length at the stroke's start (lines and curves; a box's outline ignores it): a phase
// that grows frame by frame moves the dashes back toward the start, one that shrinks moves
// them on (Style.LinkFlow).
type Dash struct {
	On, Period float32
	Phase      float32
}

// Line is a straight stroke with round caps; a zero-length line is a disk of diameter Width.
// Dashes start at (X0, Y0). A Gradient line runs from Color at (X0, Y0) to Color1 at
// (X1, Y1): a pixel takes the colour at its nearest point of the segment, mixed by that
// point's parameter t (0 at the start, 1 at the end), Color + (Color1 − Color)·t in the
// layer's space.
type Line struct {
	X0, Y0, X1, Y1 float32
	Width          float32
	Color          RGBA
	Dash           Dash
	Color1         RGBA // the colour at (X1, Y1), with Gradient
	Gradient       bool
}

// Curve is a quadratic Bezier stroke from (X0, Y0) to (X2, Y2) with control point (X1, Y1).
//
// Consecutive curves can form one stroke (a trail): a curve with Joined set continues the one
// before it, and the run is drawn with its first curve's width and colour, taking each pixel's
// coverage from its distance to the nearest point of the whole run, so translucent pieces
// do not darken where they meet. Fade0 and Fade1 fade the stroke out along the curve: the
// opacity is multiplied by 1 − fade, interpolated from Fade0 at (X0, Y0) to Fade1 at (X2, Y2).
//
// Dash is measured by arc length along the curve from (X0, Y0) (along its flattened
// chords); a run of joined curves takes its first curve's, each curve starting the pattern
// afresh.
type Curve struct {
	X0, Y0, X1, Y1, X2, Y2 float32
	Width                  float32
	Color                  RGBA
	Fade0, Fade1           float32
	Joined                 bool
	Dash                   Dash
}

// Box is a rounded rectangle with a translucent fill and a stroke centred on its edge,
// drawn in one pass: the stroke lies over the fill.
//
// The stroke is the whole outline unless Dash or Bracket says otherwise. Both are measured
// by arc length along the outline, rounded corners included, in each quarter of it (from
// the middle of the top or bottom side to the middle of the left or right side), so that
// every box is symmetric: a dashed outline has dashes centred on the sides' middles, its
// period stretched so that each quarter holds a whole number of periods; brackets keep the
// outline within Bracket × the side's length of each corner (and always the rounded corner
// itself). Bracket takes precedence over Dash.
type Box struct {
	X, Y, W, H  float32 // top-left corner and size
	Radius      float32 // corner radius, 0 ≤ Radius ≤ min(W, H)/2
	Stroke      float32 // stroke width; 0 for none
	Fill        RGBA
	StrokeColor RGBA
	Dash        Dash    // a dashed outline (Period > 0)
	Bracket     float32 // corner brackets, a fraction of the side, 0 < Bracket < 0.5; 0 for none
}

// Label is a line of text on a rounded background. Its top-left corner is at (X, Y), already
// placed inside the frame by the caller where possible (see Primitives.AddBoxLabel).
type Label struct {
	X, Y       int
	W, H       int // the background's size: Font.LabelSize(Text), measured once by the Builder
	Text       []byte
	Color      RGBA // text
	Background RGBA
	// Outline outlines the text by this many px (0: none) in OutlineColor: the glyphs'
	// coverage dilated by a disc (Font.Layout places the outline glyphs before the text's).
	Outline      float32
	OutlineColor RGBA
}

// Primitives is everything one frame's overlay draws, in paint order: boxes first, then
// lines, then curves, then labels; within a kind, in slice order.
type Primitives struct {
	Boxes  []Box
	Lines  []Line
	Curves []Curve
	Labels []Label
	// Effects change the frame under boxes before the rest is drawn (effects.go).
	Effects []EffectBox
	// Font is the font the labels are set in.
	Font *Font
	// Glow lights every line, curve and box outline (not label backgrounds): a soft
	// falloff beyond each stroke's edge, from the same distance as its coverage.
	Glow sdf.Glow
	// Blend is how the whole layer meets the frame: over, add, screen, multiply, lighten
	// or darken (package composite's "Add and screen" and "Multiply, lighten and darken").
	Blend composite.Blend
	// Transparency is 1 − the layer's master opacity (Style.OverlayOpacity): the layer but
	// its labels is scaled by 1 − Transparency as it is composited, in every blend mode;
	// the labels are composited after it at their own opacity (text to be read). 0: opaque.
	Transparency float32
	// Camera alters the whole frame after the layer is composited (camera.go).
	Camera CameraPass
	// Echo lays the layers of the frames before under this one's (echo.go).
	Echo EchoPass
	// text is the arena that Label.Text slices point into, reused frame to frame.
	text []byte
}

// Reset empties p, keeping its storage for the next frame.
func (p *Primitives) Reset() {
	p.Boxes = p.Boxes[:0]
	p.Lines = p.Lines[:0]
	p.Curves = p.Curves[:0]
	p.Labels = p.Labels[:0]
	p.Effects = p.Effects[:0]
	p.text = p.text[:0]
}
