package detect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The files' names, and the environment variables that name them.
const (
	ModelFile   = "yolox_nano.onnx"
	RuntimeFile = "libonnxruntime.so.1"
	ModelEnv    = "TRACKINK_MODEL"
	RuntimeEnv  = "TRACKINK_ONNXRUNTIME"
)

// Where to get the files, for the error that says they are missing.
const (
	modelSource = "YOLOX's releases (github.com/Megvii-BaseDetection/YOLOX, yolox_nano.onnx, sha256 " + ModelSHA256 + ")"
	// The npm package ships the library for linux x64 and arm64 (CPU only).
	runtimeSource = "ONNX Runtime 1.24 or newer: npm's onnxruntime-node package (bin/napi-v6/linux/<arch>/libonnxruntime.so.1) or github.com/microsoft/onnxruntime's releases"
)

// LocateModel returns the model's path: path itself when given (it must exist), else the
// first of $TRACKINK_MODEL, models/yolox_nano.onnx beside the executable (the tarball's and
// make build's layout) and in the user's data directory that holds the file. The file
// found must be no larger than a model can be (CheckModelSize).
func LocateModel(path string) (string, error) {
	return locate("model", path, ModelEnv, "models", ModelFile, nil, modelSource, CheckModelSize)
}

// MaxModelSize is the largest model file read, in bytes: protobuf's limit on a serialised
// message (2 GiB less a byte), which an ONNX model, one ModelProto, cannot pass. (Larger
// networks keep their weights in external data files, which trackink does not read.)
const MaxModelSize = 1<<31 - 1

// CheckModelSize refuses a model file larger than MaxModelSize before it is read: it cannot
// be a model, and New reads the file whole (a 4 GB file took a 4.3 GB allocation before it
// was found wanting).
func CheckModelSize(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return errors.Unwrap(err) // the path is in the message already
	}
	return checkModelSize(st.Size())
}

// checkModelSize refuses a model file of size bytes larger than MaxModelSize.
func checkModelSize(size int64) error {
	if size > MaxModelSize {
		return fmt.Errorf("%d bytes (%.1f GiB): larger than an ONNX model can be (2 GiB, protobuf's limit on a message), so not a model", size, float64(size)/(1<<30))
	}
	return nil
}

// LocateRuntime returns ONNX Runtime's shared library: path itself when given, else the first
// of $TRACKINK_ONNXRUNTIME, lib/libonnxruntime.so.1 beside the executable and in the user's
// data directory, and the system's library directories that holds the file. The file found
// must be a whole shared library for this machine (checkLibrary): dlopen crashes the
// process on a truncated one.
//
// The path returned is absolute: a relative one is taken from the working directory, as
// it was checked. dlopen reads a name with no slash in it (libort.so) as a library to search
// the library path for, not as a file: the file found here was then "not found".
func LocateRuntime(path string) (string, error) {
	system := []string{"/usr/local/lib", "/usr/lib/" + multiarch(), "/usr/lib"}
	lib, err := locate("ONNX Runtime library", path, RuntimeEnv, "lib", RuntimeFile, system, runtimeSource, checkLibrary)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(lib)
	if err != nil {
		return "", fmt.Errorf("ONNX Runtime library %s: %w", lib, err)
	}
	return abs, nil
}

// locate finds a file: the one given, the one the environment names, name under sub beside
// the executable and in the data directory, then in the extra directories. check, when not
// nil, is asked about the file found: a file it refuses is an error naming the file and
// where to get a good one, not a reason to look further.
func locate(what, given, env, sub, name string, extra []string, source string, check func(string) error) (string, error) {
	// usable checks that the file p is one to use; where is " (from $VAR)" when the
	// environment named it, else "".
	usable := func(p, where string) error {
		if err := isFile(p); err != nil {
			return fmt.Errorf("%s %s%s: %w (get it from %s)", what, p, where, err, source)
		}
		if check == nil {
			return nil
		}
		if err := check(p); err != nil {
			return fmt.Errorf("%s %s%s: %w; get a good copy from %s", what, p, where, err, source)
		}
		return nil
	}
	if given != "" {
		if err := usable(given, ""); err != nil {
			return "", err
		}
		return given, nil
	}
	if p := os.Getenv(env); p != "" {
		if err := usable(p, " (from $"+env+")"); err != nil {
			return "", err
		}
		return p, nil
	}
	var looked []string
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Join(filepath.Dir(exe), sub))
		}
	}
	if d := dataDir(); d != "" {
		dirs = append(dirs, filepath.Join(d, sub))
	}
	dirs = append(dirs, extra...)
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if isFile(p) == nil {
			if err := usable(p, ""); err != nil {
				return "", err
			}
			return p, nil
		}
		looked = append(looked, p)
	}
	return "", fmt.Errorf("no %s: looked for $%s, then %s; get %s from %s and put it in one of those places, or name it with $%s",
		what, env, strings.Join(looked, ", "), name, source, env)
}

func isFile(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return errors.Unwrap(err) // the path is in the message already
	}
	if !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	return nil
}

// dataDir is trackink's directory in the user's data directory: $XDG_DATA_HOME/trackink, or
// ~/.local/share/trackink.
func dataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "trackink")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "trackink")
	}
	return ""
}

// multiarch is Debian's library directory name for this architecture.
func multiarch() string {
	if runtime.GOARCH == "arm64" {
		return "aarch64-linux-gnu"
	}
	return "x86_64-linux-gnu"
}
