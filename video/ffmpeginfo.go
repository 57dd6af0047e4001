package video

// Which FFmpeg this binary runs on, for `trackink doctor`: the portable build (make dist)
// carries a static FFmpeg of its own, a development build uses the system's libraries.

//#cgo pkg-config: libavcodec libavformat libavutil
//#define _GNU_SOURCE
//#include <link.h>
//#include <string.h>
//#include <libavcodec/avcodec.h>
//#include <libavformat/avformat.h>
//#include <libavutil/avutil.h>
//
// static int tk_find_avcodec(struct dl_phdr_info *info, size_t size, void *out) {
//     const char *base = strrchr(info->dlpi_name, '/');
//     base = base ? base + 1 : info->dlpi_name;
//     if (strncmp(base, "libavcodec.so", 13) != 0) return 0;
//     *(const char **)out = info->dlpi_name;
//     return 1;
// }
//
// // tk_avcodec_object is the path of the shared libavcodec this process loaded, or NULL
// // when none is loaded: libavcodec is then linked into the executable.
// static const char *tk_avcodec_object(void) {
//     const char *path = NULL;
//     dl_iterate_phdr(tk_find_avcodec, &path);
//     return path;
// }
import "C"

import "fmt"

// FFmpegBuild describes the FFmpeg libraries in use.
type FFmpegBuild struct {
	Version       string // av_version_info: the release and any distribution suffix
	Configuration string // the ./configure arguments it was built with
	Libraries     string // libavcodec, libavformat, libavutil versions at run time
	// Shared is the path of the shared libavcodec this process loaded; empty when FFmpeg is
	// linked into the executable (the portable build).
	Shared string
	// HeadersMatch says the libraries loaded are the versions this binary was compiled against.
	HeadersMatch bool
}

// FFmpeg reports the FFmpeg this binary runs on.
func FFmpeg() FFmpegBuild {
	ver := func(v C.uint) string { return fmt.Sprintf("%d.%d.%d", v>>16, v>>8&0xff, v&0xff) }
	codec, format, util := C.avcodec_version(), C.avformat_version(), C.avutil_version()
	b := FFmpegBuild{
		Version:       C.GoString(C.av_version_info()),
		Configuration: C.GoString(C.avutil_configuration()),
		Libraries:     fmt.Sprintf("libavcodec %s, libavformat %s, libavutil %s", ver(codec), ver(format), ver(util)),
		HeadersMatch: codec == C.LIBAVCODEC_VERSION_INT && format == C.LIBAVFORMAT_VERSION_INT &&
			util == C.LIBAVUTIL_VERSION_INT,
	}
	if p := C.tk_avcodec_object(); p != nil {
		b.Shared = C.GoString(p)
	}
	return b
}

// String is the doctor's line: version, where the libraries are, their versions.
func (b FFmpegBuild) String() string {
	where := "linked into this binary"
	if b.Shared != "" {
		where = "shared libraries of this machine (" + b.Shared + ")"
	}
	s := fmt.Sprintf("%s, %s (%s)", b.Version, where, b.Libraries)
	if !b.HeadersMatch {
		s += "; not the versions this binary was compiled against"
	}
	return s
}
