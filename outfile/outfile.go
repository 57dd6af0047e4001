// Package outfile holds the rules for every file trackink writes (docs/promises.md): an
// output is never a file the run reads, nor another output of the same run; it replaces an
// existing file only when told to; it is written as a hidden partial file beside its final
// name and moved into place whole, with the files that describe it, or not at all; and the
// partial files of killed runs are swept away, never anyone else's.
package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Partial files. A writer (video.Transcode, the command line's writers) writes to a hidden
// partial file beside the target, .NAME.<n>.partial.EXT, and moves it into place when it is
// complete.
//
// A partial file is trackink's only when it carries trackink's mark: the extended attribute
// user.trackink.partial, "HOST PID", set on the open file right after it was created. A
// user's own .report.2020.partial.docx has the name's shape but never the mark, so the
// sweep (RemoveStalePartials) leaves it alone. The writer also holds an exclusive flock on
// the partial file for as long as it lives; the kernel drops the lock when the process
// ends, however it ends.
//
// The partial file gets its name only once it is locked and marked (it is made as an
// unnamed file first, O_TMPFILE), so a run killed at any moment leaves either nothing or a
// file the sweep can judge. Where the file system has no unnamed files it is named, then
// locked and marked: a SIGKILL in that instant leaves an unmarked file, as below. A picture
// sequence's partial directory has the same instant (a directory cannot be made unnamed):
// the sweep removes an unmarked one when it is empty, unlocked and a minute old, as nothing
// is written in it before its mark.
//
// The mark means "unfinished": Commit removes it before the file takes its final name, so
// a finished output never carries it, whatever name it is given later.
//
// The sweep removes a marked partial file only when all three say its writer is gone: the
// mark names this host, no process has the mark's PID, and the flock can be taken. On a
// shared file system (NFS, CIFS, Lustre) a flock may be local to one machine, so a writer on
// another host is invisible to it: the host in the mark is what keeps the sweep off that
// writer's file; such files are left for a sweep on their own host. A file system without
// user extended attributes gets unmarked partial files, which no sweep ever removes: a
// killed render there leaves its partial file for the user to delete, never a lost file.

// Errors callers can test with errors.Is.
var (
	// ErrExists means the output exists and overwriting was not asked for.
	ErrExists = errors.New("output file exists")
	// ErrIsInput means the output names the input file (the same file by device and
	// inode: a hard link, a symbolic link or another spelling of the path). It is refused
	// whatever overwriting says.
	ErrIsInput = errors.New("the output is the input file")
)

// ExistsError is the ErrExists of one file: Path, which a run would have replaced.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string        { return ErrExists.Error() + ": " + e.Path }
func (e *ExistsError) Is(target error) bool { return target == ErrExists }

// partialMark is the extended attribute that marks a partial file as trackink's.
const partialMark = "user.trackink.partial"

// CheckOutput checks before any work that output can be written for input and returns the
// path to write: output itself, or, when output is a symbolic link, the file it points to
// (the link is written through and stays a link). It refuses an output that is the input
// (the same file by device and inode: a hard link, a symbolic link, another spelling of the
// path) with ErrIsInput whatever overwrite says, an existing output without overwrite
// (ErrExists), a directory, a link to nothing, and a directory that does not exist.
func CheckOutput(input, output string, overwrite bool) (string, error) {
	if output == "" {
		return "", errors.New("no output file given")
	}
	target := output
	// Not a file (/dev/null, a named pipe, /dev/stdout's pipe): the partial file moved into
	// place would replace it, a device node even, where the directory lets it (root's /dev).
	if st, err := os.Stat(output); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
		return "", fmt.Errorf("output %s is %s, not a file: trackink writes its outputs as files, moved into place whole (give a file's name)", output, fileKind(st.Mode()))
	}
	if st, err := os.Lstat(output); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(output); err != nil {
			dest, _ := os.Readlink(output)
			return "", fmt.Errorf("output %s is a symbolic link to %s, which does not exist", output, dest)
		}
	}
	if st, err := os.Stat(target); err == nil {
		if st.IsDir() {
			return "", fmt.Errorf("output %s is a directory", output)
		}
		if in, err := os.Stat(input); err == nil && os.SameFile(in, st) {
			return "", fmt.Errorf("%w: %s is %s", ErrIsInput, output, input)
		}
		if !overwrite {
			return "", &ExistsError{output}
		}
	}
	if st, err := os.Stat(filepath.Dir(target)); err != nil || !st.IsDir() {
		return "", fmt.Errorf("output directory %s does not exist", filepath.Dir(target))
	}
	return target, nil
}

// fileKind names what a file that is neither regular nor a directory is, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// umask is the process's file mode creation mask, as the kernel shows it (Linux 4.7 on).
// Else it is read by setting it, which for that instant gives any file another thread
// creates mode 0666 or 0777: once, and only there.
func umask() fs.FileMode {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return fs.FileMode(m)
				}
			}
		}
	}
	return umaskBySetting()
}

var umaskBySetting = sync.OnceValue(func() fs.FileMode {
	m := unix.Umask(0)
	unix.Umask(m)
	return fs.FileMode(m)
})

// outputMode is the mode an output placed at final takes: the file's it replaces, or a new
// file's, 0666 less mask (the umask: as any tool creating it would give; read once for all
// the files placed together, a picture sequence's thousands).
func outputMode(final string, mask fs.FileMode) fs.FileMode {
	if st, err := os.Stat(final); err == nil {
		return st.Mode().Perm()
	}
	return 0o666 &^ mask
}

// PartialFile is an output being written: the open, locked partial file beside the final
// name. Write to it (it is an *os.File) or open its Name() again; then Commit or Discard.
type PartialFile struct {
	*os.File
	final string
}

// partialName matches the names CreatePartial gives: .NAME.<n>.partial or .NAME.<n>.partial.EXT.
var partialName = regexp.MustCompile(`^\..+\.[0-9]+\.partial(\.[^.]+)?$`)

// maxName is the longest file name Linux file systems take, in bytes.
const maxName = 255

// partialPattern is CreatePartial's pattern for final's partial file: .NAME.*.partial.EXT,
// with NAME shortened (at a character boundary) where the whole would pass maxName once
// CreateTemp puts its number (up to 10 digits) in place of the star.
func partialPattern(base, ext string) string {
	const fixed = len(".") + len(".") + 10 + len(".partial")
	if over := fixed + len(base) + len(ext) - maxName; over > 0 {
		cut := max(0, len(base)-over-len("~"))
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut] + "~"
	}
	return "." + base + ".*.partial" + ext
}

// CreatePartial creates, marks and locks the partial file for final.
func CreatePartial(final string) (*PartialFile, error) {
	dir, base := filepath.Split(final)
	if dir == "" {
		dir = "."
	}
	ext := filepath.Ext(final)
	if len(ext) > maxName/4 {
		ext = "" // not a container's extension: FFmpeg is told the format by the final name
	}
	pattern, mark := partialPattern(base, ext), partialMarkValue()
	if f := createUnnamed(dir, pattern, mark); f != nil {
		return &PartialFile{File: f, final: final}, nil
	}
	for range 3 {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, fmt.Errorf("output directory %s is not writable: %w", dir, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		// Without the mark (a file system without user extended attributes) the file is
		// written all the same; no sweep will ever take it for a stale one of ours.
		_ = unix.Fsetxattr(int(f.Fd()), partialMark, mark, 0)
		// A cleaner that took the lock between the file's creation and ours has deleted it
		// as stale: start again under a new name.
		if held, err := f.Stat(); err == nil {
			if named, err := os.Lstat(f.Name()); err == nil && os.SameFile(held, named) {
				return &PartialFile{File: f, final: final}, nil
			}
		}
		f.Close()
	}
	return nil, fmt.Errorf("creating a partial file for %s: removed as stale three times", final)
}

// createUnnamed creates the partial file as the kernel's unnamed file in dir (O_TMPFILE),
// locks and marks it, and only then links it under a name of pattern's shape. A run killed
// at any moment before leaves nothing; a file named then and killed later carries the mark,
// so the next sweep removes it. (A named file created first and marked after, killed
// between the two, was an unmarked partial file that no sweep would ever take: CI once
// caught a SIGKILL in that gap.) It returns nil where the file system or the kernel has
// no unnamed files, or where the file cannot be marked: the caller then names it first.
func createUnnamed(dir, pattern string, mark []byte) *os.File {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil
	}
	if unix.Flock(fd, unix.LOCK_EX) != nil || unix.Fsetxattr(fd, partialMark, mark, 0) != nil {
		unix.Close(fd)
		return nil
	}
	for range 100 {
		name := filepath.Join(dir, strings.Replace(pattern, "*", strconv.FormatUint(uint64(rand.Uint32()), 10), 1))
		// Through /proc a link needs no privilege; AT_EMPTY_PATH, where /proc is
		// not mounted, needs CAP_DAC_READ_SEARCH.
		err := unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err != nil && !errors.Is(err, unix.EEXIST) {
			err = unix.Linkat(fd, "", unix.AT_FDCWD, name, unix.AT_EMPTY_PATH)
		}
		if err == nil {
			return os.NewFile(uintptr(fd), name)
		}
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	unix.Close(fd)
	return nil
}

// syncFile and syncDir make a file's data, and a directory's entries, durable, and
// renameFile and linkFile move a file into place; tests replace them to see the order of a
// Commit.
var (
	renameFile = os.Rename
	linkFile   = os.Link
	syncFile   = (*os.File).Sync
	syncDir    = func(dir string) error {
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Sync()
	}
)

// Commit moves the complete file into place, durably, as databases do: the file's data is
// synced before its new name exists, and the directory after, so that after a power cut the
// target is either the old file or the whole new one, never an empty or partly written one.
// Without overwrite it links rather than renames, so an output that appeared meanwhile is
// not replaced (ErrExists); the partial file then stays for Discard.
func (p *PartialFile) Commit(overwrite bool) error {
	return CommitAll(overwrite, p)
}

// CommitAll moves the complete partial files of one run into place together, as Commit
// does one. The first is the run's main output (the video); the others are its partners
// (the tracks it drew, its statistics), which describe it and must never sit beside
// another run's main output. Every file's data is synced before any is moved, and each
// loses its partial mark just before it is moved (unmark), so no output in place carries
// it. With overwrite, the partners' old files are removed first, then the main output is
// renamed over its old one, then the partners into place: a kill at any moment leaves the
// old main output without its partners, or the new one with none, some or all of its own,
// never a new file beside a stale partner (docs/promises.md). Without overwrite each is
// linked into place; if one appeared meanwhile, those linked already are taken back (none
// existed before) and the error wraps ErrExists. On an error the files not placed stay for
// Discard.
func CommitAll(overwrite bool, files ...*PartialFile) error {
	mask := umask()
	for _, p := range files {
		if err := p.Chmod(outputMode(p.final, mask)); err != nil {
			return fmt.Errorf("output %s: %w", p.final, err)
		}
		if err := syncFile(p.File); err != nil {
			return fmt.Errorf("output %s: writing it to disk: %w", p.final, err)
		}
	}
	if overwrite && len(files) > 1 {
		if err := RemoveReplaced(files[1:]...); err != nil {
			return err
		}
	}
	dirs := map[string]bool{}
	for _, p := range files {
		dirs[filepath.Dir(p.final)] = true
	}
	for i, p := range files {
		err := p.unmark()
		if err == nil {
			if err = p.place(overwrite); err != nil {
				p.remark()
			}
		}
		if err != nil {
			if !overwrite {
				for _, q := range files[:i] {
					os.Remove(q.final)
				}
			}
			return err
		}
	}
	if err := syncDirs(dirs); err != nil {
		for _, p := range files {
			p.Close()
		}
		return fmt.Errorf("%w (the output is in place)", err)
	}
	var err error
	for _, p := range files {
		err = errors.Join(err, p.Close()) // releases the lock, now that the partial name is gone
	}
	return err
}

// RemoveReplaced removes the old files that partners will replace, durably, before their run's
// main output takes its place over its old one: CommitAll does so for its own, and a main
// output that is no PartialFile (a picture sequence, committed on its own) calls it first.
// A kill after it leaves the old main output, or the new one, without the old partners.
func RemoveReplaced(partners ...*PartialFile) error {
	finals := make([]string, len(partners))
	for i, p := range partners {
		finals[i] = p.final
	}
	_, err := RemoveOld(finals...)
	return err
}

// RemoveOld removes the files at paths, those that exist, durably, and returns them: the old
// partners of a run's main output that it replaces (RemoveReplaced), or that it makes stale
// and writes no new one of (the class names beside MOTChallenge text now written without
// classes), called before the main output takes its place, for the same reason.
func RemoveOld(paths ...string) ([]string, error) {
	dirs := map[string]bool{}
	var removed []string
	for _, path := range paths {
		err := os.Remove(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("output %s: removing the old file: %w", path, err)
		}
		if err == nil {
			dirs[filepath.Dir(path)] = true
			removed = append(removed, path)
		}
	}
	// The removals reach the disk before the new main output's name does.
	return removed, syncDirs(dirs)
}

// syncDirs syncs each directory of dirs, in name order.
func syncDirs(dirs map[string]bool) error {
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("output directory %s could not be synced: %w", dir, err)
		}
	}
	return nil
}

// unmark removes the partial mark from the complete file just before it takes its final
// name: the mark says "unfinished, remove me once my writer is gone", and a finished output
// that kept it was removed by a later run's sweep once it bore a partial file's name (chosen
// with -o, or given by mv or cp -a), its writer dead by then. The order is what makes this
// safe. The data is synced while the file is still marked (CommitAll), so a kill during that
// sync, the long part, leaves a partial file the sweep removes, as before. Then the mark goes
// and the file is named at once, in the next system call: a kill at any moment never leaves
// a marked file under its final name, and the instant in which a SIGKILL leaves an unmarked
// partial file (which no sweep takes, as on a file system without marks) is the few
// microseconds between two system calls, as when a partial file is named before it is marked
// where there are no unnamed files. (Syncing the removal first made that instant a disk
// flush long: CLI's TestFaultsAtAnyMoment caught a SIGKILL in it.) Unmarking after the
// rename would instead leave a finished output marked: the loss. After a power cut the name
// cannot have reached the disk without the removal: journalling file systems (ext4, XFS)
// commit metadata changes in order, and the directory's sync that makes the name durable
// commits the removal made before it. A file never marked (no user extended attributes)
// needs nothing.
func (p *PartialFile) unmark() error {
	err := unix.Fremovexattr(int(p.Fd()), partialMark)
	if err != nil && !errors.Is(err, unix.ENODATA) && !errors.Is(err, unix.ENOTSUP) {
		return fmt.Errorf("output %s: removing its partial file's mark: %w", p.final, err)
	}
	return nil
}

// remark marks again a partial file that could not be placed after unmark, so that it stays
// a partial file a sweep removes should the run be killed before its Discard.
func (p *PartialFile) remark() { _ = unix.Fsetxattr(int(p.Fd()), partialMark, partialMarkValue(), 0) }

// place gives the partial file its final name.
func (p *PartialFile) place(overwrite bool) error { return place(p.Name(), p.final, overwrite) }

// place gives a finished file its final name: a rename, or without overwrite a link (an
// existing file is ErrExists).
func place(from, to string, overwrite bool) error {
	if overwrite {
		if err := renameFile(from, to); err != nil {
			return fmt.Errorf("moving the output into place: %w", err)
		}
		return nil
	}
	if err := linkFile(from, to); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return &ExistsError{to}
		}
		return fmt.Errorf("moving the output into place: %w", err)
	}
	os.Remove(from)
	return nil
}

// Discard deletes the partial file and releases it. It does nothing after a Commit.
func (p *PartialFile) Discard() {
	if p.Close() == nil {
		os.Remove(p.Name())
	}
}

// partialMarkValue is the mark of this process's partial files: the host and the PID.
func partialMarkValue() []byte {
	host, _ := os.Hostname()
	return []byte(host + " " + strconv.Itoa(os.Getpid()))
}

// StalePartial is a partial file whose writer was gone, removed by RemoveStalePartials.
type StalePartial struct {
	Name string // base name
	Size int64  // bytes
}

// RemoveStalePartials deletes the partial files in dir that trackink wrote and whose
// writer is gone (see the package's Output files: the mark, this host, a dead PID, a free
// lock), and the partial directories of picture sequences so marked and locked, with what
// they hold, and returns what it removed. Anything else is left alone.
func RemoveStalePartials(dir string) ([]StalePartial, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("looking for partial files: %w", err)
	}
	host, _ := os.Hostname()
	var removed []StalePartial
	for _, e := range entries {
		if !e.Type().IsRegular() && !e.IsDir() || !partialName.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if size, ok := removeIfStale(path, host); ok {
			removed = append(removed, StalePartial{Name: e.Name(), Size: size})
		}
	}
	return removed, nil
}

// removeIfStale deletes path if it is a partial file or directory of ours whose writer is
// gone, and says so, with the bytes it held.
func removeIfStale(path, host string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	gone, unmarked := writerGone(int(f.Fd()), host)
	if !gone && !unmarked {
		return 0, false
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return 0, false // its writer is alive
	}
	if unmarked {
		return 0, removeUnmarkedDir(f, path)
	}
	// Still the file we locked? (Its writer may have renamed it into place meanwhile.)
	held, err1 := f.Stat()
	named, err2 := os.Lstat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) {
		return 0, false
	}
	if !held.IsDir() {
		return held.Size(), os.Remove(path) == nil
	}
	var size int64
	entries, _ := f.ReadDir(-1)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			size += info.Size()
		}
	}
	return size, os.RemoveAll(path) == nil
}

// writerGone reads the mark of the open file fd: gone when it is trackink's, names host
// and a process that no longer exists; unmarked when the file system keeps marks and fd
// has none.
func writerGone(fd int, host string) (gone, unmarked bool) {
	buf := make([]byte, 512)
	n, err := unix.Fgetxattr(fd, partialMark, buf)
	if err != nil {
		return false, errors.Is(err, unix.ENODATA) // not ours (or unreadable): never removed
	}
	markHost, pidText, ok := strings.Cut(string(buf[:n]), " ")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 || markHost != host {
		return false, false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || exited(pid), false
}

// exited reports whether process pid has exited and waits for its parent to reap it (a
// zombie): kill(pid, 0) still finds it, and in a container whose first process reaps
// nothing it stays so, its partial files never swept.
func exited(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state …: the command may hold spaces and parentheses, the state follows
	// the last ")".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	state := b[i+2]
	return state == 'Z' || state == 'X'
}

// unmarkedDirAge is how long an unmarked partial directory must have stood before the sweep
// takes it: its maker marks it within microseconds of making it.
const unmarkedDirAge = time.Minute

// removeUnmarkedDir removes the unmarked directory f, at path, when it is empty and older than
// unmarkedDirAge: what a run killed between making a picture sequence's partial directory and
// marking it leaves (a directory cannot be made unnamed, as a partial file is). Nothing is
// written in it before the mark, and rmdir takes only an empty directory, so no one's files
// are lost; a file of that name, or a directory holding anything, is left alone.
func removeUnmarkedDir(f *os.File, path string) bool {
	held, err := f.Stat()
	if err != nil || !held.IsDir() || time.Since(held.ModTime()) < unmarkedDirAge {
		return false
	}
	if names, err := f.Readdirnames(1); len(names) > 0 || !errors.Is(err, io.EOF) {
		return false
	}
	named, err := os.Lstat(path)
	return err == nil && os.SameFile(held, named) && syscall.Rmdir(path) == nil
}
