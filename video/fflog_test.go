package video

import (
	"strings"
	"testing"

	"github.com/asticode/go-astiav"
)

// The errors a decoder says it concealed are damage even where it marks no frame with them,
// as FFmpeg's frame-threaded H.264 decoder may not (the last frame of an MPEG-TS cut short:
// marked in some runs of the same render, not in others, so that a --start past it was
// refused as a range with no frame, exit 2, instead of a damaged input, exit 1). A segment
// leaves it to its frame count.
func TestConcealedErrorsAreDamage(t *testing.T) {
	const line = "error while decoding MB 11 25, bytestream -6"
	cc := astiav.AllocCodecContext(astiav.FindDecoder(astiav.CodecIDH264))
	defer cc.Free()
	for _, c := range []struct {
		name        string
		logged      []string
		marked      int          // frames the decoder marked damaged
		seg         *SegmentPlan // nil: a whole render
		wantDamaged int          // damage recorded in all
		wantSaid    string       // in the damage said; "": nothing said
	}{
		{"said, nothing marked", []string{line}, 0, nil, 1, "did not mark, by frame 14 (h264: " + line + ")"},
		{"said twice", []string{line, "error while decoding MB 3 4, bytestream -2"}, 0, nil, 1, "h264: " + line},
		{"said and marked", []string{line}, 1, nil, 1, ""},
		{"other errors", []string{"mmco: unref short failure"}, 0, nil, 0, ""},
		{"a segment", []string{line}, 0, &SegmentPlan{}, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sink, detach := attachFFmpegLog(nil)
			for _, l := range c.logged {
				astiav.Log(cc, astiav.LogLevelError, l+"\n")
			}
			detach()
			var said []string
			rep := &report{log: func(s string) { said = append(said, s) }, damaged: c.marked}
			d := decodeStage{dec: &decoder{sink: sink}, rep: rep, seg: c.seg, decoded: 14}
			d.checkConcealed()
			if rep.damaged != c.wantDamaged {
				t.Errorf("damage recorded %d, want %d", rep.damaged, c.wantDamaged)
			}
			got := strings.Join(said, "\n")
			if c.wantSaid == "" && got != "" || c.wantSaid != "" && !strings.Contains(got, c.wantSaid) {
				t.Errorf("said %q, want %q", got, c.wantSaid)
			}
		})
	}
}
