package video

import (
	"slices"
	"testing"
)

// packetsInSeconds puts two muxings of the same packets in different time bases (ours the
// input's, the ffmpeg CLI's 1/frame rate) level, and keeps packets at other times, or of
// other bytes, apart; a line it cannot read is an error, not a mismatch.
func TestPacketsInSeconds(t *testing.T) {
	const ours = "#format: frame checksums\n#tb 0: 1/16000\n#media_type 0: video\n" +
		"0,          0,          0,      640,     2473, ae0c\n0,      12800,      12800,      640,     1286, 5a4f\n"
	const ffmpeg = "#tb 0: 1/12800\n#media_type 0: video\n" +
		"0,          0,          0,      512,     2473, ae0c\n0,      10240,      10240,      512,     1286, 5a4f\n"
	a, err := packetsInSeconds(ours)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, framemd5 string
		same           bool
	}{
		{"the same in another time base", ffmpeg, true},
		{"padded otherwise", "#tb 0: 1/12800\n0, 0, 0, 512, 2473, ae0c\n0, 10240, 10240, 512, 1286, 5a4f\n", true},
		{"a frame later", "#tb 0: 1/12800\n0, 0, 0, 512, 2473, ae0c\n0, 10752, 10752, 512, 1286, 5a4f\n", false},
		{"a longer last frame", "#tb 0: 1/12800\n0, 0, 0, 512, 2473, ae0c\n0, 10240, 10240, 1024, 1286, 5a4f\n", false},
		{"other bytes", "#tb 0: 1/12800\n0, 0, 0, 512, 2473, ae0c\n0, 10240, 10240, 512, 1286, 0000\n", false},
	} {
		b, err := packetsInSeconds(c.framemd5)
		if err != nil || slices.Equal(a, b) != c.same {
			t.Errorf("%s: %v, same %v; want %v", c.name, err, slices.Equal(a, b), c.same)
		}
	}
	for _, bad := range []string{"0, 0, 0, 512, 1, ab\n", "#tb 0: 1/12800\n0, x, 0, 512, 1, ab\n", "#tb 0: nope\n"} {
		if _, err := packetsInSeconds(bad); err == nil {
			t.Errorf("%q: read without an error", bad)
		}
	}
}
