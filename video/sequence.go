package video

// Numbered image sequences (frames_%04d.png), which FFmpeg's image2 demuxer reads as a video
// when handed the pattern itself.

//#cgo pkg-config: libavformat libavutil
//#include <stdlib.h>
//#include <libavformat/avformat.h>
import "C"

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unsafe"
)

// sequenceStarts is how many first numbers image2 tries, from 0 (its start_number_range).
const sequenceStarts = 5

// IsSequence reports whether path names a numbered image sequence as FFmpeg reads one: no
// file has that name, and it holds one printf-style frame number (%d, %04d) where image2
// puts each frame's number (frames_%04d.png for frames_0001.png, frames_0002.png…).
func IsSequence(path string) bool {
	if strings.Contains(path, "://") {
		return false
	}
	if _, err := os.Lstat(path); err == nil {
		return false
	}
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	return C.av_filename_number_test(cp) != 0
}

// SequenceStart returns the file a numbered image sequence (IsSequence) starts at: the first
// of frame numbers 0 to 4 whose file exists, where image2 looks for it. The error wraps
// fs.ErrNotExist, naming the files looked for, when there is none.
func SequenceStart(path string) (string, error) {
	var names []string
	for n := range sequenceStarts {
		name, err := sequenceName(path, n)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(name); err == nil {
			return name, nil
		}
		names = append(names, name)
	}
	return "", fmt.Errorf("%s: no first file of the image sequence (looked for %s … %s): %w", path, names[0], names[len(names)-1], fs.ErrNotExist)
}

// sequenceName is the name of picture n of the numbered sequence pattern, as image2 makes
// it (av_get_frame_filename2).
func sequenceName(pattern string, n int) (string, error) {
	cp := C.CString(pattern)
	defer C.free(unsafe.Pointer(cp))
	buf := make([]byte, len(pattern)+64) // a number widens the pattern by at most 20 digits
	if C.av_get_frame_filename2((*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)), cp, C.int(n), 0) < 0 {
		return "", fmt.Errorf("video: %s is not an image sequence pattern", pattern)
	}
	return C.GoString((*C.char)(unsafe.Pointer(&buf[0]))), nil
}
