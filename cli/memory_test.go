package cli

import (
	"bytes"
	be "encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trackink/video"
)

// memoryLimited makes a control group of its own with a memory limit (cgroup v2, or v1's
// memory hierarchy) and returns the file a process writes its pid to, to join it. It skips
// the test where no group can be made (not root, no writable cgroup file system).
func memoryLimited(t *testing.T, limit int64) string {
	t.Helper()
	for _, c := range []struct{ dir, limitFile string }{
		{"/sys/fs/cgroup", "memory.max"},
		{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"},
	} {
		if _, err := os.Stat(filepath.Join(c.dir, c.limitFile)); err != nil && c.limitFile == "memory.max" {
			continue // no v2 memory controller here
		}
		dir := filepath.Join(c.dir, fmt.Sprintf("trackink-test-%d", os.Getpid()))
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		t.Cleanup(func() { os.Remove(dir) })
		if err := os.WriteFile(filepath.Join(dir, c.limitFile), []byte(fmt.Sprint(limit)), 0o644); err != nil {
			continue
		}
		return filepath.Join(dir, "cgroup.procs")
	}
	t.Skip("no control group with a memory limit can be made here (it needs root and a writable cgroup file system)")
	return ""
}

// A render that cannot fit in the memory it may take is refused before any work, exit 1,
// saying how much it needs and what is available: it used to start, and be killed by the
// kernel (exit 137) or die of Go's out-of-memory (exit 2), leaving its partial output.
func TestRenderRefusesWhatCannotFit(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "4k.mp4"), filepath.Join(dir, "out.mp4")
	if err := video.Synthesize(in, 3840, 2160, 2, 30); err != nil {
		t.Fatal(err)
	}
	procs := memoryLimited(t, 200<<20) // a 4K render takes at least 313 MB, at x264's default preset 1.7 GB
	for _, tc := range []struct{ preset, needs string }{{"", "1.7 GB"}, {"ultrafast", "315 MB"}} {
		args := []string{"render", "-i", in, "--scene", "seed", "-o", out}
		if tc.preset != "" {
			args = append(args, "--preset", tc.preset)
		}
		cmd := exec.Command("sh", append([]string{"-c", `echo $$ > "$0" && exec "$@"`, procs, bin}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		code := exitCode(t, cmd.Run())
		says := "3840x2160 render takes at least " + tc.needs
		if code != exitFailure || !strings.Contains(stderr.String(), says) || !strings.Contains(stderr.String(), "control group") {
			t.Errorf("--preset %q: exit %d, %q; want 1 saying %q", tc.preset, code, stderr.String(), says)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("the output was written")
		}
	}
	noHiddenFiles(t, dir)
}

// A picture whose header declares more pixels than the memory available can render (a few
// hundred bytes saying 1048576 × 1048576) is refused before it is decoded, exit 1, naming
// the file and the memory it takes, as a video is: the decoder used to allocate it at once,
// and the render died of Go's out-of-memory (exit 2).
func TestRenderRefusesAPictureTooLarge(t *testing.T) {
	avail, _, ok := video.AvailableMemory()
	if !ok {
		t.Skip("the memory available cannot be read here, so nothing is refused")
	}
	bin := binary(t)
	for _, tc := range []struct {
		name string
		w, h int // what the header declares
		make func(t *testing.T, w, h int) []byte
	}{
		{"bomb.png", 1 << 20, 1 << 20, pngDeclaring},
		{"bomb.jpg", 65535, 65535, jpegDeclaring}, // JPEG's largest
	} {
		t.Run(tc.name, func(t *testing.T) {
			need := video.RenderMemory(tc.w, tc.h)
			if need <= avail {
				t.Skipf("this machine has the %.1f GB a %dx%d render takes", float64(need)/1e9, tc.w, tc.h)
			}
			dir := t.TempDir()
			in, out := filepath.Join(dir, tc.name), filepath.Join(dir, "out.png")
			if err := os.WriteFile(in, tc.make(t, tc.w, tc.h), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stderr := runBinary(t, bin, "render", "-i", in, "--scene", "seed", "-o", out)
			says := fmt.Sprintf("trackink render: input %s: video: a %dx%d render takes at least %.1f GB of memory",
				in, tc.w, tc.h, float64(need)/1e9)
			if code != exitFailure || !strings.HasPrefix(stderr, says) {
				t.Errorf("exit %d, %q; want 1, saying %q", code, stderr, says)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the output was written")
			}
			noHiddenFiles(t, dir)
		})
	}
}

// pngDeclaring returns a PNG of one pixel whose header says it is w × h: its data is far
// too short, but only the decoder would find that out.
func pngDeclaring(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	p := b.Bytes()
	// The signature (8 bytes), then IHDR: length (4), type (4), width and height (4 each)
	// and five bytes more, then the CRC of type and data.
	if string(p[12:16]) != "IHDR" {
		t.Fatalf("no IHDR first: %q", p[:16])
	}
	be.BigEndian.PutUint32(p[16:], uint32(w))
	be.BigEndian.PutUint32(p[20:], uint32(h))
	be.BigEndian.PutUint32(p[29:], crc32.ChecksumIEEE(p[12:29]))
	return p
}

// jpegDeclaring returns a JPEG of 8 × 8 pixels whose frame header says it is w × h.
func jpegDeclaring(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	p := b.Bytes()
	// SOF0: the marker, length (2), precision (1), height (2), width (2).
	i := bytes.Index(p, []byte{0xff, 0xc0})
	if i < 0 {
		t.Fatal("no SOF0 marker")
	}
	be.BigEndian.PutUint16(p[i+5:], uint16(h))
	be.BigEndian.PutUint16(p[i+7:], uint16(w))
	return p
}
