package cli

import (
	"bytes"
	"debug/elf"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/detect"
)

// TestDoctorWords: doctor says what the machine has in words; FFmpeg's configure line and
// CUDA's result codes come only with -v.
func TestDoctorWords(t *testing.T) {
	code, plain, _ := trackink("doctor")
	if code != 0 {
		t.Fatalf("doctor: exit %d", code)
	}
	for _, not := range []string{"FFmpeg configuration", "cuInit", "CUresult"} {
		if strings.Contains(plain, not) {
			t.Errorf("doctor says %q without -v:\n%s", not, plain)
		}
	}
	if !strings.Contains(plain, "\nCUDA driver: ") {
		t.Errorf("doctor does not say which CUDA driver:\n%s", plain)
	}
	code, verbose, _ := trackink("doctor", "-v")
	if code != 0 || !strings.Contains(verbose, "\nFFmpeg configuration: ") {
		t.Errorf("doctor -v: exit %d, no FFmpeg configuration:\n%s", code, verbose)
	}
}

// TestDoctorDetector: doctor says where the detector's runtime and model are, as --detect
// people finds them, whether the model is the export trackink is tested with, and whether
// --detect people can run; where one is missing, where it looked (exit 0: the other modes
// need neither). Where files are found it loads them and runs the network: a model or a
// runtime library that --detect people cannot use is "no", saying what is wrong, exit 1. It
// said "yes", exit 0, for a model of six bytes of text, /bin/ls or libz as the runtime.
func TestDoctorDetector(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text.onnx")
	must(t, os.WriteFile(text, []byte("hello\n"), 0o644))
	t.Setenv(detect.RuntimeEnv, "")
	absent := filepath.Join(dir, "absent.onnx")
	t.Setenv(detect.ModelEnv, absent)
	code, out, _ := trackink("doctor")
	for _, s := range []string{"Detector model: none: model ", "(from $" + detect.ModelEnv + ")", "--detect people, objects: no"} {
		if code != 0 || !strings.Contains(out, s) {
			t.Errorf("model %s: exit %d, want 0 and %q in:\n%s", absent, code, s, out)
		}
	}
	if _, err := os.Stat(sharedModel); err != nil {
		t.Skipf("the model is not beside the repository (%v): the rest unchecked", err)
	}
	if _, err := detect.LocateRuntime(""); err != nil {
		t.Skipf("no ONNX Runtime here (%v): the rest unchecked", err)
	}
	good, err := os.ReadFile(sharedModel)
	must(t, err)
	// The model with a field protobuf skips (number 1000, varint 1) after it: another
	// sha256, and a model the runtime loads.
	other := filepath.Join(dir, "other.onnx")
	must(t, os.WriteFile(other, append(bytes.Clone(good), 0xc0, 0x3e, 1), 0o644))
	type row struct {
		name, model, runtime string
		code                 int
		says                 []string
	}
	rows := []row{
		{"the model", sharedModel, "", 0, []string{"(YOLOX-Nano, the export trackink is tested with)", "--detect people, objects: yes"}},
		{"another model", other, "", 0, []string{"Detector model: " + other + " (sha256 ", "not the YOLOX-Nano export", "--detect people, objects: yes"}},
		{"six bytes of text", text, "", 1, []string{"--detect people, objects: no: model " + text + ": ONNX Runtime cannot load it as a model", "protobuf parsing failed"}},
	}
	if loader := interpreter(t); loader != "" {
		rows = append(rows, row{"a library, not the runtime", sharedModel, loader, 1,
			[]string{"ONNX Runtime (the detector's): " + loader, "--detect people, objects: no: ONNX Runtime " + loader + ": a shared library, but not ONNX Runtime's: it defines no OrtGetApiBase"}})
	}
	if isPIE("/bin/ls") {
		rows = append(rows, row{"a program", sharedModel, "/bin/ls", 1,
			[]string{"--detect people, objects: no: ONNX Runtime /bin/ls: a program (a position-independent executable), not ONNX Runtime's library"}})
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(detect.ModelEnv, tc.model)
			t.Setenv(detect.RuntimeEnv, tc.runtime)
			code, out, stderr := trackink("doctor")
			for _, s := range tc.says {
				if code != tc.code || !strings.Contains(out, s) {
					t.Errorf("exit %d, want %d and %q in:\n%s", code, tc.code, s, out)
				}
			}
			if tc.code != 0 && !strings.Contains(stderr, "--detect people and objects cannot run") {
				t.Errorf("exit %d; stderr %q does not say why", code, stderr)
			}
		})
	}
}

// interpreter is the dynamic loader the test binary names (ld-linux-*.so), a shared library
// that is not ONNX Runtime's; "" where it names none.
func interpreter(t *testing.T) string {
	exe, err := os.Executable()
	must(t, err)
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			name, err := io.ReadAll(p.Open())
			must(t, err)
			return string(bytes.TrimRight(name, "\x00"))
		}
	}
	return ""
}

// isPIE reports whether path is a position-independent executable.
func isPIE(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	flags, err := f.DynValue(elf.DT_FLAGS_1)
	return err == nil && len(flags) > 0 && flags[0]&uint64(elf.DF_1_PIE) != 0
}
