package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"trackink/video"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine rewrites one status line on a terminal.
type progressLine struct {
	w       io.Writer
	enabled bool
	shown   bool
}

func newProgressLine(w io.Writer, enabled bool) *progressLine {
	return &progressLine{w: w, enabled: enabled}
}

func (p *progressLine) update(pr video.Progress) {
	if !p.enabled {
		return
	}
	line := fmt.Sprintf("frame %d", pr.Frames)
	if pr.Total > 0 {
		line += fmt.Sprintf("/%d (%d%%)", pr.Total, 100*pr.Frames/pr.Total)
	}
	line += fmt.Sprintf("  %.1f fps  %s", pr.FPS, pr.Elapsed.Round(time.Second))
	if pr.ETA > 0 {
		line += fmt.Sprintf("  ETA %s", pr.ETA.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progressLine) done() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
