package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"trackink/video"
)

// The tests in this file and contract_test.go run the real binary, as a user does, where
// what they check is an exit status, the files left behind or a signal.

// shared holds what those tests build once: the binary and a clip long enough to interrupt.
var shared struct {
	dir      string
	binOnce  sync.Once
	bin      string
	binErr   error
	clipOnce sync.Once
	clip     string
	clipErr  error
}

func TestMain(m *testing.M) {
	// The runs these tests start inherit the signals this process was started with
	// ignored (make test under nohup, or in a shell's background), and keep them ignored,
	// as they should: taken (into a channel no one reads, which drops them, as ignoring
	// did), they are the runs' to handle again.
	for _, s := range stopSignals {
		if signal.Ignored(s) {
			signal.Notify(make(chan os.Signal, 1), s)
		}
	}
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// sharedDir is a directory for the shared files, removed by TestMain.
func sharedDir(t *testing.T) string {
	t.Helper()
	if shared.dir == "" {
		dir, err := os.MkdirTemp("", "trackink-cli-test-")
		if err != nil {
			t.Fatal(err)
		}
		shared.dir = dir
	}
	return shared.dir
}

// binary builds trackink once and returns its path; skipped with -short.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := sharedDir(t)
	shared.binOnce.Do(func() {
		shared.bin = filepath.Join(dir, "trackink")
		shared.binErr = buildBinary(shared.bin)
	})
	if shared.binErr != nil {
		t.Fatal(shared.binErr)
	}
	return shared.bin
}

// buildBinary builds trackink to path with extra go build flags.
func buildBinary(path string, flags ...string) error {
	out, err := exec.Command("go", append(append([]string{"build"}, flags...), "-o", path, "..")...).CombinedOutput()
	if err != nil {
		return errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return nil
}

// longClip is a 30 s 640×360 clip with audio: long enough to stop a render half-way.
func longClip(t *testing.T) string {
	t.Helper()
	dir := sharedDir(t)
	shared.clipOnce.Do(func() {
		shared.clip = filepath.Join(dir, "long.mp4")
		shared.clipErr = video.Synthesize(shared.clip, 640, 360, 900, 30)
	})
	if shared.clipErr != nil {
		t.Fatal(shared.clipErr)
	}
	return shared.clip
}

// startRender starts the binary rendering the seed scene onto in (slowly) into out.
func startRender(t *testing.T, bin, in, out string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	return startBinary(t, bin, "render", "-i", in, "--scene", "seed", "-o", out, "--preset", "slow")
}

// startBinary starts the binary with args and returns it and what it prints on stderr.
func startBinary(t *testing.T, bin string, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start(t, cmd)
	return cmd, &stderr
}

// start starts cmd, to be killed at the end of the test if it still runs then.
func start(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
}

// waitForPartial waits until the partial file of out appears and returns its path.
func waitForPartial(t *testing.T, out string, stderr *strings.Builder) string {
	t.Helper()
	pattern := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".*.partial"+filepath.Ext(out))
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) == 1 {
			return m[0]
		}
	}
	t.Fatalf("no partial file %s appeared; stderr: %s", pattern, stderr.String())
	return ""
}

// exitCode is the status a finished command exited with.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// noHiddenFiles asserts that dir holds no partial (hidden) files.
func noHiddenFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("partial file %s left behind", e.Name())
		}
	}
}

// TestInterruptLeavesNoOutput stops a render half-way with each stop signal and checks the
// promise: exit 128 + the signal (130, 143, 129; SIGHUP as SIGTERM, which once
// killed the render and left its partial file), no output and no partial file.
func TestInterruptLeavesNoOutput(t *testing.T) {
	bin, in := binary(t), longClip(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.mp4")
			cmd, stderr := startRender(t, bin, in, out)
			waitForPartial(t, out, stderr)
			cmd.Process.Signal(sig)
			wantInterrupted(t, cmd, stderr, out, sig)
		})
	}
}

// wantInterrupted waits for cmd and checks that it exited 128 + sig and left neither its
// output nor a partial file.
func wantInterrupted(t *testing.T, cmd *exec.Cmd, stderr *strings.Builder, out string, sig syscall.Signal) {
	t.Helper()
	if code := exitCode(t, cmd.Wait()); code != 128+int(sig) {
		t.Errorf("exit %d, want %d; stderr: %s", code, 128+int(sig), stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an interrupted render left its output")
	}
	noHiddenFiles(t, filepath.Dir(out))
}

// A stop signal the run was started with ignored stays ignored: under nohup the hang-up
// of the terminal does not stop the render (it once did), nor a Ctrl-C one sent to a job a
// script put in the background; the render ends whole. The run is started ignoring the
// signal as nohup and such a shell start it, by a shell that ignores it and execs it.
func TestIgnoredSignalStaysIgnored(t *testing.T) {
	bin, in := binary(t), longClip(t)
	for _, sig := range []struct {
		name string
		sig  syscall.Signal
	}{{"HUP", syscall.SIGHUP}, {"INT", syscall.SIGINT}} {
		t.Run(sig.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.mp4")
			cmd := exec.Command("sh", "-c", `trap '' `+sig.name+`; exec "$0" "$@"`, bin,
				"render", "-i", in, "--scene", "seed", "--end", "150", "-o", out, "--preset", "ultrafast", "--quiet")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start(t, cmd)
			waitForPartial(t, out, &stderr)
			cmd.Process.Signal(sig.sig)
			if code := exitCode(t, cmd.Wait()); code != 0 {
				t.Fatalf("exit %d after %s, want the render to go on to 0; stderr: %s", code, signalName(sig.sig), stderr.String())
			}
			if n := ffprobeFrames(t, out); n != 150 {
				t.Errorf("%d frames, want 150", n)
			}
		})
	}
}

// SIGKILL leaves the partial file behind (nothing can run); the next render into the same
// directory removes it and says so, while the partial file of a render still running stays.
func TestKilledRenderPartialRemovedNextTime(t *testing.T) {
	bin, in := binary(t), longClip(t)
	dir := t.TempDir()
	killedOut, liveOut := filepath.Join(dir, "killed.mp4"), filepath.Join(dir, "live.mp4")
	killed, killedErr := startRender(t, bin, in, killedOut)
	stale := waitForPartial(t, killedOut, killedErr)
	live, liveErr := startRender(t, bin, in, liveOut)
	running := waitForPartial(t, liveOut, liveErr)
	killed.Process.Kill()
	killed.Wait()
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("the killed render's partial file is gone already: %v", err)
	}

	small := filepath.Join(t.TempDir(), "small.mp4")
	if err := video.Synthesize(small, 160, 120, 5, 25); err != nil {
		t.Fatal(err)
	}
	code, next := runBinary(t, bin, "render", "-i", small, "--scene", "seed", "-o", filepath.Join(dir, "next.mp4"), "--preset", "ultrafast")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, next)
	}
	if !strings.Contains(next, "removed "+stale) || !strings.Contains(next, "killed") {
		t.Errorf("the next render did not say it removed %s:\n%s", stale, next)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed render's partial file is still there: %v", err)
	}
	if _, err := os.Stat(running); err != nil {
		t.Errorf("the running render's partial file was removed: %v", err)
	}
	live.Process.Signal(syscall.SIGINT)
	if code := exitCode(t, live.Wait()); code != 130 {
		t.Errorf("the running render: exit %d: %s", code, liveErr.String())
	}
}

// pipeWriter opens the named pipe that cmd reads for writing, and returns it once cmd has
// opened it: cmd is then reading it. Past 30 s, cmd is killed and the test fails.
func pipeWriter(t *testing.T, cmd *exec.Cmd, fifo string, stderr *strings.Builder) *os.File {
	t.Helper()
	opened := make(chan *os.File, 1)
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			opened <- w
		}
	}()
	select {
	case w := <-opened:
		return w
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s never opened %s; stderr: %s", cmd.Args, fifo, stderr.String())
	}
	return nil
}

// SIGTERM while the tracks are being read exits 143 like the rest. The tracks are a named
// pipe: the test knows the reading has begun when its own open for writing returns.
func TestTerminateWhileTracksLoad(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, tracks, out := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "tracks.txt"), filepath.Join(dir, "out.mp4")
	if err := video.Synthesize(in, 160, 120, 5, 25); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(tracks, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "render", "-i", in, "--tracks", tracks, "-o", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := pipeWriter(t, cmd, tracks, &stderr)
	defer w.Close()
	w.WriteString("1,1,10,10,20,20,1,-1,-1,-1\n") // a first line, and then nothing
	cmd.Process.Signal(syscall.SIGTERM)
	wantInterrupted(t, cmd, &stderr, out, syscall.SIGTERM)
	if !strings.Contains(stderr.String(), "interrupted by SIGTERM; no output written") {
		t.Errorf("stderr %q: want the handler's word", stderr.String())
	}
}

// A stop signal while a settings file that is a named pipe nobody writes to (--style,
// --font, --label-words, --label-lines; as `--style <(generate)` whose generator hangs)
// waits for its writer ends the render as one while the tracks load does. Go's open of
// the pipe blocked, the first signal was swallowed, and only a second one ended the run,
// with no message.
func TestStoppedWhileSettingsPipeWaits(t *testing.T) {
	bin := binary(t)
	in := filepath.Join(t.TempDir(), "in.mp4")
	if err := video.Synthesize(in, 160, 120, 5, 25); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{
		{"--style"}, {"--font"}, {"--label", "{word}", "--label-words"}, {"--label", "{line}", "--label-lines"},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(flags[len(flags)-1]+"/"+signalName(sig), func(t *testing.T) {
				dir := t.TempDir()
				pipe, tracks, out := filepath.Join(dir, "pipe"), filepath.Join(dir, "t.txt"), filepath.Join(dir, "out.mp4")
				if err := syscall.Mkfifo(pipe, 0o644); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(tracks, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
				args := append([]string{"render", "-i", in, "--tracks", tracks, "-o", out}, flags...)
				cmd, stderr := startBinary(t, bin, append(args, pipe)...)
				waitOpening(cmd.Process.Pid, pipe, 5*time.Second)
				cmd.Process.Signal(sig)
				wantStoppedWithin(t, cmd, stderr, sig, out)
			})
		}
	}
}

// A stop signal in the first milliseconds of a run, while the command line is read and
// before the handler is in place, gives the same status as a later one: 128 + the signal,
// whether the handler caught it or the signal's default action ended the process (a shell
// reports 128 + n for both), and no output or partial file (once SIGTERM gave 143
// early and 130 later, and SIGHUP left the partial file).
func TestSignalInFirstMilliseconds(t *testing.T) {
	bin, in := binary(t), longClip(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for _, after := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond,
			30 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond, time.Second} {
			out := filepath.Join(t.TempDir(), "out.mp4")
			code, stderr := signalAfter(t, bin, []string{"render", "-i", in, "--scene", "seed", "-o", out, "--preset", "slow"}, after, sig)
			if code != 128+int(sig) {
				t.Errorf("%v after %v: status %d, want %d; stderr: %s", sig, after, code, 128+int(sig), stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v after %v: the output is there", sig, after)
			}
			noHiddenFiles(t, filepath.Dir(out))
		}
	}
}

// signalAfter starts the binary with args, sends it sig after the given time and returns
// the status a shell would report (shellStatus) and what it printed on stderr.
func signalAfter(t *testing.T, bin string, args []string, after time.Duration, sig syscall.Signal) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(after)
	cmd.Process.Signal(sig)
	return shellStatus(t, cmd.Wait()), stderr.String()
}

// A stop signal while demo synthesises its input ends it like a render (128 + the signal,
// no output) and removes the temporary input, which it used to leave behind.
func TestDemoStoppedWhileSynthesising(t *testing.T) {
	bin := binary(t)
	tmp, out := t.TempDir(), filepath.Join(t.TempDir(), "demo.mp4")
	cmd := exec.Command(bin, "demo", "--width", "1920", "--height", "1080", "--frames", "3000", "-o", out)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the synthesis has begun writing its input.
	deadline := time.Now().Add(30 * time.Second)
	for {
		inputs, _ := filepath.Glob(filepath.Join(tmp, "trackink-demo-*", "input.mp4"))
		if len(inputs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no input synthesised in 30 s: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCode(t, cmd.Wait()); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want %d: %s", code, 128+int(syscall.SIGTERM), stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the temporary input is left: %v", left)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
}

// bench --e2e stopped while it synthesises its clip keeps the promise of the commands that
// write: 128 + the signal, within seconds, and nothing left behind, neither its temporary
// directory nor the ffmpeg it ran. It watched SIGINT and SIGTERM alone and could not stop
// the synthesis: SIGINT let the 4K clip finish (about 9 s) and then exited 1 with "context
// canceled"; SIGHUP killed it outright, leaving its directory in $TMPDIR and ffmpeg running.
func TestBenchE2EStopped(t *testing.T) {
	bin := binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(bin, "bench", "--e2e", "synth", "--no-twin")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start(t, cmd)
			t.Cleanup(func() { killRunningWith(t, tmp) })
			// Wait until ffmpeg has begun writing the clip.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if clips, _ := filepath.Glob(filepath.Join(tmp, "trackink-bench-*", "synth-*.mp4")); len(clips) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no clip synthesised in 30 s: %s", stderr.String())
				}
			}
			cmd.Process.Signal(sig)
			ended, err := waitWithin(cmd, 5*time.Second)
			if !ended {
				t.Fatalf("still running 5 s after %s: %s", sig, stderr.String())
			}
			if code := shellStatus(t, err); code != 128+int(sig) {
				t.Errorf("exit %d, want %d: %s", code, 128+int(sig), stderr.String())
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("left in $TMPDIR: %v", left)
			}
			if pids := runningWith(tmp); len(pids) > 0 {
				t.Errorf("processes left running on its files: %v", pids)
			}
		})
	}
}

// runningWith lists the processes whose command line mentions s.
func runningWith(s string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && strings.Contains(string(cmdline), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killRunningWith kills the processes runningWith(s) finds: what a failed test left
// running on its temporary files.
func killRunningWith(t *testing.T, s string) {
	for _, pid := range runningWith(s) {
		t.Logf("killing process %d, left running", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// tracks --to stopped while it reads its file (a pipe that sends one line, then nothing)
// exits 128 + the signal, says so, and writes nothing: it had no handler, and a kill while
// it wrote left a partial file (TestFaultsAtAnyMoment stops it while it writes).
func TestTracksStoppedWhileReading(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	fifo, out := filepath.Join(dir, "tracks.txt"), filepath.Join(dir, "out.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "tracks", fifo, "--to", "jsonl", "-o", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.WriteString("1,1,10,10,20,20,1,-1,-1,-1\n")
	time.Sleep(200 * time.Millisecond) // the handler is in place by now
	cmd.Process.Signal(syscall.SIGTERM)
	wantInterrupted(t, cmd, &stderr, out, syscall.SIGTERM)
	if !strings.Contains(stderr.String(), "interrupted by SIGTERM; no output written") {
		t.Errorf("stderr %q: want the handler's word", stderr.String())
	}
}

// waitWithin waits for cmd to end, at most d; past d it kills cmd, waits for it and reports
// false, so that a run that would hang fails the test instead.
func waitWithin(cmd *exec.Cmd, d time.Duration) (ended bool, err error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return true, err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return false, nil
	}
}

// wantStoppedWithin waits for cmd, which was sent sig, and fails the test unless it ended
// within 10 s (a swallowed signal: it is killed) with 128 + sig, saying it was interrupted,
// with out not written and no partial file beside it.
func wantStoppedWithin(t *testing.T, cmd *exec.Cmd, stderr *strings.Builder, sig syscall.Signal, out string) {
	t.Helper()
	ended, err := waitWithin(cmd, 10*time.Second)
	if !ended {
		t.Fatalf("still running 10 s after %s (killed); stderr: %s", signalName(sig), stderr.String())
	}
	if code := exitCode(t, err); code != 128+int(sig) {
		t.Errorf("exit %d, want %d; stderr: %s", code, 128+int(sig), stderr.String())
	}
	if want := "interrupted by " + signalName(sig) + "; no output written"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q: want %q", stderr.String(), want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
	noHiddenFiles(t, filepath.Dir(out))
}

// waitOpening waits, at most d, until process pid holds the FIFO at path open, or one of
// its threads waits in open(2) for the FIFO's writer (wait_for_partner: FFmpeg's open before
// video/pipe.go, Go's open of a picture); past d, where /proc shows neither, it returns all
// the same.
func waitOpening(pid int, path string, d time.Duration) {
	proc := filepath.Join("/proc", strconv.Itoa(pid))
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		fds, _ := os.ReadDir(filepath.Join(proc, "fd"))
		for _, e := range fds {
			if target, err := os.Readlink(filepath.Join(proc, "fd", e.Name())); err == nil && target == path {
				return
			}
		}
		tasks, _ := os.ReadDir(filepath.Join(proc, "task"))
		for _, e := range tasks {
			if wchan, err := os.ReadFile(filepath.Join(proc, "task", e.Name(), "wchan")); err == nil && string(wchan) == "wait_for_partner" {
				return
			}
		}
	}
}

// A stop signal while the input is a pipe that gives nothing (a FIFO nobody writes to, as
// `mkfifo p; trackink render -i p` or `cat | trackink render -i /dev/stdin` before anything
// is typed, or one whose writer stops half-way) ends the run like one at any other moment:
// within a few seconds, 128 + the signal, no output and no partial file. FFmpeg waited in
// open(2) or read(2), which its interrupt callback cannot end: the signal was caught, nothing
// noticed it, a second was swallowed too, and only SIGKILL ended the run. track and tracks -i
// opened their video before their handler was in place.
func TestStoppedWhileInputPipeWaits(t *testing.T) {
	bin := binary(t)
	// The first second of a 10 s clip, as MPEG-TS, which a pipe can carry: the render reads
	// it and then waits for the rest, which never comes.
	src := filepath.Join(t.TempDir(), "stalls.ts")
	if err := video.Synthesize(src, 160, 120, 250, 25); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	head := whole[:len(whole)/10]
	for _, tc := range []struct {
		name string
		out  string
		args func(in, tracks, out string) []string
		feed []byte // written to the pipe, which then stays open; nil: nobody opens it
	}{
		{"render", "out.mp4", func(in, tracks, out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "-o", out}
		}, nil},
		{"render a frame", "out.png", func(in, tracks, out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "-o", out}
		}, nil},
		{"render a picture", "out.png", func(in, tracks, out string) []string {
			return []string{"render", "-i", in + ".png", "--tracks", tracks, "-o", out}
		}, nil},
		{"track", "out.txt", func(in, _, out string) []string {
			return []string{"track", "-i", in, "-o", out}
		}, nil},
		{"tracks -i", "out.jsonl", func(in, tracks, out string) []string {
			return []string{"tracks", tracks, "-i", in, "--to", "jsonl", "-o", out}
		}, nil},
		{"render, the writer stalls", "out.mp4", func(in, tracks, out string) []string {
			return []string{"render", "-i", in, "--tracks", tracks, "-o", out, "--preset", "ultrafast"}
		}, head},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+"/"+signalName(sig), func(t *testing.T) {
				dir := t.TempDir()
				in, tracks, out := filepath.Join(dir, "in.ts"), filepath.Join(dir, "tracks.txt"), filepath.Join(dir, tc.out)
				args := tc.args(in, tracks, out)
				pipe := args[slices.Index(args, "-i")+1]
				if err := syscall.Mkfifo(pipe, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(tracks, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				cmd, stderr := startBinary(t, bin, args...)
				if tc.feed != nil {
					w, err := os.OpenFile(pipe, os.O_WRONLY, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer w.Close()
					if _, err := w.Write(tc.feed); err != nil {
						t.Fatal(err)
					}
					waitForPartial(t, out, stderr)
					time.Sleep(300 * time.Millisecond) // what came is read by now
				} else {
					waitOpening(cmd.Process.Pid, pipe, 5*time.Second)
				}
				cmd.Process.Signal(sig)
				wantStoppedWithin(t, cmd, stderr, sig, out)
			})
		}
	}
}

// The handler catches the first stop signal only: a second one ends the run at once,
// as it ends a process without a handler (a shell reports 128 + the signal), however the
// first is being honoured. It was swallowed, so a run that did not end at the first signal
// could be ended only by SIGKILL. A repeat right after the first (sent as soon as the run
// says it caught the first, well within repeatWindow) is the same stop, as timeout(1) sends
// it, and is dropped: it used to kill the run in its cleanup. The second is sent once the
// run says the window has passed, as a person's second Ctrl-C comes. The run is this test's
// own binary: a handler that waits, once its context has ended, for something the context
// cannot end.
func TestSecondSignalEndsTheRun(t *testing.T) {
	if os.Getenv("TRACKINK_TEST_SECOND_SIGNAL") != "" {
		armed := make(chan struct{})
		repeatWindowClosed = func() { close(armed) }
		ctx, stop := signalContext()
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("caught")
		<-armed // the repeat came before this, and was dropped
		fmt.Println("armed")
		time.Sleep(time.Minute) // the wait nothing ends: the second signal must
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(signalName(sig), func(t *testing.T) {
			if signal.Ignored(sig) {
				t.Skipf("%s is ignored here, so in the run, which leaves it so once the first is caught", signalName(sig))
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalEndsTheRun$", "-test.count=1")
			cmd.Env = append(os.Environ(), "TRACKINK_TEST_SECOND_SIGNAL=1")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			start(t, cmd)
			lines := make(chan string)
			go func() {
				s := bufio.NewScanner(stdout)
				for s.Scan() {
					lines <- s.Text()
				}
				close(lines)
			}()
			expect := func(want string) {
				t.Helper()
				select {
				case got := <-lines:
					if got != want {
						t.Fatalf("the run said %q, want %q", got, want)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("the run did not say %q in 30 s", want)
				}
			}
			expect("ready")
			cmd.Process.Signal(sig)
			expect("caught")
			cmd.Process.Signal(sig) // the repeat: dropped
			expect("armed")
			cmd.Process.Signal(sig) // the second: ends the run
			go func() {
				for range lines { // until the pipe closes, so that Wait can return
				}
			}()
			ended, err := waitWithin(cmd, 10*time.Second)
			if !ended {
				t.Fatalf("still running 10 s after the second %s (killed)", signalName(sig))
			}
			if code := shellStatus(t, err); code != 128+int(sig) {
				t.Errorf("status %d, want %d", code, 128+int(sig))
			}
		})
	}
}

// A stop signal sent twice within microseconds, as timeout(1) sends it when its time is up
// (to its child, then to its process group, which holds the child again), is one request:
// the render cleans up as after one signal. The repeat was taken as a second Ctrl-C and
// killed the render in its cleanup, leaving the partial video and statistics files and
// printing nothing. The render runs under timeout with a limit it does not reach, and
// timeout is told its time is up (SIGALRM, its own timer's signal) once the render writes.
// Whether the repeat came before or after the handler let go was a race, so this caught
// the fault in some runs only; TestSecondSignalEndsTheRun catches it in every one.
func TestRepeatedSignalIsOneStop(t *testing.T) {
	bin, in := binary(t), longClip(t)
	timeout, err := exec.LookPath("timeout")
	if err != nil {
		t.Skip("no timeout(1) here")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(signalName(sig), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.mp4")
			cmd := exec.Command(timeout, "--preserve-status", "-s", signalName(sig)[3:], "1h",
				bin, "render", "-i", in, "--scene", "seed", "-o", out, "--preset", "slow",
				"--stats-json", filepath.Join(dir, "stats.json"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start(t, cmd)
			waitForPartial(t, out, &stderr)
			cmd.Process.Signal(syscall.SIGALRM)
			if code := shellStatus(t, cmd.Wait()); code != 128+int(sig) {
				t.Errorf("status %d, want %d; stderr: %s", code, 128+int(sig), stderr.String())
			}
			if want := "interrupted by " + signalName(sig); !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q: want %q (killed in its cleanup?)", stderr.String(), want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an interrupted render left its output")
			}
			noHiddenFiles(t, dir)
		})
	}
}

// A preview killed mid-way (SIGKILL, or a second stop signal) leaves its scratch video in a
// partial directory beside the picture, which the next run's sweep of that directory
// removes, saying so; nothing is left in $TMPDIR, where the scratch directory stayed for
// good. The tracks are a named pipe: once the preview opens them, its scratch is made.
func TestKilledPreviewScratchRemovedNextTime(t *testing.T) {
	bin, dir, tmp := binary(t), t.TempDir(), t.TempDir()
	in, fifo, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "t.fifo"), writeFile(t, dir, "t.txt", "2,1,10,10,20,20,1,-1,-1,-1\n")
	if err := video.Synthesize(in, 160, 120, 5, 25); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	cmd := exec.Command(bin, "render", "-i", in, "--tracks", fifo, "--frame", "2", "-o", filepath.Join(out, "killed.png"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start(t, cmd)
	defer pipeWriter(t, cmd, fifo, &stderr).Close()
	cmd.Process.Kill()
	cmd.Wait()
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the killed preview left %s in $TMPDIR", left[0].Name())
	}
	stale, _ := filepath.Glob(filepath.Join(out, ".killed.png.*.partial"))
	if len(stale) != 1 {
		t.Fatalf("partial directories beside the picture: %q, want the killed preview's one", stale)
	}
	code, next := runBinary(t, bin, "render", "-i", in, "--tracks", tracks, "--frame", "2", "-o", filepath.Join(out, "next.png"))
	if code != 0 || !strings.Contains(next, "removed "+stale[0]) {
		t.Errorf("the next preview: exit %d, %q; want it to say it removed %s", code, next, stale[0])
	}
	noHiddenFiles(t, out)
}
