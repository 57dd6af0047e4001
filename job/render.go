package job

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"trackink/internal/prose"
	"trackink/internal/suggest"
	"trackink/knn"
	"trackink/outfile"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// Options are one render of tracks onto a video.
type Options struct {
	// Video is what is read and written: Input, Output (the file to write: with Segment,
	// the segment's file), the encoding, the frame range, and the Log, FFmpegLog and
	// Progress callbacks. Render sets its Source, Segment, DeviceFrames and Partners.
	Video video.Options
	// Overlay is the look; its NewBackend is Place's.
	Overlay overlay.Options
	// Place is where frames are drawn (Place).
	Place Placement
	// Tracks is what is drawn.
	Tracks Tracks
	// Segment, when Count > 0, renders segment Index (from 0) of Count into Video.Output,
	// for video.Join: the frames before its first are replayed, so that it draws what the
	// whole render draws there.
	Segment Segment
	// ColorByAsked: colouring by class was asked for rather than a look's default, so that
	// tracks without classes are worth a warning.
	ColorByAsked bool
	// Say, when set, is told what the render decided and did, a line at a time; Warn,
	// when set, what the user should know about the result.
	Say, Warn func(string)
	// Partners, when set, is called once the video is complete, with what the render
	// did, for the files that land with it (video.Options.Partners).
	Partners func(Report) ([]*outfile.PartialFile, error)
	// Sweep, when set, is called with the output's path once its directory exists and
	// before the output is written: to clear the partial files of runs that were killed
	// (outfile.RemoveStalePartials).
	Sweep func(output string)
}

// Tracks says where the tracks come from: a file (Load), the seed scene (Seed), or the
// built-in tracker (Live); one of them.
type Tracks struct {
	// Load reads a tracks file for w × h pictures (the frame as the overlay draws on it:
	// displayed, unless video.Options.Orientation is Stored); turned: that picture is the
	// frame stored sideways, shown turned a quarter (tracks that fit the frame as stored are
	// worth a warning). Name is the file, as messages name it.
	Load func(w, h int, turned bool) (*scene.Tracks, error)
	Name string
	// Seed draws the built-in seed scene at the video's size.
	Seed bool
	// Live tracks the video as it is drawn.
	Live *Live
	// Judge, when set with Load, scores the tracks Load read, for w × h pictures, against
	// ground truth (Judge), to draw the errors with them.
	Judge func(tracks *scene.Tracks, w, h int) (*Judged, error)
}

// Segment is segment Index (from 0) of Count of a render; Count 0 for a whole render.
type Segment struct{ Index, Count int }

// Report is what a render did.
type Report struct {
	video.Stats
	// Stages are the overlay's per-stage times, summed over the frames drawn.
	Stages overlay.Timings
	// Plan is a segment's plan (nil for a whole render); Replayed the tracks frames a
	// segment or a preview replayed before its first.
	Plan     *video.SegmentPlan
	Replayed int
}

// Render draws the tracks onto every frame of the video o.Video reads and writes the
// result, audio and other streams kept, as video.Transcode does. Errors: ErrOption for a
// mistake in the options found before any work; video.ErrInputDamaged when the input broke
// off (what decoded is written, and the Report says how much); the context's error when it
// ends first; video's output errors (outfile.ErrExists…).
func Render(ctx context.Context, o Options) (Report, error) {
	var rep Report
	if err := layerNeedsNoPicture(o); err != nil {
		return rep, err
	}
	o.Overlay.NewBackend = o.Place.New
	vo := o.Video
	in, err := open(ctx, &vo, func(info video.Info) error {
		if err := info.CheckStart(vo.Start); err != nil {
			return badOption(err)
		}
		return info.CheckOddSize(vo)
	})
	if err != nil {
		return rep, err
	}
	defer in.close()
	if o.Segment.Count > 0 {
		in.source.Close() // a segment opens the input at its keyframe
		vo.Source = nil
		// A pass over the input's packets: where the render's frames lie and which of
		// them this segment draws. Too many segments is a mistake found before any work.
		plan, err := video.PlanSegment(ctx, vo, o.Segment.Index, o.Segment.Count)
		switch {
		case errors.Is(err, video.ErrSegmentCount), errors.Is(err, video.ErrNothingToRender), errors.Is(err, video.ErrUnseekable):
			return rep, badOption(err)
		case err != nil:
			return rep, err
		}
		vo.Segment, rep.Plan = plan, plan
	}
	info := in.info
	fitToVideo(&o, info)
	if info.VideoStreams > 1 {
		say(o, "%s has %d video streams: drawing on video stream %d (#0:%d, %dx%d %s), copying the others (--video-stream N picks another)",
			vo.Input, info.VideoStreams, info.VideoStream, info.StreamIndex, info.Width, info.Height, info.Codec)
	}
	src, err := in.tracks(ctx, &o)
	if err != nil {
		return rep, err
	}
	if o.Place.Resolved != "" {
		say(o, "backend auto: %s", o.Place.Resolved)
	}
	td := NewDrawer(o.Overlay, src)
	defer td.Close()
	draw := td.drawFunc()
	if live := o.Tracks.Live; live != nil {
		if err := live.Prime(ctx, vo, info.Frames); err != nil {
			return rep, err
		}
		// Its detectors work on the frames after the one drawn.
		vo.Ahead, vo.AheadFrames = live.Ahead, live.AheadFrames()
	}
	if note := o.Place.Frames(&vo, o.Tracks.Live != nil); note != "" {
		say(o, "%s", note)
	}
	if plan := vo.Segment; plan != nil {
		// The segment draws what the whole render draws: the drawer replays the tracks
		// from the render's first frame, and the plan says what is drawn, so that the
		// join refuses segments drawn otherwise.
		td.replayFrom, td.ctx = tracksFrame(plan.First, vo.FrameOffset), ctx
		plan.Drawing = drawing(o.Place.Backend, o.Overlay, src, td.replayFrom, plan.Last-vo.FrameOffset)
		say(o, "segment %d of %d: frames %d to %d of the render's %d to %d", plan.Index, plan.Count, plan.SegFirst, plan.SegLast, plan.First, plan.Last)
		if err := os.MkdirAll(filepath.Dir(vo.Output), 0o755); err != nil {
			return rep, fmt.Errorf("segments directory: %w", err)
		}
	}
	if o.Partners != nil {
		vo.Partners = func(s video.Stats) ([]*outfile.PartialFile, error) {
			rep.Stats, rep.Stages, rep.Replayed = s, td.stages, td.replayed
			return o.Partners(rep)
		}
	}
	if o.Sweep != nil {
		o.Sweep(vo.Output)
	}
	rep.Stats, err = video.Transcode(ctx, vo, draw)
	rep.Stages, rep.Replayed = td.stages, td.replayed
	// Whether the video ended (or broke off at damage) rather than the render failing:
	// only then is "the tracks go on past the video" news.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	// A segment may lie where nothing is tracked: only the whole render's frames are news.
	if tracks := stored(src); reachedEnd && tracks != nil && rep.Frames > 0 && vo.Segment == nil {
		for _, m := range td.spanWarnings(o.Tracks.Name, tracks, vo) {
			warn(o, "%s", m)
		}
	}
	// The panel's last counts are eval's only where the video holds the ground truth's frames.
	if s, ok := src.(*Stored); ok && s.Judged != nil && reachedEnd && rep.Frames > 0 && vo.Segment == nil && vo.End.IsZero() {
		if end, last := s.Judged.TruthEnd(), td.lastN+vo.FrameOffset; end > last {
			warn(o, "the ground truth has frames up to %d, but the video ends at frame %d: the panel's last counts are those of the frames up to it, not eval's over the whole ground truth", end, last)
		}
	}
	if live := o.Tracks.Live; reachedEnd && live != nil && live.Tracked() == 0 && rep.Frames > 0 {
		warn(o, "nothing was tracked in %s; %s", prose.Plural(rep.Frames, "frame"), live.NothingHint(rep.Frames))
	}
	td.warnings(o, in.w, in.h)
	if errors.Is(err, video.ErrNothingToRender) {
		err = badOption(err)
	}
	return rep, err
}

// spanWarnings says where the frames a whole render drew (with vo's range and offset) and
// those of tracks, the file name names, do not line up. With several files drawn together
// (scene.Tracks.Spans) it says so of each by its name, an empty one too: one file that
// draws nothing beside others is the likely mistake (a wrong file, base or offset).
func (t *Drawer) spanWarnings(name string, tracks *scene.Tracks, vo video.Options) []string {
	spans := tracks.Spans()
	if len(spans) < 2 || len(t.drawnBy) != len(spans) {
		if m := t.spanWarning(name, tracks.Span(), t.tracked > 0, vo); m != "" {
			return []string{m}
		}
		return nil
	}
	var ms []string
	for k, sp := range spans {
		m := t.spanWarning(tracks.Sources()[k], sp, t.drawnBy[k], vo)
		if sp.Frames == 0 {
			m = fmt.Sprintf("nothing of %s is drawn: the file is empty", tracks.Sources()[k])
		}
		if m != "" {
			ms = append(ms, m)
		}
	}
	return ms
}

// spanWarning says where the frames a whole render drew and those of the tracks file name,
// span, of which a tracked frame was drawn or not (drawn), do not line up: none of its frames was drawn
// (an offset or a frame base off, a range where nothing is tracked), or the video ends
// before them. "" when they line up; an empty file alone is not news here.
func (t *Drawer) spanWarning(name string, span scene.Span, drawn bool, vo video.Options) string {
	switch {
	case span.Frames == 0:
		return ""
	case t.lastN == 0:
		// No frame rendered reached tracks frame 1.
		return fmt.Sprintf("nothing of %s is drawn: --frame-offset %d puts its frames %d to %d on video frames %d to %d, after the last frame rendered%s",
			name, vo.FrameOffset, span.First, span.Last, span.First+vo.FrameOffset, span.Last+vo.FrameOffset, offsetHint)
	case !drawn:
		hint := offsetHint
		if t.firstN <= span.Last && t.lastN >= span.First {
			hint = ", none of them among those rendered" // a gap in the tracks, not an offset
		}
		return fmt.Sprintf("nothing of %s is drawn: the frames rendered show tracks frames %d to %d (--frame-offset %d), and it has frames %d to %d%s",
			name, t.firstN, t.lastN, vo.FrameOffset, span.First, span.Last, hint)
	case span.Last > t.lastN && vo.End.IsZero():
		// An --end stops before the video ends: the frames after it are not the news.
		return fmt.Sprintf("%s has frames up to %d, but the video ends at tracks frame %d: the frames after it are not drawn",
			name, span.Last, t.lastN)
	}
	return ""
}

// offsetHint ends a message that the tracks' frames and the video's do not line up.
const offsetHint = ": check --frame-offset (video frame N+1 shows tracks frame 1) and --frame-base (whether the tracks count from 0 or 1)"

// layerNeedsNoPicture refuses, for a layer (video.Options.Layer), what changes the picture
// rather than drawing over it: box effects and every blend but over (an editor blends
// the layer itself, with the blend mode named).
func layerNeedsNoPicture(o Options) error {
	st := o.Overlay.Style
	if !o.Video.Layer {
		return nil
	}
	var effects []string
	for _, e := range st.BoxEffects {
		if e != overlay.EffectNone {
			effects = append(effects, e.String())
		}
	}
	switch {
	case o.Tracks.Live != nil:
		// The layer's frames are drawn on transparency: the decoded picture is gone by then.
		return badOption(errors.New("--layer-only with --detect: the tracker reads the picture, which a layer render does not keep: track first (trackink track -o t.txt), then render the layer from its tracks (--tracks t.txt)"))
	case effects != nil:
		return badOption(fmt.Errorf("--layer-only: --box-effect %s (given, or the look's) changes the picture under the boxes, which a layer does not hold: render it burnt in, or give --box-effect none", strings.Join(effects, ",")))
	case st.Camera.AltersPicture():
		return badOption(errors.New("--layer-only: the camera look (--look cctv, --scanlines, --aberration, --grain, --grain-color, --vignette, --camera-tint) alters the picture, which a layer does not hold: render it burnt in (--camera-name alone stamps over the layer)"))
	case st.Blend != "" && st.Blend != "over":
		return badOption(fmt.Errorf("--layer-only: --blend %s mixes the overlay with the picture, which a layer does not hold: render the layer with --blend over and set its blend mode to %s in the editor", st.Blend, editorBlend[st.Blend]))
	}
	return nil
}

// editorBlend names the editors' blend mode that does what each of trackink's does, for a
// layer drawn with over and straight alpha.
var editorBlend = map[string]string{"add": "Add (Linear Dodge)", "screen": "Screen", "multiply": "Multiply", "lighten": "Lighter Color", "darken": "Darker Color"}

// fitToVideo fits o's look to the video: the camera look's clock counts at its frame rate
// unless told another (a time-lapse's 1/600 and a high-speed camera's 2 400 as they are).
func fitToVideo(o *Options, info video.Info) {
	if c := &o.Overlay.Style.Camera; c.FPS == 0 && float32(info.FrameRate) > 0 {
		c.FPS = float32(info.FrameRate)
	}
}

// tracksFrame is the tracks frame video frame v shows, with the tracks' frame 1 on video
// frame offset+1; at least 1, the first frame tracks have.
func tracksFrame(v, offset int) int { return max(1, v-offset) }

// opened is a render's input, open, with the size the overlay draws at.
type opened struct {
	source *video.Source
	info   video.Info
	w, h   int  // the picture the tracks are drawn on: displayed, unless Orientation is Stored
	turned bool // that picture is the frame stored sideways, shown turned a quarter
}

// open opens vo's input, read on from where the probe stopped (vo.Source), and refuses
// what it cannot render before any work: what check finds wrong with its Info, a picture
// too large for the memory available. A ctx that ends while the open waits (a pipe nobody
// writes to yet) ends it with ctx's cause.
func open(ctx context.Context, vo *video.Options, check func(video.Info) error) (*opened, error) {
	src, err := video.Open(ctx, vo.Input, vo.VideoStream)
	if err != nil {
		return nil, err
	}
	in := &opened{source: src, info: src.Info()}
	if err := check(in.info); err != nil {
		in.close()
		return nil, err
	}
	if err := video.CheckEncoderMemory(in.info.Width, in.info.Height, *vo); err != nil {
		in.close()
		return nil, err
	}
	vo.Source = src
	in.w, in.h, in.turned = in.info.DisplayWidth, in.info.DisplayHeight, in.info.Rotation%180 == 90
	if vo.Orientation == video.Stored {
		in.w, in.h, in.turned = in.info.Width, in.info.Height, false
	}
	return in, nil
}

func (in *opened) close() { in.source.Close() }

// tracks makes the Source o.Tracks says, fitting o's look to a file's tracks.
func (in *opened) tracks(ctx context.Context, o *Options) (Source, error) {
	switch {
	case o.Tracks.Live != nil:
		return o.Tracks.Live, nil
	case o.Tracks.Seed:
		return NewSeed(in.w, in.h), nil
	}
	s, err := loadStored(o, in.w, in.h, in.turned)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// loadStored reads the tracks file of o.Tracks for w × h pictures (turned: Tracks.Load's),
// with its judgement against ground truth where asked, fitting o's look to the tracks.
func loadStored(o *Options, w, h int, turned bool) (*Stored, error) {
	tracks, err := o.Tracks.Load(w, h, turned)
	if err != nil {
		return nil, err
	}
	fitTo(o, tracks)
	s := &Stored{Tracks: tracks}
	if o.Tracks.Judge != nil {
		if s.Judged, err = o.Tracks.Judge(tracks, w, h); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// fitTo fits o's look to the tracks (overlay.Style.ForClasses) and warns, once, when
// colouring by class was asked for and the tracks have no classes, or the class colours
// name a class they lack.
func fitTo(o *Options, tracks *scene.Tracks) {
	o.Overlay.Style.Sources = SourceNames(tracks.Sources())
	if o.Overlay.Style.ColorBy == overlay.BySource && len(tracks.Sources()) < 2 && o.ColorByAsked {
		warn(*o, "--color-by source: one tracks file, so every item takes its colour (give --tracks again to draw another file beside it)")
	}
	lacking := o.Overlay.Style.ForClasses(tracks.Classes())
	classes := o.Overlay.Style.Classes
	if o.Overlay.Style.ColorBy == overlay.ByClass && len(classes) == 0 && o.ColorByAsked {
		warn(*o, "--color-by class: the tracks have no classes, so each track keeps its own colour")
	}
	if lacking == nil {
		return
	}
	for i, class := range lacking {
		lacking[i] = fmt.Sprintf("%q%s", class, suggest.DidYouMean(class, classes))
	}
	known := "none"
	if len(classes) > 0 {
		known = strings.Join(classes, ", ")
	}
	warn(*o, "--class-colors: no box is of class %s (the tracks' classes: %s)", strings.Join(lacking, ", "), known)
}

// SourceNames are the names {source} shows for the tracks files at paths: each file's name
// without its directory and extension (gt for data/gt.txt), or, where two files share it,
// the paths as given.
func SourceNames(paths []string) []string {
	if paths == nil {
		return nil
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		base := filepath.Base(p)
		names[i] = cmp.Or(strings.TrimSuffix(base, filepath.Ext(base)), base)
	}
	for i := range names {
		for j := range i {
			if names[i] == names[j] {
				return slices.Clone(paths)
			}
		}
	}
	return names
}

// missingGlyphs says which characters of the labels font f could not draw, drawn as hollow
// boxes instead; "" when there were none.
func missingGlyphs(f *overlay.Font) string {
	if f == nil || len(f.Missing()) == 0 {
		return ""
	}
	const most = 20
	var b strings.Builder
	for i, r := range f.Missing() {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(f.Missing())-most)
			break
		}
		fmt.Fprintf(&b, " U+%04X", r)
		if unicode.IsGraphic(r) {
			fmt.Fprintf(&b, " %c", r)
		}
	}
	fonts := "neither " + f.Typeface() + " nor Go Medium has"
	if f.Typeface() == "Go Medium" {
		fonts = "Go Medium, the built-in font, lacks"
	}
	return fmt.Sprintf("labels hold characters that %s, drawn as hollow boxes:%s (--font a font that has them)", fonts, b.String())
}

// linkCapWarning says what the caps on links per point and per frame have dropped (c) in a
// render drawn with options o ("" if nothing), with the flags that raise them. The device's
// own kNN links are not counted (overlay.Drawer.LinksCapped).
func linkCapWarning(c knn.Capped, o overlay.Options) string {
	var dropped []string
	if c.PerPoint > 0 {
		dropped = append(dropped, fmt.Sprintf("%d links over --max-links-per-point %d", c.PerPoint, o.Links.MaxLinksPerPoint))
	}
	if c.PerFrame > 0 {
		dropped = append(dropped, fmt.Sprintf("%d links over --max-links-per-frame %d", c.PerFrame, o.Links.MaxLinks))
	}
	if len(dropped) == 0 {
		return ""
	}
	return fmt.Sprintf("%s dropped in %s (the shortest links are kept); raise the cap to keep more", strings.Join(dropped, " and "), prose.Plural(c.Frames, "frame"))
}

func say(o Options, format string, a ...any) {
	if o.Say != nil {
		o.Say(fmt.Sprintf(format, a...))
	}
}

func warn(o Options, format string, a ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, a...))
	}
}
