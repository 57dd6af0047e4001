package cli

import (
	"encoding/json"
	"io"

	"trackink/overlay"
	"trackink/video"
)

// statsFile is what --stats-json writes: the video pipeline's statistics and the overlay's
// time per stage (overlay's stage table), summed over the frames.
type statsFile struct {
	video.StatsJSON
	OverlayStages map[string]float64 `json:"overlay_stages_s"`
}

// writeStats writes the statistics of a render, and the overlay's stages, as --stats-json
// gives them.
func writeStats(w io.Writer, s video.Stats, stages overlay.Timings) error {
	f := statsFile{StatsJSON: s.JSON(), OverlayStages: map[string]float64{}}
	for _, st := range overlay.Stages() {
		f.OverlayStages[st.String()] = stages[st].Seconds()
	}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}
