package options

import (
	"fmt"
	"strconv"
	"strings"

	"trackink/scene"
)

// parseSize reads WxH (1920x1080, 1920X1080 or 1920×1080), nothing before or after.
func parseSize(s string) (w, h int, err error) {
	for _, sep := range []string{"x", "X", "×"} {
		ws, hs, ok := strings.Cut(s, sep)
		if !ok {
			continue
		}
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if err1 == nil && err2 == nil && w >= 1 && h >= 1 {
			return w, h, nil
		}
	}
	return 0, 0, fmt.Errorf("%q: want WIDTHxHEIGHT, like 1920x1080", s)
}

// scaleTracks applies --tracks-size: the tracks were made on a video of that size and are
// drawn on one of w × h.
func (t *Tracks) scaleTracks(tr *scene.Tracks, w, h int) error {
	sw, sh, err := t.madeSize(w, h)
	switch {
	case err != nil:
		return err
	case tr.Format() == scene.FormatYOLO:
		return UsageError{fmt.Errorf("--tracks-size: YOLO's coordinates are fractions of the frame, whatever its size")}
	}
	tr.Scale(float32(w)/float32(sw), float32(h)/float32(sh))
	return nil
}

// CheckSize refuses, before any work, a --tracks-size that is not WxH, or one given without
// the size of the w × h picture to scale to; nil without --tracks-size.
func (t *Tracks) CheckSize(w, h int) error {
	if t.Size == "" {
		return nil
	}
	_, _, err := t.madeSize(w, h)
	return err
}

// madeSize returns --tracks-size's size, the tracks' to be scaled to w × h.
func (t *Tracks) madeSize(w, h int) (sw, sh int, err error) {
	sw, sh, err = parseSize(t.Size)
	switch {
	case err != nil:
		return 0, 0, UsageError{fmt.Errorf("--tracks-size %w", err)}
	case w == 0 || h == 0:
		return 0, 0, UsageError{fmt.Errorf("--tracks-size: give the video's size too (-i, or --width and --height)")}
	}
	return sw, sh, nil
}

// sizeHint returns a warning when the tracks look made on a video of another size than the
// w × h one they are drawn on (scene.Tracks.Misfit), saying how far they reach and the size
// they were likely made at, of the picture's aspect ratio unless none holds them (then it
// says so: scaling to it stretches the boxes); "" when they fit. When the picture is a
// frame stored sideways and shown turned a quarter (turned), tracks that fit the frame as
// stored were made on it, by a reader that ignores the turn: --orientation stored, not
// --tracks-size, draws them where they belong.
func sizeHint(tr *scene.Tracks, w, h int, turned bool) string {
	m, misfit := tr.Misfit(w, h)
	if !misfit {
		return ""
	}
	msg := fmt.Sprintf("tracks reach %d×%d, past the %d×%d picture (%d of %d boxes centred outside it)", m.ReachW, m.ReachH, w, h, m.Outside, m.Boxes)
	if _, sideways := tr.Misfit(h, w); turned && !sideways {
		return msg + fmt.Sprintf(": made on the frame as stored, %d×%d, before the video's quarter turn? render them with --orientation stored", h, w)
	}
	switch {
	case m.MadeW > 0 && m.OtherAspect:
		return msg + fmt.Sprintf(": made at %d×%d (%s; no size of the picture's %s holds them, and scaling to this one stretches the boxes)? --tracks-size %dx%d scales them to the picture",
			m.MadeW, m.MadeH, aspect(m.MadeW, m.MadeH), aspect(w, h), m.MadeW, m.MadeH)
	case m.MadeW > 0:
		return msg + fmt.Sprintf(": made at %d×%d? --tracks-size %dx%d scales them to the picture", m.MadeW, m.MadeH, m.MadeW, m.MadeH)
	}
	return msg + ": --tracks-size WxH, the size they were made at, scales them to the picture"
}

// aspect is w × h's aspect ratio in lowest terms (4:3, 16:9), or W:1 where those are large
// (854×480: 1.78:1).
func aspect(w, h int) string {
	g := w
	for r := h; r != 0; {
		g, r = r, g%r
	}
	if w/g > 32 || h/g > 32 {
		return fmt.Sprintf("%.2f:1", float64(w)/float64(h))
	}
	return fmt.Sprintf("%d:%d", w/g, h/g)
}
