package video

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
)

// Output files. Transcode (and the command line's picture writer) write to a hidden partial
// file beside the target, .NAME.<n>.partial.EXT, and move it into place when it is complete.
// The writer holds an exclusive flock on the partial file for as long as it lives; the
// kernel drops the lock when the process ends, however it ends, so a partial file nobody
// holds locked was left by a writer that was killed (SIGKILL, a crash, the machine going
// down) and RemoveStalePartials may delete it.

// CheckOutput checks before any work that output can be written for input and returns the
// path to write: output itself, or, when output is a symbolic link, the file it points to
// (the link is written through and stays a link). It refuses an output that is the input
// (the same file by device and inode: a hard link, a symbolic link, another spelling of the
// path) with ErrOutputIsInput whatever overwrite says, an existing output without overwrite
// (ErrOutputExists), a directory, a link to nothing, and a directory that does not exist.
func CheckOutput(input, output string, overwrite bool) (string, error) {
	if output == "" {
		return "", errors.New("no output file given")
	}
	target := output
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
			return "", fmt.Errorf("%w: %s is %s", ErrOutputIsInput, output, input)
		}
		if !overwrite {
			return "", fmt.Errorf("%w: %s", ErrOutputExists, output)
		}
	}
	if st, err := os.Stat(filepath.Dir(target)); err != nil || !st.IsDir() {
		return "", fmt.Errorf("output directory %s does not exist", filepath.Dir(target))
	}
	return target, nil
}

// PartialFile is an output being written: the open, locked partial file beside the final
// name. Write to it (it is an *os.File) or open its Name() again; then Commit or Discard.
type PartialFile struct {
	*os.File
	final string
}

// partialName matches the names CreatePartial gives: .NAME.<n>.partial or .NAME.<n>.partial.EXT.
var partialName = regexp.MustCompile(`^\..+\.[0-9]+\.partial(\.[^.]+)?$`)

// CreatePartial creates and locks the partial file for final.
func CreatePartial(final string) (*PartialFile, error) {
	dir, base := filepath.Split(final)
	if dir == "" {
		dir = "."
	}
	for range 3 {
		f, err := os.CreateTemp(dir, "."+base+".*.partial"+filepath.Ext(final))
		if err != nil {
			return nil, fmt.Errorf("output directory %s is not writable: %w", dir, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
		}
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

// Commit moves the complete file into place. Without overwrite it links rather than
// renames, so an output that appeared meanwhile is not replaced (ErrOutputExists); the
// partial file then stays for Discard.
func (p *PartialFile) Commit(overwrite bool) error {
	if err := p.Chmod(0o644); err != nil {
		return fmt.Errorf("output %s: %w", p.final, err)
	}
	if overwrite {
		if err := os.Rename(p.Name(), p.final); err != nil {
			return fmt.Errorf("moving the output into place: %w", err)
		}
	} else {
		if err := os.Link(p.Name(), p.final); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%w: %s", ErrOutputExists, p.final)
			}
			return fmt.Errorf("moving the output into place: %w", err)
		}
		os.Remove(p.Name())
	}
	return p.Close() // releases the lock, now that the partial name is gone
}

// Discard deletes the partial file and releases it. It does nothing after a Commit.
func (p *PartialFile) Discard() {
	if p.Close() == nil {
		os.Remove(p.Name())
	}
}

// StalePartial is a partial file whose writer was gone, removed by RemoveStalePartials.
type StalePartial struct {
	Name string // base name
	Size int64  // bytes
}

// RemoveStalePartials deletes the partial files in dir that no living writer holds (see
// CreatePartial) and returns what it removed. Files it cannot open or lock are left alone.
func RemoveStalePartials(dir string) ([]StalePartial, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("looking for partial files: %w", err)
	}
	var removed []StalePartial
	for _, e := range entries {
		if !e.Type().IsRegular() || !partialName.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if st, ok := removeIfUnlocked(path); ok {
			removed = append(removed, StalePartial{Name: e.Name(), Size: st.Size()})
		}
	}
	return removed, nil
}

// removeIfUnlocked deletes path if no process holds a lock on it, and says so.
func removeIfUnlocked(path string) (fs.FileInfo, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil, false // its writer is alive
	}
	// Still the file we locked? (Its writer may have renamed it into place meanwhile.)
	held, err1 := f.Stat()
	named, err2 := os.Lstat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) || os.Remove(path) != nil {
		return nil, false
	}
	return held, true
}
