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

// Faults at any moment (issues 24 and 37): real renders of a video with audio (one of them
// tracking it and writing --save-tracks and --stats-json beside the video), segments, a join
// and a tracks file's conversion (tracks --to) are stopped at random moments by each of SIGKILL, SIGTERM, SIGINT and SIGHUP, and run
// out of disk at random moments (a small tmpfs, pre-filled by a random amount). After every
// one: the target is absent or a complete, decodable file; no input changed; a stopping
// signal gave 128 + its number (or finished first: 0); no partial file is left but a
// SIGKILLed one's; and the next run removes that, and succeeds. The run with partners
// starts over the outputs of another render (-y): after a stop, the video and each partner
// are both the old run's or both the new one's (or the partner is gone), never mixed.
//
// TRACKINK_FAULTS sets the moments per kind and signal (default 4: 5 kinds × 4 signals × 4 +
// 5 kinds × 4 disk-full = 100 runs, each followed by a clean run: about a minute on two idle
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
	// A tracks file large enough that converting it takes a while (800 tracks, 48 000 lines).
	bigTracks := filepath.Join(dir, "big.txt")
	var big strings.Builder
	for f := 1; f <= 60; f++ {
		for id := 1; id <= 800; id++ {
			fmt.Fprintf(&big, "%d,%d,%d,%d,30,40,1,-1,-1,-1\n", f, id, (id*37+f*3)%280, (id*53+f*2)%190)
		}
	}
	os.WriteFile(bigTracks, []byte(big.String()), 0o644)
	segs := filepath.Join(dir, "segs")
	for i := range 2 {
		run(t, "render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "--segment", fmt.Sprintf("%d/2", i), "-o", segs)
	}
	inputs := []string{in, tracks, bigTracks, filepath.Join(segs, "in.seg-0000-of-0002.mp4"), filepath.Join(segs, "in.seg-0001-of-0002.mp4")}
	sums := hashes(t, inputs)

	// Each kind writes one video into out (a directory of its own), from the same inputs.
	outMP4 := func(out string) string { return filepath.Join(out, "out.mp4") }
	partnersIn := func(out string) []string {
		return []string{filepath.Join(out, "tracks.jsonl"), filepath.Join(out, "stats.json")}
	}
	kinds := []faultKind{
		{name: "render", args: func(out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "-y", "-o", outMP4(out)}
		}, target: outMP4, frames: 60, audio: true},
		{name: "render with partners", args: func(out string) []string {
			p := partnersIn(out)
			return []string{"render", "-i", in, "--detect", "motion", "--save-tracks", p[0], "--stats-json", p[1],
				"--preset", "ultrafast", "--quiet", "-y", "-o", outMP4(out)}
		}, target: outMP4, partners: partnersIn, other: []string{"--look", "neon", "--detect", "bright"}, frames: 60, audio: true},
		{name: "segment", args: func(out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "--segment", "1/2", "-o", out}
		}, target: func(out string) string { return filepath.Join(out, "in.seg-0001-of-0002.mp4") }, frames: 30},
		{name: "join", args: func(out string) []string {
			return []string{"join", "-i", in, "--segments", segs, "--quiet", "-y", "-o", outMP4(out)}
		}, target: outMP4, frames: 60, audio: true},
		{name: "tracks --to", args: func(out string) []string {
			return []string{"tracks", bigTracks, "--to", "jsonl", "-y", "-o", filepath.Join(out, "out.jsonl")}
		}, target: func(out string) string { return filepath.Join(out, "out.jsonl") }, text: true},
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
		if k.text {
			k.want = fileSum(t, k.target(out))
		}
		k.check(t, k.name, k.target(out))
		old := k.oldOutputs(t, bin)

		for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
			for i := range n {
				moment := time.Duration(rng.Int64N(int64(span)))
				if i%3 == 0 {
					moment = time.Duration(rng.Int64N(int64(30 * time.Millisecond)))
				}
				what := fmt.Sprintf("%s, %v after %v", k.name, sig, moment.Round(time.Millisecond))
				out := t.TempDir()
				old.copyTo(t, out)
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
					k.check(t, what, target)
				} else if code == 0 {
					t.Errorf("%s: exit 0 and no %s", what, target)
				}
				old.checkTogether(t, what, out, code == 0)
				if sig != syscall.SIGKILL {
					noHiddenFiles(t, out)
				}
				// The next run removes a killed run's partial file, and succeeds.
				if code, stderr := runBinary(t, bin, append(k.args(out), "-y")...); code != 0 {
					t.Errorf("%s, then again: exit %d: %s", what, code, stderr)
				}
				k.check(t, what+", then again", target)
				noHiddenFiles(t, out)
			}
		}
		diskFull += fillDisk(t, bin, rng, n, k)
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
func fillDisk(t *testing.T, bin string, rng *rand.Rand, n int, k faultKind) int {
	t.Helper()
	name, args, target := k.name, k.args, k.target
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
		if k.partners != nil {
			for _, p := range k.partners(out) {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s: %s is there without its video", what, p)
				}
			}
		}
		noHiddenFiles(t, out)
		os.Remove(filler)
		if code, stderr := runBinary(t, bin, append(args(out), "-y")...); code != 0 {
			t.Errorf("%s, then with room: exit %d: %s", what, code, stderr)
		}
		k.check(t, what+", then with room", target(out))
		os.RemoveAll(out)
	}
	return n
}

// faultKind is one command TestFaultsAtAnyMoment stops: it writes one video, target(out),
// and with partners the files that must land with it.
type faultKind struct {
	name     string
	args     func(out string) []string
	target   func(out string) string
	partners func(out string) []string
	other    []string // with partners: what makes another render's outputs, for the run to replace
	frames   int
	audio    bool     // a segment holds the video only; the join copies the audio
	text     bool     // the target is a text file, not a video: it must be want, byte for byte
	want     [32]byte // with text: the SHA-256 of an undisturbed run's target
}

// check wants the target at path complete: a video with all its frames (and audio), or the
// text an undisturbed run writes.
func (k faultKind) check(t *testing.T, what, path string) {
	t.Helper()
	if !k.text {
		checkTarget(t, what, path, k.frames, k.audio)
	} else if fileSum(t, path) != k.want {
		t.Errorf("%s: %s is not what an undisturbed run writes", what, path)
	}
}

// oldOutputs is what a kind with partners finds in its directory before each run: the
// outputs of another render (k.other), with their contents' hashes. It is empty for the
// other kinds.
func (k faultKind) oldOutputs(t *testing.T, bin string) oldOutputs {
	t.Helper()
	if k.partners == nil {
		return oldOutputs{}
	}
	dir := t.TempDir()
	if code, stderr := runBinary(t, bin, append(k.args(dir), k.other...)...); code != 0 {
		t.Fatalf("%s %v: exit %d: %s", k.name, k.other, code, stderr)
	}
	o := oldOutputs{dir: dir, names: []string{filepath.Base(k.target(dir))}}
	for _, p := range k.partners(dir) {
		o.names = append(o.names, filepath.Base(p))
	}
	for _, name := range o.names {
		o.sums = append(o.sums, fileSum(t, filepath.Join(dir, name)))
	}
	return o
}

// oldOutputs are a complete set of another run's outputs: names[0] the video, then its
// partners.
type oldOutputs struct {
	dir   string
	names []string
	sums  [][32]byte
}

// copyTo puts the old outputs into dir.
func (o oldOutputs) copyTo(t *testing.T, dir string) {
	t.Helper()
	for _, name := range o.names {
		body, err := os.ReadFile(filepath.Join(o.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkTogether wants the outputs in dir to be of one run: the video and each partner both
// the old ones, or both new (a partner may be missing), and all new and present after a
// run that succeeded.
func (o oldOutputs) checkTogether(t *testing.T, what, dir string, succeeded bool) {
	t.Helper()
	if o.names == nil {
		return
	}
	videoOld := fileSum(t, filepath.Join(dir, o.names[0])) == o.sums[0]
	for i, name := range o.names[1:] {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			if succeeded {
				t.Errorf("%s: exit 0 and no %s", what, name)
			}
			continue
		}
		if partnerOld := fileSum(t, path) == o.sums[i+1]; partnerOld != videoOld {
			t.Errorf("%s: %s is the old run's: %v, but the video is: %v", what, name, partnerOld, videoOld)
		}
	}
	if succeeded && videoOld {
		t.Errorf("%s: exit 0 and the old %s", what, o.names[0])
	}
}

// fileSum is the SHA-256 of a file's contents; zero where it cannot be read.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		return [32]byte{}
	}
	return sha256.Sum256(body)
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
