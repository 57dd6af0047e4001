package goldens

import (
	"image"
	"path/filepath"
	"testing"

	"trackink/composite"
	"trackink/job"
	"trackink/kernels/gpu"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// The looks that keep state from frame to frame (issue 39: echo trails, particles, text on
// tracks: speed, scrolling lines, the typewriter; pulsing and flowing links) drawn by an
// overlay.Drawer on real footage: frames 1 to drawerFrame−1 of the footage tracks advanced
// (overlay.Drawer.Advance, as a segment replays the frames before it), frame drawerFrame
// drawn on its decode.

// drawerFrame is the footage frame the drawer goldens draw (1-based).
const drawerFrame = 240

// drawerCases are the drawer goldens: a look name and its style.
func drawerCases() []struct {
	name  string
	style func() overlay.Style
} {
	return []struct {
		name  string
		style func() overlay.Style
	}{
		{"drawer-echo", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.Echo, st.EchoDecay, st.FillOpacity, st.Palette, st.BoxStroke, st.LineWidth = 6, 0.7, 0, "neon", 2, 1.5
			return st
		}},
		{"drawer-echo-zoom", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.Echo, st.EchoDecay, st.EchoScale, st.EchoOffset = 8, 0.75, 1.03, [2]float32{0, -2}
			st.Labels, st.FillOpacity, st.Palette, st.BoxStroke, st.LineWidth, st.PointRadius = false, 0, "neon", 2, 1.5, 3
			return st
		}},
		{"drawer-particles", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.Particles, st.ParticleLife, st.ParticleSeed = 6, 16, 7
			st.FillOpacity, st.Palette, st.BoxStroke, st.LineWidth = 0, "neon", 2, 1.5
			return st
		}},
		{"drawer-text", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.Font, st.LabelFormat = "Go Mono", "{hex} x{x} y{y} v{speed:.1f}"
			st.ClassLabels = map[string]string{"person": "{hex} {line}"}
			st.LabelLines, st.LabelLineFrames, st.LabelReveal = codeLines, 20, 2
			st.FillOpacity, st.BoxStroke, st.LineWidth = 0, 1.5, 0
			return st
		}},
		{"drawer-lines", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.LineWidth, st.CurveWidth, st.Bend, st.BendAway, st.LinkPulse = 0, 2.5, 0.25, true, 0.8
			st.LinkReach, st.LinkOpacity, st.FillOpacity, st.Palette, st.BoxStroke = 0.5, 0.9, 0, "neon", 2
			return st
		}},
		// render --gt: the ground truth (truthJudged) dashed under the default look.
		{"drawer-truth", overlay.DefaultStyle},
		{"drawer-flow", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.LinkStyle, st.LineWidth, st.CurveWidth, st.LinkFlow = "dotted", 3, 2, 2.5
			st.LinkReach, st.LinkOpacity, st.FillOpacity, st.Palette, st.BoxStroke = 0.5, 1, 0, "neon", 2
			return st
		}},
		// --jitter: tracks moved apart, their links drawn between the moved points on the
		// host for both backends (the device's link builder sees no jitter).
		{"drawer-jitter", func() overlay.Style {
			st := overlay.DefaultStyle()
			st.Jitter, st.Trail, st.LinkReach, st.FillOpacity = 12, 20, 0.5, 0
			return st
		}},
	}
}

// codeLines are drawer-text's {line}s, typed on.
var codeLines = []string{"if (track.lost) reacquire();", "for (i = 0; i < n; i++) link(i);", "assert(kalman.ok());", "return SIGNAL_LOCK;"}

// drawWithDrawer runs the footage tracks (or tr, where set) through a Drawer in style st up
// to drawerFrame and returns that frame, drawn; with each frame's judgement against ground
// truth where judged is set (render --gt).
func drawWithDrawer(t *testing.T, st overlay.Style, newBackend overlay.NewBackend, tr *scene.Tracks, judged *job.Judged) *composite.YUV420P {
	t.Helper()
	fr, err := FootageFrame(drawerFrame)
	if err != nil {
		t.Fatal(err)
	}
	if tr == nil {
		tr = readFootageTracks(t)
	}
	d, err := overlay.New(overlay.Options{Style: st, Links: knn.Options{K: 3, Hysteresis: knn.DefaultHysteresis},
		NewBackend: newBackend, Backend: overlay.BackendOptions{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var f scene.Frame
	judge := func(n int) {
		if judged != nil {
			d.Judge(judged.Frame(n))
		}
	}
	for n := 1; n < drawerFrame; n++ {
		judge(n)
		if err := d.Advance(footageW, footageH, tr.Frame(n, &f)); err != nil {
			t.Fatal(err)
		}
	}
	judge(drawerFrame)
	if err := d.Draw(fr, tr.Frame(drawerFrame, &f)); err != nil {
		t.Fatal(err)
	}
	return fr
}

// TestDrawerGoldens draws each drawer case and compares it with testdata/drawer/NAME.png
// (-update rewrites them; look at each); the emulated device must draw the same within
// FootageTolerance, and -docs writes them into that directory too.
func TestDrawerGoldens(t *testing.T) {
	if _, err := FootageFrame(drawerFrame); err != nil {
		t.Fatal(err)
	}
	for _, c := range drawerCases() {
		t.Run(c.name, func(t *testing.T) {
			var tracks *scene.Tracks
			var judged *job.Judged
			if c.name == "drawer-truth" {
				tracks, judged = truthJudged(t)
			}
			cpu := rgbOf(t, drawWithDrawer(t, c.style(), render.NewBackend, tracks, judged))
			emu := rgbOf(t, drawWithDrawer(t, c.style(), gpu.NewEmu, tracks, judged))
			checkFootage(t, filepath.Join("testdata", "drawer", c.name+".png"), cpu, cpu, emu)
			if *docsDir != "" {
				if err := writePNG(filepath.Join(*docsDir, c.name[len("drawer-"):]+".png"), cpu.SubImage(image.Rect(0, 60, 768, 420))); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
