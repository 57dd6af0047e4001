//go:build slurm

package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/internal/mediatest"
	"trackink/video"
)

// This file runs trackink on a real Slurm cluster, one node on this machine
// (scripts/slurm/cluster.sh: Debian's munge, slurmctld and slurmd, installed if missing,
// started by pid under a directory of their own). It is behind the build tag slurm, so that
// `go test ./...` (run twice by make test, once in the cuda build) does not start a cluster;
// make test runs it once: go test -tags slurm -run TestSlurm ./cli. It needs root.

// How long each part may take: starting the cluster (installing the packages on a fresh
// machine included), running the jobs, stopping the daemons. Together well inside the
// go test -timeout the Makefile gives (12 minutes), so that the cluster is always stopped.
const (
	slurmStartLimit = 5 * time.Minute
	slurmJobsLimit  = 3 * time.Minute
	slurmStopLimit  = time.Minute
)

// docs/cluster.md's cluster recipe, for real: an array of 4 segment tasks (scripts/slurm/
// segment.sbatch) and a join job after it (join.sbatch, --dependency=afterok), beside the
// many-videos array (many.sbatch, two videos). The join is the whole render, frame for frame
// (lossless; trails, hysteresis and ages on), with the source's audio; the many-videos
// outputs are renders of their inputs. A task of the segment array that already succeeded,
// requeued (a retry), rewrites its segment, and a second join is the first again.
func TestSlurmSegmentsAndJoin(t *testing.T) {
	bin := binary(t)
	// ^C or SIGTERM ends the waits, so that the cluster is still stopped.
	ctx, stop := signal.NotifyContext(t.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := startCluster(t, ctx)

	work := filepath.Join(c.dir, "work")
	for _, d := range []string{work, filepath.Join(work, "logs"), filepath.Join(work, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	look := []string{"--lossless", "--trail", "10", "--label", "#{id} {age}"}
	whole := filepath.Join(t.TempDir(), "whole.mp4")
	run(t, append([]string{"render", "-i", in, "--tracks", tracks, "-o", whole, "--quiet"}, look...)...)
	small := filepath.Join(work, "small.mp4")
	if err := video.Synthesize(small, 160, 120, 20, 10); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(work, "list.tsv")
	os.WriteFile(list, []byte(in+"\t"+tracks+"\n"+small+"\t"+tracks+"\t"+filepath.Join(work, "out", "small-rendered.mp4")+"\n"), 0o644)

	scripts, err := filepath.Abs("../scripts/slurm")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+c.conf, "TRACKINK="+bin)
	jobsCtx, cancel := context.WithTimeout(ctx, slurmJobsLimit)
	defer cancel()
	sbatch := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(jobsCtx, "sbatch", append([]string{"--parsable", "--cpus-per-task=1"}, args...)...)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
		if err != nil || id == "" || strings.ContainsFunc(id, func(r rune) bool { return r < '0' || r > '9' }) {
			t.Fatalf("sbatch %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return id
	}
	segs, joined := filepath.Join(work, "segs"), filepath.Join(work, "joined.mp4")
	array := sbatch(append([]string{"--array=0-3", "-o", "logs/segment-%A_%a.out", filepath.Join(scripts, "segment.sbatch"), "4", in, tracks, segs}, look...)...)
	join := sbatch("--dependency=afterok:"+array, "-o", "logs/join-%j.out", filepath.Join(scripts, "join.sbatch"), in, segs, joined)
	many := sbatch("--array=0-1", "-o", "logs/many-%A_%a.out", filepath.Join(scripts, "many.sbatch"), list, filepath.Join(work, "out"), "--preset", "ultrafast")
	t.Logf("submitted: segment array %s, join %s, many-videos array %s", array, join, many)
	defer func() {
		if t.Failed() {
			c.report(t, work)
		}
	}()
	c.wait(t, jobsCtx, join, many)
	c.want(t, array, 4, "COMPLETED")
	c.want(t, join, 1, "COMPLETED")
	c.want(t, many, 2, "COMPLETED")

	wholeFrames := mediatest.Frames(t, whole)
	if got := mediatest.Frames(t, joined); len(wholeFrames) != mediatest.ClipFrames || !slices.Equal(got, wholeFrames) {
		t.Errorf("the join differs from the whole render: %s", mediatest.Difference(wholeFrames, got))
	}
	if want, got := mediatest.Packets(t, in, "0:a"), mediatest.Packets(t, joined, "0:a"); !slices.Equal(got, want) {
		t.Errorf("the join's audio differs from the source's: %s", mediatest.Difference(want, got))
	}
	for _, o := range []struct {
		path   string
		frames int
	}{{filepath.Join(work, "out", "src.mp4"), mediatest.ClipFrames}, {filepath.Join(work, "out", "small-rendered.mp4"), 20}} {
		if n := ffprobeFrames(t, o.path); n != o.frames {
			t.Errorf("many videos: %s has %d frames, want %d", o.path, n, o.frames)
		}
	}

	// A retry of a task that succeeded: it rewrites its segment; a join after it is the
	// same file.
	seg := filepath.Join(segs, "src.seg-0002-of-0004.mp4")
	before, err := os.Stat(seg)
	if err != nil {
		t.Fatal(err)
	}
	c.scontrol(t, jobsCtx, "requeue", array+"_2")
	rewritten := func() bool {
		after, err := os.Stat(seg)
		return err == nil && !os.SameFile(before, after)
	}
	for !rewritten() {
		if jobsCtx.Err() != nil {
			t.Fatalf("task %s_2 requeued: its segment was not rewritten within %v", array, slurmJobsLimit)
		}
		time.Sleep(500 * time.Millisecond)
	}
	c.wait(t, jobsCtx, array)
	rejoined := filepath.Join(work, "rejoined.mp4")
	again := sbatch("--dependency=afterok:"+array, "-o", "logs/join-%j.out", filepath.Join(scripts, "join.sbatch"), in, segs, rejoined)
	c.wait(t, jobsCtx, again)
	c.want(t, again, 1, "COMPLETED")
	if got := mediatest.Frames(t, rejoined); !slices.Equal(got, wholeFrames) {
		t.Errorf("the join after the retry differs from the whole render: %s", mediatest.Difference(wholeFrames, got))
	}
}

// cluster is a one-node Slurm cluster started by scripts/slurm/cluster.sh.
type cluster struct {
	script, dir, conf string
}

// startCluster starts a cluster in a new directory under /tmp and registers its stop, which
// runs whatever happens and fails the test if a daemon survives. A cluster that does not
// start fails the test with what cluster.sh said (the daemons' logs among it).
func startCluster(t *testing.T, ctx context.Context) *cluster {
	t.Helper()
	script, err := filepath.Abs("../scripts/slurm/cluster.sh")
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: munged wants every directory above its socket open to all (o+x), and a
	// short path for it; /tmp/trackink-slurm-N is both.
	dir, err := os.MkdirTemp("/tmp", "trackink-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &cluster{script: script, dir: dir, conf: filepath.Join(dir, "etc", "slurm.conf")}
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), slurmStopLimit)
		defer cancel()
		if out, err := exec.CommandContext(stopCtx, "bash", script, "stop", dir).CombinedOutput(); err != nil {
			t.Errorf("stopping the cluster in %s: %v\n%s", dir, err, out)
			return
		}
		if !t.Failed() {
			os.RemoveAll(dir)
		} else {
			t.Logf("the cluster's directory is kept: %s", dir)
		}
	})
	startCtx, cancel := context.WithTimeout(ctx, slurmStartLimit)
	defer cancel()
	started := time.Now()
	out, err := exec.CommandContext(startCtx, "bash", script, "start", dir).CombinedOutput()
	if err != nil {
		logs, _ := exec.Command("bash", script, "logs", dir).CombinedOutput()
		t.Fatalf("the Slurm cluster did not start (%v after %v):\n%s\n%s", err, time.Since(started).Round(time.Second), out, logs)
	}
	t.Logf("cluster up in %v", time.Since(started).Round(time.Second))
	return c
}

// jobStates returns the state of each task of job id (one for a job that is no array),
// from scontrol, which keeps finished jobs for 10 minutes in cluster.sh's configuration.
func (c *cluster) jobStates(ctx context.Context, id string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "scontrol", "-o", "show", "job", id)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var states []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		for _, f := range strings.Fields(line) {
			if s, ok := strings.CutPrefix(f, "JobState="); ok {
				states = append(states, s)
			}
		}
	}
	return states, nil
}

// wait waits until every task of the jobs has ended (in any state), or fails the test when
// ctx ends first.
func (c *cluster) wait(t *testing.T, ctx context.Context, ids ...string) {
	t.Helper()
	ended := func(s string) bool {
		return !slices.Contains([]string{"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED", "REQUEUE_HOLD", "RESIZING", "SUSPENDED"}, s)
	}
	for _, id := range ids {
		for {
			states, err := c.jobStates(ctx, id)
			if err == nil && len(states) > 0 && !slices.ContainsFunc(states, func(s string) bool { return !ended(s) }) {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("job %s has not ended (states %v, %v): %v", id, states, err, ctx.Err())
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}

// want checks that job id has n tasks, all in state.
func (c *cluster) want(t *testing.T, id string, n int, state string) {
	t.Helper()
	states, err := c.jobStates(context.Background(), id)
	if err != nil || len(states) != n || slices.ContainsFunc(states, func(s string) bool { return s != state }) {
		t.Errorf("job %s: states %v (%v), want %d %s", id, states, err, n, state)
	}
}

// scontrol runs scontrol with args, failing the test on an error.
func (c *cluster) scontrol(t *testing.T, ctx context.Context, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "scontrol", args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scontrol %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// report logs what a failed test needs: the jobs as scontrol sees them, their output, and
// the daemons' logs.
func (c *cluster) report(t *testing.T, work string) {
	cmd := exec.Command("scontrol", "-o", "show", "job")
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	jobs, _ := cmd.CombinedOutput()
	var b strings.Builder
	fmt.Fprintf(&b, "===== jobs =====\n%s", jobs)
	logs, _ := filepath.Glob(filepath.Join(work, "logs", "*"))
	for _, l := range logs {
		out, _ := os.ReadFile(l)
		fmt.Fprintf(&b, "===== %s =====\n%s", l, out)
	}
	daemons, _ := exec.Command("bash", c.script, "logs", c.dir).CombinedOutput()
	b.Write(daemons)
	t.Log(b.String())
}
