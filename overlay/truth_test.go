package overlay

import (
	"testing"

	"trackink/scene"
)

// TestJudgementPrimitives: a frame drawn with a judgement has its ground-truth boxes as thin
// dashed outlines before (under) the tracks' boxes, missed ones red; each tagged track's tag
// right of its label on its label's row (left of it at the frame's right edge; where the
// label would be for a look without labels); the panel in the top-right corner; and the next
// frame, judged by nothing, draws none of it.
func TestJudgementPrimitives(t *testing.T) {
	const w, h = 640, 360
	f := &scene.Frame{Index: 5, Boxes: []scene.Box{
		{ID: 1, X: 100, Y: 100, W: 40, H: 80},
		{ID: 2, X: 600, Y: 100, W: 40, H: 80}, // at the right edge
		{ID: 3, X: 300, Y: 200, W: 40, H: 80},
	}}
	j := &Judgement{
		Truth: []TruthBox{{X: 100, Y: 100, W: 40, H: 80}, {X: 400, Y: 50, W: 30, H: 60, Missed: true}},
		Tags:  map[int]string{1: TagFP, 2: TagIDSW},
		Panel: "frame 5  MOTA 50.0%  FP 1  FN 1  IDSW 1",
	}
	for _, labels := range []bool{true, false} {
		s := DefaultStyle()
		s.Labels = labels
		b := newTestBuilder(t, s, w, h)
		var p Primitives
		b.judgement = j
		b.Build(&p, f, nil)
		if len(p.Boxes) != 5 {
			t.Fatalf("labels %v: %d boxes, want 2 of ground truth and 3 tracks", labels, len(p.Boxes))
		}
		for i, want := range []RGBA{truthMatched, truthMissed} {
			g := p.Boxes[i]
			if g.StrokeColor != want || g.Dash.Period == 0 || g.Fill.A != 0 || g.Stroke >= p.Boxes[2].Stroke && p.Boxes[2].Stroke > 1.5 {
				t.Errorf("labels %v: ground truth %d: %+v; want a thin dashed outline in %v", labels, i, g, want)
			}
		}
		tags := map[string]Label{}
		var panel *Label
		trackLabels := map[int]Label{}
		for _, l := range p.Labels {
			switch string(l.Text) {
			case TagFP, TagIDSW:
				tags[string(l.Text)] = l
			case j.Panel:
				panel = &l
			case "#1":
				trackLabels[1] = l
			case "#2":
				trackLabels[2] = l
			}
		}
		if len(tags) != 2 || panel == nil {
			t.Fatalf("labels %v: tags %v, panel %v", labels, tags, panel)
		}
		if panel.X+panel.W > w || panel.X+panel.W < w-panel.H || panel.Y > panel.H {
			t.Errorf("labels %v: panel at %d,%d %dx%d: want it in the top-right corner", labels, panel.X, panel.Y, panel.W, panel.H)
		}
		if tags[TagFP].Background != tagColors[TagFP][1] {
			t.Errorf("FP tag's background %v, want red", tags[TagFP].Background)
		}
		if !labels {
			if fp := tags[TagFP]; fp.X != 100-int(s.ForHeight(h).BoxStroke/2) && fp.Y >= 100 {
				t.Errorf("no labels: FP tag at %d,%d, want it above box 1", fp.X, fp.Y)
			}
			continue
		}
		if l, fp := trackLabels[1], tags[TagFP]; fp.Y != l.Y || fp.X <= l.X+l.W {
			t.Errorf("FP tag at %d,%d; want right of label #1 at %d,%d %dx%d", fp.X, fp.Y, l.X, l.Y, l.W, l.H)
		}
		if l, sw := trackLabels[2], tags[TagIDSW]; sw.Y != l.Y || sw.X+sw.W >= l.X {
			t.Errorf("IDSW tag at %d,%d; want left of label #2 at %d,%d (the frame ends right of it)", sw.X, sw.Y, l.X, l.Y)
		}
		var next Primitives
		b.Build(&next, f, nil)
		if len(next.Boxes) != 3 || len(next.Labels) != 3 {
			t.Errorf("the next frame, unjudged: %d boxes, %d labels; want the tracks' 3 and 3", len(next.Boxes), len(next.Labels))
		}
	}
}

// TestLabelsKeepClearOfCorners: a track's label whose place is under the judgement's panel
// (top right) or the camera's stamp (top left) moves off it, as off another label; the
// panel once hid the label and the FP tag of a box at the top right.
func TestLabelsKeepClearOfCorners(t *testing.T) {
	const w, h = 640, 360
	for _, tc := range []struct {
		name  string
		box   scene.Box
		judge bool
		stamp bool
	}{
		{"panel", scene.Box{ID: 9, X: 560, Y: 2, W: 60, H: 80}, true, false},
		{"stamp", scene.Box{ID: 9, X: 4, Y: 2, W: 60, H: 80}, false, true},
	} {
		s := DefaultStyle()
		if tc.stamp {
			s.Camera.Name = "CAM 01"
		}
		b := newTestBuilder(t, s, w, h)
		if tc.judge {
			b.judgement = &Judgement{Tags: map[int]string{9: TagFP}, Panel: "frame 5  MOTA 50.0%  FP 1  FN 1  IDSW 1"}
		}
		var p Primitives
		b.Build(&p, &scene.Frame{Index: 5, Boxes: []scene.Box{tc.box}}, nil)
		var corner, label *Label
		for i := range p.Labels {
			switch l := &p.Labels[i]; {
			case string(l.Text) == "#9":
				label = l
			case string(l.Text) != TagFP:
				corner = l
			}
		}
		if corner == nil || label == nil {
			t.Fatalf("%s: labels %+v", tc.name, p.Labels)
		}
		if label.X < corner.X+corner.W && corner.X < label.X+label.W && label.Y < corner.Y+corner.H && corner.Y < label.Y+label.H {
			t.Errorf("%s: label #9 at %d,%d %dx%d lies under the corner label at %d,%d %dx%d", tc.name,
				label.X, label.Y, label.W, label.H, corner.X, corner.Y, corner.W, corner.H)
		}
	}
}
