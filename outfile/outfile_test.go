package outfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"trackink/internal/testdir"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

func TestRemoveStalePartials(t *testing.T) {
	dir := t.TempDir()
	live, err := CreatePartial(filepath.Join(dir, "live.mp4"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Discard()
	held := holdPartial(t, filepath.Join(dir, "held.mp4"), false)
	dead := holdPartial(t, filepath.Join(dir, "dead.mp4"), true)
	host, _ := os.Hostname()
	marked := map[string]string{
		".elsewhere.mp4.77.partial.mp4": "another-host 999999999", // a dead PID there, maybe not here
		".alive.mp4.78.partial.mp4":     host + " 1",              // init: a live process
		".bad.mp4.79.partial.mp4":       host + " -3",
	}
	keep := []string{".notes.txt", "clip.partial.mp4", ".x.mp4.12.partial.mp4.bak",
		".report.2020.partial.docx", ".thesis.pdf.42.partial.pdf", ".dead.mp4.12345.partial.mp4"}
	for _, name := range append(slices.Clone(keep), slices.Collect(maps.Keys(marked))...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
		if m, ok := marked[name]; ok {
			if err := unix.Setxattr(filepath.Join(dir, name), partialMark, []byte(m), 0); err != nil {
				t.Skipf("no user extended attributes here: %v", err)
			}
		}
	}
	removed, err := RemoveStalePartials(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].Name != filepath.Base(dead) || removed[0].Size != 5 {
		t.Errorf("removed %+v, want only %s (5 bytes)", removed, filepath.Base(dead))
	}
	keep = append(keep, filepath.Base(live.Name()), filepath.Base(held))
	testdir.Holds(t, dir, append(keep, slices.Collect(maps.Keys(marked))...)...)

	// A finished writer's file is in place and its partial gone.
	if _, err := live.WriteString("done"); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(false); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "live.mp4")); err != nil || string(b) != "done" {
		t.Errorf("committed file: %q, %v", b, err)
	}
	if _, err := os.Stat(live.Name()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial file is still there after Commit: %v", err)
	}
}

// holdPartial starts a process that holds the partial file of final (with dir, the partial
// directory of a picture sequence there, holding one file) and returns its path; killed, the
// process is killed then.
func holdPartial(t *testing.T, final string, killed bool, dir ...bool) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldPartialHelper$")
	cmd.Env = append(os.Environ(), "TRACKINK_HOLD_PARTIAL="+final)
	if len(dir) > 0 && dir[0] {
		cmd.Env = append(cmd.Env, "TRACKINK_HOLD_PARTIAL_DIR=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the holding process said nothing: %v", err)
	}
	if killed {
		cmd.Process.Kill()
		cmd.Wait()
	}
	return strings.TrimSpace(line)
}

func TestHoldPartialHelper(t *testing.T) {
	final := os.Getenv("TRACKINK_HOLD_PARTIAL")
	if final == "" {
		t.Skip("the helper process of holdPartial")
	}
	if os.Getenv("TRACKINK_HOLD_PARTIAL_DIR") != "" {
		p, err := CreatePartialDir(filepath.Dir(final), filepath.Base(final))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.Dir, "f_00001.png"), []byte("0123456"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Println(p.Dir)
		time.Sleep(time.Minute)
	}
	p, err := CreatePartial(final)
	if err != nil {
		t.Fatal(err)
	}
	p.WriteString("01234")
	fmt.Println(p.Name())
	time.Sleep(time.Minute)
}

// A finished output carries no partial mark, whichever way it was committed, so a later
// run's sweep keeps it even under a partial file's name (chosen with -o, or given by mv or
// cp -a) once its writer is gone. Every output kept the mark: render -o
// .keep.mp4.77.partial.mp4, then another render in that directory removed the finished video
// as "the partial output of a trackink run that was killed".
func TestCommittedOutputIsNoPartial(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Setxattr(dir, "user.trackink.probe", []byte("x"), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCommitHelper$")
	cmd.Env = append(os.Environ(), "TRACKINK_COMMIT_IN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the committing process: %v\n%s", err, out)
	}
	for _, name := range committedNames {
		final := filepath.Join(dir, name)
		if _, err := unix.Getxattr(final, partialMark, make([]byte, 512)); !errors.Is(err, unix.ENODATA) {
			t.Errorf("%s: the committed output's partial mark: %v, want none", name, err)
		}
	}
	// Its writer is dead now: the sweep would take a marked file.
	removed, err := RemoveStalePartials(dir)
	if err != nil || len(removed) > 0 {
		t.Errorf("the sweep removed %+v (%v), want nothing", removed, err)
	}
	testdir.Holds(t, dir, committedNames...)
}

// committedNames are the outputs TestCommitHelper commits, each in its own way: Write (a
// tracks file, a picture), Commit, and CommitAll's main output and partner (a video and its
// --save-tracks).
var committedNames = []string{".mine.jsonl.5.partial.jsonl", ".keep.mp4.77.partial.mp4", ".v.mp4.8.partial.mp4", ".t.jsonl.9.partial.jsonl"}

func TestCommitHelper(t *testing.T) {
	dir := os.Getenv("TRACKINK_COMMIT_IN")
	if dir == "" {
		t.Skip("the helper process of TestCommittedOutputIsNoPartial")
	}
	path := func(i int) string { return filepath.Join(dir, committedNames[i]) }
	err := Write(context.Background(), path(0), false, func(w io.Writer) error { _, err := io.WriteString(w, "tracks"); return err })
	if err != nil {
		t.Fatal(err)
	}
	var files []*PartialFile
	for i := 1; i < len(committedNames); i++ {
		p, err := CreatePartial(path(i))
		if err != nil {
			t.Fatal(err)
		}
		p.WriteString("whole")
		files = append(files, p)
	}
	if err := files[0].Commit(true); err != nil {
		t.Fatal(err)
	}
	if err := CommitAll(false, files[1:]...); err != nil {
		t.Fatal(err)
	}
}

// A run killed at any moment of making its partial file leaves nothing the next sweep does
// not remove. The helper makes and discards partial files in a loop, so that the kills fall
// in every part of CreatePartial; a file named before it was marked used to stay for good.
func TestKilledWhileCreatingLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Setxattr(dir, "user.trackink.probe", []byte("x"), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR, 0o600)
	if err != nil {
		t.Skipf("no unnamed files (O_TMPFILE) here, so a partial file is named before it is marked: %v", err)
	}
	unix.Close(fd)
	for i := range 40 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCreatePartialLoopHelper$")
		cmd.Env = append(os.Environ(), "TRACKINK_CREATE_LOOP="+filepath.Join(dir, "out.mp4"))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			t.Fatalf("the looping process said nothing: %v", err)
		}
		time.Sleep(time.Duration(i%7) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
	}
	if _, err := RemoveStalePartials(dir); err != nil {
		t.Fatal(err)
	}
	testdir.Holds(t, dir)
}

func TestCreatePartialLoopHelper(t *testing.T) {
	final := os.Getenv("TRACKINK_CREATE_LOOP")
	if final == "" {
		t.Skip("the helper process of TestKilledWhileCreatingLeavesNothing")
	}
	fmt.Println("looping")
	for {
		p, err := CreatePartial(final)
		if err != nil {
			t.Fatal(err)
		}
		p.Discard()
	}
}

// A picture sequence's partial directory is swept, with what it holds, once its writer is
// gone (killed), and kept while it lives.
func TestRemoveStalePartialDirs(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Setxattr(dir, "user.trackink.probe", []byte("x"), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	held := holdPartial(t, filepath.Join(dir, "held_05d.png"), false, true)
	dead := holdPartial(t, filepath.Join(dir, "dead_05d.png"), true, true)
	// Unmarked directories of a partial directory's name: only the empty one that has stood
	// for a while is what a run killed between making and marking it leaves.
	old := time.Now().Add(-2 * unmarkedDirAge)
	unmarked := []struct {
		name      string
		file, dir bool // holds a file; is a directory
		old       bool
	}{
		{".killed_05d.png.11.partial", false, true, true},
		{".fresh_05d.png.12.partial", false, true, false},
		{".kept_05d.png.13.partial", true, true, true},
		{".users.png.14.partial", false, false, true},
	}
	for _, u := range unmarked {
		path := filepath.Join(dir, u.name)
		var err error
		if u.dir {
			err = os.Mkdir(path, 0o755)
			if err == nil && u.file {
				err = os.WriteFile(filepath.Join(path, "f_00001.png"), []byte("x"), 0o644)
			}
		} else {
			err = os.WriteFile(path, nil, 0o644)
		}
		if err == nil && u.old {
			err = os.Chtimes(path, old, old)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStalePartials(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []StalePartial{{Name: filepath.Base(dead), Size: 7}, {Name: ".killed_05d.png.11.partial"}}
	slices.SortFunc(removed, func(a, b StalePartial) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(want, func(a, b StalePartial) int { return strings.Compare(a.Name, b.Name) })
	if !slices.Equal(removed, want) {
		t.Errorf("removed %+v, want %+v", removed, want)
	}
	testdir.Holds(t, dir, filepath.Base(held), ".fresh_05d.png.12.partial", ".kept_05d.png.13.partial",
		".users.png.14.partial")
}

func TestPartialOfLongName(t *testing.T) {
	dir := t.TempDir()
	for _, base := range []string{strings.Repeat("a", 251) + ".mp4", strings.Repeat("é", 125) + ".mkv", strings.Repeat("b", 240) + ".png"} {
		// CreateTemp puts up to 10 digits in place of the star.
		if n := len(partialPattern(base, filepath.Ext(base))) - 1 + 10; n > maxName {
			t.Errorf("%d bytes: the partial name may be %d bytes", len(base), n)
		}
		p, err := CreatePartial(filepath.Join(dir, base))
		if err != nil {
			t.Fatalf("%d bytes: %v", len(base), err)
		}
		name := filepath.Base(p.Name())
		if !partialName.MatchString(name) || !utf8.ValidString(name) || filepath.Ext(name) != filepath.Ext(base) {
			t.Errorf("partial name %q", name)
		}
		if err := p.Commit(false); err != nil {
			t.Fatal(err)
		}
		// A picture sequence's partial directory, shortened alike: it failed, "file name
		// too long", for a pattern whose pictures' names are valid.
		d, err := CreatePartialDir(dir, base)
		if err != nil {
			t.Fatalf("%d bytes, partial directory: %v", len(base), err)
		}
		if name := filepath.Base(d.Dir); !partialName.MatchString(name) || !utf8.ValidString(name) {
			t.Errorf("partial directory name %q", name)
		}
		d.Discard()
	}
}

func TestCommitIsDurable(t *testing.T) {
	for _, overwrite := range []bool{false, true} {
		dir := t.TempDir()
		final := filepath.Join(dir, "out.txt")
		var events []string
		exists := func() string {
			if _, err := os.Stat(final); err == nil {
				return "present"
			}
			return "absent"
		}
		marks := unix.Setxattr(dir, "user.trackink.probe", []byte("x"), 0) == nil
		marked := func(path string) string {
			if _, err := unix.Getxattr(path, partialMark, make([]byte, 512)); err == nil {
				return "marked"
			}
			return "unmarked"
		}
		oldFile, oldDir, oldRename, oldLink := syncFile, syncDir, renameFile, linkFile
		syncFile = func(f *os.File) error {
			events = append(events, "file synced, "+marked(f.Name())+", target "+exists())
			return oldFile(f)
		}
		renameFile = func(from, to string) error {
			events = append(events, "placed, "+marked(from))
			return oldRename(from, to)
		}
		linkFile = func(from, to string) error {
			events = append(events, "placed, "+marked(from))
			return oldLink(from, to)
		}
		syncDir = func(d string) error {
			if d != dir {
				t.Errorf("synced %s, not the output's directory %s", d, dir)
			}
			events = append(events, "directory synced, target "+exists())
			return oldDir(d)
		}
		p, err := CreatePartial(final)
		if err == nil {
			_, err = p.WriteString("whole")
		}
		if err == nil {
			err = p.Commit(overwrite)
		}
		syncFile, syncDir, renameFile, linkFile = oldFile, oldDir, oldRename, oldLink
		if err != nil {
			t.Fatal(err)
		}
		// The data is synced marked (a kill then leaves a partial file the sweep removes),
		// and the mark is gone before the file has its name: no finished output carries it.
		want := []string{"file synced, marked, target absent", "placed, unmarked", "directory synced, target present"}
		if !marks {
			want[0] = "file synced, unmarked, target absent"
		}
		if !slices.Equal(events, want) {
			t.Errorf("overwrite %v: %v, want %v", overwrite, events, want)
		}
		if b, _ := os.ReadFile(final); string(b) != "whole" {
			t.Errorf("overwrite %v: the output holds %q", overwrite, b)
		}
	}
}

func TestCommitAllLandsTogether(t *testing.T) {
	names := []string{"out.mp4", "tracks.jsonl", "stats.json"}
	for _, tc := range []struct {
		name      string
		overwrite bool
		old       []bool // which targets exist before the commit
	}{
		{"replacing all", true, []bool{true, true, true}},
		{"replacing the video and one partner", true, []bool{true, false, true}},
		{"fresh", true, []bool{false, false, false}},
		{"fresh, no overwrite", false, []bool{false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, name := range names {
				if tc.old[i] {
					os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644)
				}
			}
			// state is each target's contents: old, new or absent ("").
			state := func() []string {
				var s []string
				for _, name := range names {
					b, _ := os.ReadFile(filepath.Join(dir, name))
					s = append(s, string(b))
				}
				return s
			}
			check := func(when string) {
				s := state()
				for i, partner := range s[1:] {
					if partner != "" && s[0] != "" && partner != s[0] {
						t.Errorf("%s: %s is %s beside the %s %s", when, names[i+1], partner, s[0], names[0])
					}
				}
			}
			oldRename := renameFile
			defer func() { renameFile = oldRename }()
			renameFile = func(from, to string) error {
				check("before moving " + filepath.Base(to))
				return oldRename(from, to)
			}
			var files []*PartialFile
			for _, name := range names {
				p, err := CreatePartial(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				defer p.Discard()
				p.WriteString("new")
				files = append(files, p)
			}
			if err := CommitAll(tc.overwrite, files...); err != nil {
				t.Fatal(err)
			}
			check("after")
			if s := state(); !slices.Equal(s, []string{"new", "new", "new"}) {
				t.Errorf("after: %v, want all new", s)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
				t.Errorf("partial files left: %v", left)
			}
		})
	}

	// Without overwrite, a partner that appeared during the render is not replaced, and
	// the video linked before it is taken back.
	dir := t.TempDir()
	video, tracks := filepath.Join(dir, "out.mp4"), filepath.Join(dir, "tracks.jsonl")
	pv, _ := CreatePartial(video)
	pt, _ := CreatePartial(tracks)
	defer pv.Discard()
	defer pt.Discard()
	os.WriteFile(tracks, []byte("someone else's"), 0o644)
	// The error names the partner, not the video (once "output out.mp4 exists").
	var ee *ExistsError
	if err := CommitAll(false, pv, pt); !errors.Is(err, ErrExists) || !errors.As(err, &ee) || ee.Path != tracks {
		t.Errorf("a partner that appeared meanwhile: %v, want ErrExists naming %s", err, tracks)
	}
	if _, err := os.Stat(video); err == nil {
		t.Errorf("the video is in place beside someone else's tracks")
	}
	if b, _ := os.ReadFile(tracks); string(b) != "someone else's" {
		t.Errorf("the file that appeared holds %q", b)
	}
}

// An output takes the mode of the file it replaces (a private file stays private), and a new
// one 0666 less the umask, as files any other tool creates.
func TestOutputMode(t *testing.T) {
	// A umask of the test's own, so that a new file's mode is no 0644 of a fixed default.
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	private, fresh := filepath.Join(dir, "private.mp4"), filepath.Join(dir, "new.mp4")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, final := range []string{private, fresh} {
		p, err := CreatePartial(final)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Commit(true); err != nil {
			t.Fatal(err)
		}
	}
	for final, want := range map[string]os.FileMode{private: 0o600, fresh: 0o640} {
		if st, err := os.Stat(final); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", filepath.Base(final), st.Mode().Perm(), err, want)
		}
	}
}

// A writer that has exited but is not reaped yet (a zombie, which kill(pid, 0) still finds)
// is gone: its partial file is swept. In a container whose first process reaps nothing the
// file stayed for good.
func TestZombieWriterIsGone(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait() // reaped at the end: a zombie until then
	for deadline := time.Now().Add(10 * time.Second); !exited(cmd.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child did not exit")
		}
	}
	if err := syscall.Kill(cmd.Process.Pid, 0); err != nil {
		t.Fatalf("kill(pid, 0) of the zombie: %v, want it found", err)
	}
	dir := t.TempDir()
	host, _ := os.Hostname()
	name := ".z.mp4.5.partial.mp4"
	if err := os.WriteFile(filepath.Join(dir, name), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(filepath.Join(dir, name), partialMark, []byte(fmt.Sprintf("%s %d", host, cmd.Process.Pid)), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	removed, err := RemoveStalePartials(dir)
	if err != nil || len(removed) != 1 || removed[0].Name != name {
		t.Errorf("removed %+v (%v), want %s", removed, err, name)
	}
	if exited(os.Getpid()) {
		t.Error("this process is taken for exited")
	}
}
