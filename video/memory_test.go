package video

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The memory a render may take is the smaller of the system's available memory and what
// the control group's limit leaves, read from cgroup v2 or v1, in the group's directory or
// at the root of a namespaced hierarchy; "max" and v1's largest value are no limit.
func TestAvailableMemory(t *testing.T) {
	const meminfo = "MemTotal:       32000000 kB\nMemAvailable:   20000000 kB\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
		from  string
	}{
		{"meminfo alone", map[string]string{"proc/meminfo": meminfo}, 20000000 << 10, "MemAvailable"},
		{"cgroup v2 limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"sys/fs/cgroup/job/memory.max": "4294967296\n", "sys/fs/cgroup/job/memory.current": "1073741824\n"}, 3 << 30, "control group /job"},
		{"cgroup v2 at the namespace's root", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"sys/fs/cgroup/memory.max": "2147483648\n", "sys/fs/cgroup/memory.current": "0\n"}, 2 << 30, "control group /job"},
		{"cgroup v2 without a limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n", "sys/fs/cgroup/memory.current": "5\n"}, 20000000 << 10, "MemAvailable"},
		{"cgroup v1 limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/a\n1:cpu:/\n",
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": "1073741824\n", "sys/fs/cgroup/memory/a/memory.usage_in_bytes": "73741824\n"}, 1000000000, "control group /a"},
		{"cgroup v1 without a limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n", "sys/fs/cgroup/memory/memory.usage_in_bytes": "1\n"}, 20000000 << 10, "MemAvailable"},
		// The page cache the kernel reclaims first is not use: a group that has read a file
		// as large as its limit still has the memory.
		{"cgroup v2 full of cache", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"sys/fs/cgroup/job/memory.max": "1073741824\n", "sys/fs/cgroup/job/memory.current": "1073000000\n",
			"sys/fs/cgroup/job/memory.stat": "anon 1000000\nfile 1072000000\nactive_file 72000000\ninactive_file 1000000000\n"}, 1073741824 - 73000000, "control group /job"},
		{"cgroup v1 full of cache", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/a\n",
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": "1073741824\n", "sys/fs/cgroup/memory/a/memory.usage_in_bytes": "1053298688\n",
			"sys/fs/cgroup/memory/a/memory.stat": "cache 1053122560\nrss 176128\ninactive_file 1000\ntotal_inactive_file 1037651968\n"}, 1073741824 - (1053298688 - 1037651968), "control group /a"},
		{"a limit larger than the machine", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"sys/fs/cgroup/memory.max": "64000000000000\n", "sys/fs/cgroup/memory.current": "0\n"}, 20000000 << 10, "MemAvailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range tc.files {
				path := filepath.Join(root, name)
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(body), 0o644)
			}
			got, from, ok := availableMemory(root)
			if !ok || got != tc.want || !strings.Contains(from, tc.from) {
				t.Errorf("%d from %q (%v), want %d from %s", got, from, ok, tc.want, tc.from)
			}
		})
	}
	if _, _, ok := availableMemory(t.TempDir()); ok {
		t.Error("nothing to read, yet a figure")
	}
}

// A render that cannot fit is refused with the sizes and the figures; one that fits, or a
// machine whose memory cannot be read, is not.
func TestCheckMemory(t *testing.T) {
	for _, tc := range []struct {
		w, h   int
		avail  int64
		known  bool
		refuse bool
	}{
		{1920, 1080, 8 << 30, true, false},
		{16384, 16384, 6 << 30, true, true}, // 268 Mpx: at least 8.1 GB
		{7680, 4320, 512 << 20, true, true}, // a small container
		{7680, 4320, 2 << 30, true, false},  // 1.1 GB needed
		{16384, 16384, 0, false, false},     // unknown: no refusal
	} {
		err := checkMemory(tc.w, tc.h, RenderMemory(tc.w, tc.h), tc.avail, "MemAvailable in /proc/meminfo", tc.known)
		if (err != nil) != tc.refuse {
			t.Errorf("%dx%d with %d bytes: %v, want refused %v", tc.w, tc.h, tc.avail, err, tc.refuse)
		}
		if err != nil && !strings.Contains(err.Error(), "MemAvailable") {
			t.Errorf("%v: want where the figure comes from", err)
		}
	}
	// Under a gigabyte the sizes are in MB: they read "0.1 GB, and 0.1 GB is available".
	want := "a 320x240 render takes at least 69 MB of memory, and 60 MB is available"
	if err := checkMemory(320, 240, RenderMemory(320, 240), 60e6, "the address-space limit, ulimit -v", true); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v; want %q", err, want)
	}
}

// A render coded by libx264 or libx265 takes what its preset's lookahead and references hold
// (x264's default, medium, 528 MB at 1080p where ultrafast takes 154): a 1080p render at the
// default is refused in a 350 MB group, which killed it (137), and fits at ultrafast; the
// other encoders, a layer, and frames decoded on a GPU (NVENC) are held to the least.
func TestEncoderMemory(t *testing.T) {
	const w, h = 1920, 1080
	for _, tc := range []struct {
		o    Options
		want int64 // MB, at least
		most int64 // MB, at most: under what was measured
	}{
		{Options{}, 450, 528},
		{Options{Encoder: "libx264", Preset: "ultrafast"}, 120, 154},
		{Options{Encoder: "libx264", Preset: "veryslow"}, 800, 957},
		{Options{Encoder: "libx265"}, 450, 482},
		{Options{Encoder: "prores_ks"}, 120, 154},
		{Options{Encoder: "libx264", Layer: true}, 120, 154},
		{Options{HWAccel: "cuda"}, 120, 154},
	} {
		if got := EncoderMemory(w, h, tc.o) / 1e6; got < tc.want || got > tc.most {
			t.Errorf("%+v: %d MB, want %d to %d", tc.o, got, tc.want, tc.most)
		}
	}
	if err := checkMemory(w, h, EncoderMemory(w, h, Options{}), 350e6, "the memory limit of control group /job", true); err == nil {
		t.Error("a 1080p render at x264's default fits in 350 MB")
	}
	if err := checkMemory(w, h, EncoderMemory(w, h, Options{Preset: "ultrafast"}), 350e6, "the memory limit of control group /job", true); err != nil {
		t.Errorf("at ultrafast: %v", err)
	}
}

// Under an address-space limit (ulimit -v) the memory a render may take is what the limit
// leaves of the process's virtual size: a Go program past it dies as one out of memory
// does. The run is this test's binary, its limit set to its size and 1 GiB more.
func TestAvailableMemoryUnderUlimit(t *testing.T) {
	if os.Getenv("TRACKINK_TEST_ULIMIT") != "" {
		size, ok := procKB("/proc/self/status", "VmSize:")
		if !ok {
			fmt.Println("no VmSize")
			return
		}
		limit := uint64(size) + 1<<30
		if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Println("setrlimit:", err)
			return
		}
		bytes, from, ok := AvailableMemory()
		fmt.Printf("%d|%s|%v\n", bytes, from, ok)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAvailableMemoryUnderUlimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TRACKINK_TEST_ULIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	fields := strings.Split(line, "|")
	if len(fields) != 3 {
		t.Fatalf("the run said %q", out)
	}
	bytes, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || bytes > 1<<30 || !strings.Contains(fields[1], "ulimit -v") || fields[2] != "true" {
		t.Errorf("under a limit 1 GiB past its size: %s bytes from %q (%s); want at most 1 GiB from the ulimit", fields[0], fields[1], fields[2])
	}
}
