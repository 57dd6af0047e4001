package video

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Render memory: what a render of a w × h video takes at the least, measured with the
// fastest encoder settings (libx264 ultrafast, 10 frames, the seed scene): 151 MB at 1080p,
// 362 MB at 4K, 1.2 GB at 8K, 34 bytes a pixel above the rest. The bound is a little under
// that, so that it only refuses a render that cannot fit.
const (
	renderBytesPerPixel = 30
	renderBaseBytes     = 64 << 20
)

// RenderMemory is the least memory, in bytes, that a render of a w × h video takes with the
// fastest encoder settings, or a render onto a picture.
func RenderMemory(w, h int) int64 {
	return renderBaseBytes + renderBytesPerPixel*int64(w)*int64(h)
}

// x26xBytesPerPixel are the bytes a pixel a render takes with libx264 (or libx265) at each
// preset, 90 % of what was measured (1080p and 720p, 90 frames, the encoder's own thread
// count on 2 cores: ultrafast 154 MB at 1080p, superfast 278, veryfast 326, faster 393, fast
// 460, medium 528, slow 605, slower 717, veryslow 957; libx265 at medium 482): the lookahead
// and reference frames of a slower preset hold several frames each. More threads hold more.
var x26xBytesPerPixel = map[string]int64{"ultrafast": renderBytesPerPixel, "superfast": 90, "veryfast": 110,
	"faster": 140, "fast": 170, "medium": 200, "slow": 235, "slower": 280, "veryslow": 380, "placebo": 380}

// EncoderMemory is the least memory, in bytes, that a render of a w × h video with o's
// encoder and preset takes: libx264 and libx265 (and auto, which picks one where frames are
// not decoded on a GPU) at o.Preset, their default medium without one; RenderMemory for
// the others and for a layer.
func EncoderMemory(w, h int, o Options) int64 {
	perPixel := int64(renderBytesPerPixel)
	switch enc := cmp.Or(o.Encoder, "auto"); {
	case o.Layer:
	case enc == "libx264" || enc == "libx265" || enc == "auto" && cmp.Or(o.HWAccel, "none") == "none":
		perPixel = cmp.Or(x26xBytesPerPixel[cmp.Or(o.Preset, "medium")], renderBytesPerPixel)
	}
	return renderBaseBytes + perPixel*int64(w)*int64(h)
}

// AvailableMemory returns the memory this process can still take, in bytes, and where the
// figure comes from: the smallest of what the system has available (/proc/meminfo's
// MemAvailable), what the memory limit of the process's control group leaves (cgroup v2
// or v1), and what its address-space limit (ulimit -v) leaves of its virtual size. ok is
// false when none can be read.
func AvailableMemory() (bytes int64, from string, ok bool) {
	bytes, from, ok = availableMemory("/")
	if left, found := addressSpaceLeft(); found && (!ok || left < bytes) {
		bytes, from, ok = left, "the address-space limit, ulimit -v", true
	}
	return bytes, from, ok
}

// addressSpaceLeft is what RLIMIT_AS leaves of the process's virtual size (/proc/self/status's
// VmSize), in bytes; found is false without a limit. A Go program that reaches the limit dies
// at once, as one out of memory does (a picture declaring 50000×50000 under ulimit -v 8 GB on
// a machine with more).
func addressSpaceLeft() (int64, bool) {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &r) != nil || r.Cur == unix.RLIM_INFINITY || r.Cur > 1<<62 {
		return 0, false
	}
	size, ok := procKB("/proc/self/status", "VmSize:")
	if !ok {
		return 0, false
	}
	return max(int64(r.Cur)-size, 0), true
}

// availableMemory is AvailableMemory with /proc and /sys under root, for tests.
func availableMemory(root string) (bytes int64, from string, ok bool) {
	if v, found := procKB(filepath.Join(root, "proc/meminfo"), "MemAvailable:"); found {
		bytes, from, ok = v, "MemAvailable in /proc/meminfo", true
	}
	if limit, used, path, found := cgroupMemory(root); found && (!ok || limit-used < bytes) {
		bytes, from, ok = max(limit-used, 0), "the memory limit of control group "+path, true
	}
	return bytes, from, ok
}

// procKB reads the line of a /proc file (meminfo, a process's status) that starts with key,
// a number of kB, in bytes.
func procKB(path, key string) (int64, bool) {
	kb, ok := keyedNumber(path, key, " kB")
	return kb << 10, ok
}

// keyedNumber reads the number on the line of the file at path that starts with key, unit
// (" kB", or "") after it.
func keyedNumber(path, key, unit string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), unit), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// cgroupMemory returns the memory limit and use of the process's control group, from
// cgroup v2's memory.max and memory.current or v1's memory.limit_in_bytes and
// memory.usage_in_bytes; found is false without a limit (none set, or none readable). The
// use leaves out the page cache the kernel reclaims first (memory.stat's inactive_file, v1's
// total_inactive_file), as the kubelet's working set does: a group that has read its input
// is at its limit in cache, and every render there was refused. The group's own directory
// is tried first, then the hierarchy's root, which is the group's own in a container with a
// cgroup namespace.
func cgroupMemory(root string) (limit, used int64, path string, found bool) {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0, 0, "", false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// hierarchy-ID:controllers:path; v2 is "0::path".
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir, maxFile, curFile, cacheKey string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, maxFile, curFile, cacheKey = "sys/fs/cgroup", "memory.max", "memory.current", "inactive_file"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			dir, maxFile, curFile, cacheKey = "sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"
		default:
			continue
		}
		for _, d := range []string{filepath.Join(root, dir, parts[2]), filepath.Join(root, dir)} {
			l, okL := cgroupValue(filepath.Join(d, maxFile))
			u, okU := cgroupValue(filepath.Join(d, curFile))
			if okL && okU {
				cache, _ := keyedNumber(filepath.Join(d, "memory.stat"), cacheKey+" ", "")
				return l, max(u-cache, 0), parts[2], true
			}
		}
	}
	return 0, 0, "", false
}

// cgroupValue reads a cgroup memory file: a byte count, or no limit ("max", or v1's
// page-rounded largest value).
func cgroupValue(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v >= 1<<62 {
		return 0, false // "max", or v1's 9223372036854771712: no limit
	}
	return v, true
}

// CheckMemory refuses, before any work, a render of a w × h video or picture that cannot fit
// in the memory this process can take (RenderMemory): a Go program that runs out of memory
// dies at once, leaving its partial output, so the render must not start.
func CheckMemory(w, h int) error {
	avail, from, ok := AvailableMemory()
	return checkMemory(w, h, RenderMemory(w, h), avail, from, ok)
}

// CheckEncoderMemory is CheckMemory for a render of a w × h video coded as o says
// (EncoderMemory): a control group that the fastest settings fit killed a render at x264's
// default preset (137, a partial file left).
func CheckEncoderMemory(w, h int, o Options) error {
	avail, from, ok := AvailableMemory()
	return checkMemory(w, h, EncoderMemory(w, h, o), avail, from, ok)
}

func checkMemory(w, h int, need, avail int64, from string, ok bool) error {
	if ok && need > avail {
		return fmt.Errorf("video: a %dx%d render takes at least %s of memory, and %s is available (%s): "+
			"render on a machine with more, or a smaller input (ffmpeg -vf scale)", w, h, memorySize(need), memorySize(avail), from)
	}
	return nil
}

// memorySize writes n bytes for people: in GB with one decimal from 1 GB up, else in MB, so
// that two sizes a message compares differ where the sizes do.
func memorySize(n int64) string {
	if n >= 1e9 {
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%d MB", n/1e6)
}
