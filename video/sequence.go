package video

// Numbered image sequences (frames_%04d.png), which FFmpeg's image2 demuxer reads as a video
// when handed the pattern itself.

//#cgo pkg-config: libavformat libavutil
//#include <stdlib.h>
//#include <libavformat/avformat.h>
import "C"

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"trackink/internal/prose"
	"trackink/outfile"
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

// checkSequenceGap refuses a numbered image sequence (IsSequence) with a missing picture
// before others. image2 reads from the first picture (SequenceStart) up to the first number
// whose file is missing, and there it stops, as at the end (or, where its probe for the
// last number jumped the gap, fails with "Input/output error"): the pictures after the gap
// would be left out of a video that looks whole. The error names the first missing picture
// and the pictures that would be left out.
func checkSequenceGap(pattern string) error {
	first, err := SequenceStart(pattern)
	if err != nil {
		return err
	}
	all := outfile.SequencePictures(pattern)
	have := make(map[string]bool, len(all))
	for _, p := range all {
		have[p] = true
	}
	read := 0
	missing := first
	for n := 0; ; n++ {
		name, err := sequenceName(pattern, n)
		if err != nil {
			return err
		}
		if have[name] || name == first {
			delete(have, name)
			read++
			continue
		}
		if read > 0 {
			missing = name
			break
		}
	}
	if len(have) == 0 {
		return nil
	}
	// The names differ only in the number, never zero-padded past the pattern's width: a
	// longer one is a larger number.
	left := slices.SortedFunc(maps.Keys(have), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
	pictures, exist := filepath.Base(left[0]), "exists"
	if len(left) > 1 {
		pictures, exist = pictures+" … "+filepath.Base(left[len(left)-1]), "exist"
	}
	return fmt.Errorf("%s: picture %s is missing, but %s after it %s (%s): FFmpeg reads a numbered sequence only up to its first gap, so they would be left out; fill the gap or renumber the pictures",
		pattern, missing, prose.Plural(len(left), "picture"), exist, pictures)
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
