package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutput refuses an existing output without overwrite, and a directory that does not
// exist, before any work is done.
func checkOutput(path string, overwrite bool) error {
	if path == "" {
		return usageError{errors.New("no output: give -o FILE")}
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("output %s is a directory", path)
		}
		if !overwrite {
			return fmt.Errorf("output %s exists (use -y to overwrite it)", path)
		}
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("output directory %s does not exist", dir)
	}
	return nil
}

// writeAtomic writes a file through a temporary file in the same directory, renamed into
// place only when write succeeded, so a failure never leaves a partial file. Without
// overwrite, an output that appeared meanwhile is not replaced.
func writeAtomic(path string, overwrite bool, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if overwrite {
		return os.Rename(tmp.Name(), path)
	}
	// A hard link fails if the name exists: no output is ever replaced without -y.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("output %s exists (use -y to overwrite it)", path)
		}
		return fmt.Errorf("output %s: %w", path, err)
	}
	return os.Remove(tmp.Name())
}
