package detect

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// dynamicLoader is the bytes of a shared library of this machine's, whatever it has
// installed: the dynamic loader the test binary names (its PT_INTERP, ld-linux-*.so), an
// ELF shared object like libonnxruntime.so.1. Skipped where the binary has none, or it is
// not a 64-bit ELF file (the cases below patch ELF64 headers).
func dynamicLoader(t *testing.T) []byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		name, err := io.ReadAll(p.Open())
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(string(bytes.TrimRight(name, "\x00")))
		if err != nil {
			t.Skip(err)
		}
		if len(b) < 64 || elf.Class(b[elf.EI_CLASS]) != elf.ELFCLASS64 || elf.Data(b[elf.EI_DATA]) != elf.ELFDATA2LSB {
			t.Skip("the dynamic loader is not a little-endian ELF64 file")
		}
		return b
	}
	t.Skip("the test binary names no dynamic loader")
	return nil
}

// ELF64's header fields the cases patch: their offsets in the file header, and sh_offset's
// in a section header.
const (
	elfType     = 0x10
	elfMachine  = 0x12
	elfShoff    = 0x28
	elfShnum    = 0x3c
	elfShstrndx = 0x3e
	shOffset    = 0x18
)

// A runtime library that dlopen cannot load whole is refused before dlopen sees it, with a
// message naming the file, what is wrong and where to get a good copy: a truncated one
// crashed the process with SIGBUS inside dlopen (exit 2 and a Go crash dump). A whole
// shared library of this machine is taken.
func TestLocateRuntimeRefusesBadLibraries(t *testing.T) {
	lib := dynamicLoader(t)
	le := binary.LittleEndian
	other := elf.EM_AARCH64
	if runtime.GOARCH == "arm64" {
		other = elf.EM_X86_64
	}
	for _, tc := range []struct {
		name string
		file func() []byte
		want string // "" for taken
	}{
		{"a whole shared library", func() []byte { return lib }, ""},
		{"empty", func() []byte { return nil }, "not a shared library (not an ELF file; 0 bytes)"},
		{"text", func() []byte { return []byte("not a library\n") }, "not a shared library (not an ELF file"},
		{"the ELF header alone", func() []byte { return lib[:64] }, "truncated: its ELF headers"},
		{"half", func() []byte { return lib[:len(lib)/2] }, "truncated"},
		{"a byte short", func() []byte { return lib[:len(lib)-1] }, "truncated"},
		{"half, without section headers", func() []byte {
			b := bytes.Clone(lib[:len(lib)/2])
			le.PutUint64(b[elfShoff:], 0)
			le.PutUint16(b[elfShnum:], 0)
			le.PutUint16(b[elfShstrndx:], 0)
			return b
		}, "truncated: its program headers place a segment up to byte"},
		{"a section past the end", func() []byte {
			b := bytes.Clone(lib)
			f, err := elf.NewFile(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range f.Sections {
				if s.Type == elf.SHT_PROGBITS && s.Size > 0 && uint16(i) != le.Uint16(b[elfShstrndx:]) {
					le.PutUint64(b[le.Uint64(b[elfShoff:])+uint64(i)*64+shOffset:], uint64(len(b)))
					return b
				}
			}
			t.Fatal("no section to move")
			return nil
		}, "truncated: its section"},
		{"another architecture", func() []byte {
			b := bytes.Clone(lib)
			le.PutUint16(b[elfMachine:], uint16(other))
			return b
		}, "a library for " + other.String()},
		{"an executable", func() []byte {
			b := bytes.Clone(lib)
			le.PutUint16(b[elfType:], uint16(elf.ET_EXEC))
			return b
		}, "an ELF file of type ET_EXEC, not a shared library"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), RuntimeFile)
			if err := os.WriteFile(path, tc.file(), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv(RuntimeEnv, path)
			got, err := LocateRuntime("")
			if tc.want == "" {
				if err != nil || got != path {
					t.Fatalf("%q, %v; want %s taken", got, err, path)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s taken", got)
			}
			for _, want := range []string{path + " (from $" + RuntimeEnv + "): " + tc.want, "get a good copy from", "onnxruntime"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// New refuses a truncated runtime library with LocateRuntime's message, without loading
// it: the process lives to say so.
func TestNewRefusesTruncatedRuntime(t *testing.T) {
	lib := dynamicLoader(t)
	dir := t.TempDir()
	model, cut := filepath.Join(dir, ModelFile), filepath.Join(dir, RuntimeFile)
	if err := os.WriteFile(model, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, lib[:len(lib)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Model, o.Runtime = model, cut
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), cut+": truncated") {
		t.Fatalf("New with a truncated runtime library: %v", err)
	}
}

// A relative runtime path is the file it names in the working directory, however it is
// spelled, and LocateRuntime returns it absolute: dlopen took a name without a slash
// (TRACKINK_ONNXRUNTIME=libort.so) for a library to search the library path for, and
// failed with "cannot open shared object file" on the file LocateRuntime had found.
func TestLocateRuntimeRelative(t *testing.T) {
	lib := dynamicLoader(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "libort.so"), lib, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(filepath.Join(dir, "libort.so"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		name, given, env string
	}{
		{"given, no slash", "libort.so", ""},
		{"from the environment, no slash", "", "libort.so"},
		{"from the environment, ./", "", "./libort.so"},
		{"from the environment, through a directory", "", "sub/../libort.so"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(RuntimeEnv, tc.env)
			got, err := LocateRuntime(tc.given)
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(got)
			if !filepath.IsAbs(got) || err != nil || !os.SameFile(st, want) {
				t.Errorf("%q (%v); want the absolute path of %s", got, err, filepath.Join(dir, "libort.so"))
			}
		})
	}
}

// A file that is no ONNX Runtime library is refused before dlopen loads it, saying what it
// is: a program (/bin/ls: dlopen said "cannot dynamically load position-independent
// executable") or another library (libz: the runtime's lookup of OrtGetApiBase failed
// with an empty reason). Where dlopen is reached all the same, that lookup's failure says
// what it means.
func TestRuntimeLibraryIsTheRuntime(t *testing.T) {
	dir := t.TempDir()
	loader := filepath.Join(dir, "ld.so")
	if err := os.WriteFile(loader, dynamicLoader(t), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, path, want string }{
		{"another library", loader, "a shared library, but not ONNX Runtime's: it defines no OrtGetApiBase"},
	}
	if f, err := elf.Open("/bin/ls"); err == nil {
		flags, _ := f.DynValue(elf.DT_FLAGS_1)
		f.Close()
		if len(flags) > 0 && flags[0]&uint64(elf.DF_1_PIE) != 0 {
			cases = append(cases, struct{ name, path, want string }{"a program", "/bin/ls", "a program (a position-independent executable), not ONNX Runtime's library"})
		}
	}
	if lib, err := LocateRuntime(""); err == nil {
		cases = append(cases, struct{ name, path, want string }{"the runtime", lib, ""})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := checkRuntimeLibrary(tc.path)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("%s refused: %v", tc.path, err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("%s: %v, want %q", tc.path, err, tc.want)
			}
		})
	}
	// onnxruntime_go's message when dlsym finds no OrtGetApiBase, its reason lost.
	err := runtimeLoadError("/lib/libz.so.1", errors.New(`Error looking up OrtGetApiBase in "/lib/libz.so.1": `))
	for _, want := range []string{"detect: ONNX Runtime /lib/libz.so.1: loaded, but not ONNX Runtime's library: it has no OrtGetApiBase", "get ONNX Runtime 1.24"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	other := errors.New("some other failure")
	if err := runtimeLoadError("/x.so", other); !errors.Is(err, other) || !strings.Contains(err.Error(), "/x.so") {
		t.Errorf("another error: %v", err)
	}
}
