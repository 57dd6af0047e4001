package cli

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/video"
)

// Faults at any moment (issue 24): real renders of a video with audio, segments and a join
// are stopped at random moments by each of SIGKILL, SIGTERM, SIGINT and SIGHUP, and run out
// of disk at random moments (a small tmpfs, pre-filled by a random amount). After every one:
// the target is absent or a complete, decodable file; no input changed; a stopping signal
// gave 128 + its number (or finished first: 0); no partial file is left but a SIGKILLed
// one's; and the next run removes that, and succeeds.
//
// TRACKINK_FAULTS sets the moments per kind and signal (default 4: 3 kinds × 4 signals × 4 +
// 3 kinds × 4 disk-full = 60 runs, each followed by a clean run: about a minute on two idle
// cores; the 50 take about ten times as long). A third of the moments fall in the
// first 30 ms, while the command line is read, where a signal may come before the handler
// is in place.
func TestFaultsAtAnyMoment(t *testing.T) {
	bin := binary(t)
	n := 4
	if v := os.Getenv("TRACKINK_FAULTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("TRACKINK_FAULTS=%q: want a count ≥ 1", v)
		}
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d moments per kind and signal", seed, n)
	rng := rand.New(rand.NewPCG(seed, 24))

	dir := t.TempDir()
	in, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "tracks.txt")
	if err := video.Synthesize(in, 320, 240, 60, 30); err != nil {
		t.Fatal(err)
	}
	var rows strings.Builder
	for f := 1; f <= 60; f++ {
		for id := 1; id <= 20; id++ {
			fmt.Fprintf(&rows, "%d,%d,%d,%d,30,40,1,-1,-1,-1\n", f, id, (id*37+f*3)%280, (id*53+f*2)%190)
		}
	}
	os.WriteFile(tracks, []byte(rows.String()), 0o644)
	segs := filepath.Join(dir, "segs")
	for i := range 2 {
		run(t, "render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "--segment", fmt.Sprintf("%d/2", i), "-o", segs)
	}
	inputs := []string{in, tracks, filepath.Join(segs, "in.seg-0000-of-0002.mp4"), filepath.Join(segs, "in.seg-0001-of-0002.mp4")}
	sums := hashes(t, inputs)

	// Each kind writes one file into out (a directory of its own), from the same inputs.
	type kind struct {
		name   string
		args   func(out string) []string
		target func(out string) string
		frames int
		audio  bool // a segment holds the video only; the join copies the audio
	}
	kinds := []kind{
		{"render", func(out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "-y", "-o", filepath.Join(out, "out.mp4")}
		}, func(out string) string { return filepath.Join(out, "out.mp4") }, 60, true},
		{"segment", func(out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "--segment", "1/2", "-o", out}
		}, func(out string) string { return filepath.Join(out, "in.seg-0001-of-0002.mp4") }, 30, false},
		{"join", func(out string) []string {
			return []string{"join", "-i", in, "--segments", segs, "--quiet", "-y", "-o", filepath.Join(out, "out.mp4")}
		}, func(out string) string { return filepath.Join(out, "out.mp4") }, 60, true},
	}
	runs, killed, complete, diskFull := 0, 0, 0, 0
	for _, k := range kinds {
		// How long an undisturbed run takes: the moments are drawn from a little more.
		out := t.TempDir()
		start := time.Now()
		if code, stderr := runBinary(t, bin, k.args(out)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", k.name, code, stderr)
		}
		span := time.Since(start) * 5 / 4
		checkTarget(t, k.name, k.target(out), k.frames, k.audio)

		for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
			for i := range n {
				moment := time.Duration(rng.Int64N(int64(span)))
				if i%3 == 0 {
					moment = time.Duration(rng.Int64N(int64(30 * time.Millisecond)))
				}
				what := fmt.Sprintf("%s, %v after %v", k.name, sig, moment.Round(time.Millisecond))
				out := t.TempDir()
				code, stderr := signalAfter(t, bin, k.args(out), moment, sig)
				runs++
				switch code {
				case 0:
					complete++
				case 128 + int(sig):
					killed++
				default:
					t.Errorf("%s: exit %d, want %d (or 0: done first); stderr: %s", what, code, 128+int(sig), stderr)
				}
				target := k.target(out)
				if _, err := os.Stat(target); err == nil {
					checkTarget(t, what, target, k.frames, k.audio)
				} else if code == 0 {
					t.Errorf("%s: exit 0 and no %s", what, target)
				}
				if sig != syscall.SIGKILL {
					noHiddenFiles(t, out)
				}
				// The next run removes a killed run's partial file, and succeeds.
				if code, stderr := runBinary(t, bin, append(k.args(out), "-y")...); code != 0 {
					t.Errorf("%s, then again: exit %d: %s", what, code, stderr)
				}
				checkTarget(t, what+", then again", target, k.frames, k.audio)
				noHiddenFiles(t, out)
			}
		}
		diskFull += fillDisk(t, bin, rng, n, k.name, k.args, k.target, k.frames, k.audio)
	}
	if after := hashes(t, inputs); after != sums {
		t.Errorf("an input changed")
	}
	t.Logf("%d runs stopped at random moments: %d stopped (128 + signal), %d done first; %d disk-full runs; every target absent or complete, no input changed",
		runs, killed, complete, diskFull)
}

// fillDisk runs the kind n times onto a 4 MiB tmpfs pre-filled to leave a random amount of
// room, less than the output needs: the writes fail at a random moment. Each run must fail
// (not 0, not a signal's status), leave no target and no partial file, and the run after
// the filler is gone must succeed. Skipped where a tmpfs cannot be mounted (not root).
func fillDisk(t *testing.T, bin string, rng *rand.Rand, n int, name string, args func(string) []string, target func(string) string, frames int, audio bool) int {
	t.Helper()
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=4m"); err != nil {
		t.Logf("disk-full cases of %s skipped: mounting a tmpfs: %v (it needs root or CAP_SYS_ADMIN)", name, err)
		return 0
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	// How much the output needs.
	out := filepath.Join(mnt, "probe")
	os.Mkdir(out, 0o755)
	if code, stderr := runBinary(t, bin, args(out)...); code != 0 {
		t.Fatalf("%s on the tmpfs: exit %d: %s", name, code, stderr)
	}
	st, err := os.Stat(target(out))
	if err != nil {
		t.Fatal(err)
	}
	need := st.Size()
	os.RemoveAll(out)
	for i := range n {
		out := filepath.Join(mnt, fmt.Sprintf("run%d", i))
		os.Mkdir(out, 0o755)
		var fs syscall.Statfs_t
		syscall.Statfs(mnt, &fs)
		free := int64(fs.Bavail) * fs.Bsize
		room := rng.Int64N(need) // what is left for the output: less than it needs
		filler := filepath.Join(mnt, "filler")
		if err := os.WriteFile(filler, make([]byte, max(0, free-room)), 0o644); err != nil && !strings.Contains(err.Error(), "no space") {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%s, disk full after %d of %d bytes", name, room, need)
		code, stderr := runBinary(t, bin, args(out)...)
		if code == 0 || code > 128 {
			t.Errorf("%s: exit %d, want a failure: %s", what, code, stderr)
		}
		if _, err := os.Stat(target(out)); err == nil {
			t.Errorf("%s: the target is there", what)
		}
		noHiddenFiles(t, out)
		os.Remove(filler)
		if code, stderr := runBinary(t, bin, append(args(out), "-y")...); code != 0 {
			t.Errorf("%s, then with room: exit %d: %s", what, code, stderr)
		}
		checkTarget(t, what+", then with room", target(out), frames, audio)
		os.RemoveAll(out)
	}
	return n
}

// checkTarget wants path to be a complete video: ffprobe decodes all its frames without a
// complaint, and it has its audio, if audio.
func checkTarget(t *testing.T, what, path string, frames int, audio bool) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames",
		"-of", "csv=p=0", path).CombinedOutput()
	got := strings.Fields(string(out))
	want := []string{"video," + strconv.Itoa(frames)}
	if audio {
		want = append(want, "audio")
	}
	if err != nil || len(got) != len(want) || got[0] != want[0] || (audio && !strings.HasPrefix(got[1], "audio,")) {
		t.Errorf("%s: %s is not complete: ffprobe says %q (%v), want %v", what, path, got, err, want)
	}
}

// shellStatus is the status a shell reports for a finished command: its exit status, or
// 128 + the signal that killed it.
func shellStatus(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
	}
	return exitCode(t, err)
}

// hashes describes the files' contents.
func hashes(t *testing.T, paths []string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(body))
	}
	return b.String()
}
