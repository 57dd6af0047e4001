package outfile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// PartialDir is a set of files being written together (a numbered picture sequence): they
// are made in a hidden partial directory beside their final names, .BASE.<n>.partial (BASE
// shortened as a partial file's name is, near the 255-byte limit), and
// Commit moves them into place, so that the set appears whole or not at all. The directory
// is marked and locked as a partial file is, so that a later run's sweep
// (RemoveStalePartials) removes it, with what it holds, once its writer is gone.
type PartialDir struct {
	Dir  string   // the partial directory
	lock *os.File // the directory, open and locked while it is written
}

// CreatePartialDir creates the partial directory of files named after base in dir.
func CreatePartialDir(dir, base string) (*PartialDir, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("output directory %s does not exist", dir)
	}
	partial, err := os.MkdirTemp(dir, partialPattern(base, "")) // shortened as a file's, near 255 bytes
	if err != nil {
		return nil, fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	lock, err := os.Open(partial)
	if err == nil {
		if err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		os.RemoveAll(partial)
		return nil, fmt.Errorf("locking %s: %w", partial, err)
	}
	// Unmarked (no user extended attributes), it is written all the same, and never swept.
	_ = unix.Fsetxattr(int(lock.Fd()), partialMark, partialMarkValue(), 0)
	return &PartialDir{Dir: partial, lock: lock}, nil
}

// Commit moves each file of the partial directory, named by its base name, to its final
// path (from → to), in order, each synced first. Without overwrite each is linked into
// place, and if one exists already those placed are taken back and the error wraps
// ErrExists; with overwrite each is renamed over its old one. The final directories are
// synced last.
func (p *PartialDir) Commit(files [][2]string, overwrite bool) error {
	var placed []string
	dirs := map[string]bool{}
	mask := umask()
	for _, f := range files {
		from, to := filepath.Join(p.Dir, f[0]), f[1]
		err := os.Chmod(from, outputMode(to, mask))
		if err == nil {
			err = syncPath(from)
		}
		if err == nil {
			err = place(from, to, overwrite)
		}
		if err != nil {
			for _, q := range placed {
				os.Remove(q)
			}
			return err
		}
		if !overwrite {
			placed = append(placed, to)
		}
		dirs[filepath.Dir(to)] = true
	}
	if err := syncDirs(dirs); err != nil {
		return fmt.Errorf("%w (the files are in place)", err)
	}
	return nil
}

// Discard removes the partial directory with what it holds (after a Commit, nothing), and
// releases it.
func (p *PartialDir) Discard() {
	os.RemoveAll(p.Dir)
	p.lock.Close()
}

// syncPath makes a written file's data durable before it gets its final name.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return syncFile(f)
}
