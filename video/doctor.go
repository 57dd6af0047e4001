package video

import (
	"github.com/asticode/go-astiav"
)

// Codec says whether this FFmpeg build has a codec.
type Codec struct {
	Name    string
	Encoder bool // an encoder (else a decoder)
	Present bool
}

// Codecs lists the codecs trackink can use and whether the linked FFmpeg has them. Having a
// hardware codec compiled in does not mean the GPU supports it (H100 and H200 have no NVENC);
// Transcode finds that out when it opens one.
func Codecs() []Codec {
	var out []Codec
	for _, name := range []string{"libx264", "libx265", "h264_nvenc", "hevc_nvenc"} {
		out = append(out, Codec{Name: name, Encoder: true, Present: astiav.FindEncoderByName(name) != nil})
	}
	for _, name := range []string{"libdav1d", "h264_cuvid", "hevc_cuvid"} {
		out = append(out, Codec{Name: name, Present: astiav.FindDecoderByName(name) != nil})
	}
	return out
}
