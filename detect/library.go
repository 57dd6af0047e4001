package detect

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// elfTarget is what an ELF file's header says it runs on.
type elfTarget struct {
	machine elf.Machine
	class   elf.Class
	data    elf.Data
}

// elfTargets are the ELF targets of the architectures Go builds trackink for on Linux: a
// library for another cannot be loaded here.
var elfTargets = map[string]elfTarget{
	"amd64":   {elf.EM_X86_64, elf.ELFCLASS64, elf.ELFDATA2LSB},
	"arm64":   {elf.EM_AARCH64, elf.ELFCLASS64, elf.ELFDATA2LSB},
	"386":     {elf.EM_386, elf.ELFCLASS32, elf.ELFDATA2LSB},
	"arm":     {elf.EM_ARM, elf.ELFCLASS32, elf.ELFDATA2LSB},
	"riscv64": {elf.EM_RISCV, elf.ELFCLASS64, elf.ELFDATA2LSB},
	"ppc64le": {elf.EM_PPC64, elf.ELFCLASS64, elf.ELFDATA2LSB},
	"s390x":   {elf.EM_S390, elf.ELFCLASS64, elf.ELFDATA2MSB},
	"loong64": {elf.EM_LOONGARCH, elf.ELFCLASS64, elf.ELFDATA2LSB},
}

// checkLibrary refuses a file that is not a shared library dlopen can load on this machine:
// not an ELF file, an ELF file of another class, byte order or architecture, one that is
// not a shared object, and above all one whose program or section headers place any of it
// past the file's end: a truncated library (a download or a copy cut short). dlopen maps
// each loadable segment from the file as its program header places it, and the first touch
// of a page past the file's end is a SIGBUS: the process died in dlopen with a Go crash
// dump (exit 2) instead of failing with a message. Only the headers are read.
func checkLibrary(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return errors.Unwrap(err) // the path is in the message already
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errors.Unwrap(err)
	}
	size := st.Size()
	magic := make([]byte, len(elf.ELFMAG))
	if n, _ := f.ReadAt(magic, 0); n < len(magic) || !bytes.Equal(magic, []byte(elf.ELFMAG)) {
		return fmt.Errorf("not a shared library (not an ELF file; %d bytes)", size)
	}
	ef, err := elf.NewFile(f)
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated: its ELF headers describe more than its %d bytes (a download or copy cut short?)", size)
	case err != nil:
		return fmt.Errorf("not a shared library that can be loaded (%v)", err)
	}
	want, known := elfTargets[runtime.GOARCH]
	switch {
	case known && (elfTarget{ef.Machine, ef.Class, ef.Data}) != want:
		return fmt.Errorf("a library for %s (%s, %s), not for this machine (%s)", ef.Machine, ef.Class, ef.Data, runtime.GOARCH)
	case ef.Type != elf.ET_DYN:
		return fmt.Errorf("an ELF file of type %s, not a shared library (%s)", ef.Type, elf.ET_DYN)
	}
	loads := 0
	for _, p := range ef.Progs {
		if p.Type == elf.PT_LOAD {
			loads++
		}
		if end, ok := within(p.Off, p.Filesz, size); !ok {
			return fmt.Errorf("truncated: its program headers place a segment up to byte %d, past its end (%d bytes; a download or copy cut short?)", end, size)
		}
	}
	if loads == 0 {
		return errors.New("not a shared library that can be loaded (no loadable segment)")
	}
	for _, s := range ef.Sections {
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		if end, ok := within(s.Offset, s.FileSize, size); !ok {
			return fmt.Errorf("truncated: its section %s runs up to byte %d, past its end (%d bytes; a download or copy cut short?)", s.Name, end, size)
		}
	}
	return nil
}

// within reports whether n bytes from off lie within a file of size bytes, and where they
// end (the largest uint64 where that overflows).
func within(off, n uint64, size int64) (end uint64, ok bool) {
	end = off + n
	if end < off {
		return ^uint64(0), false
	}
	return end, end <= uint64(size)
}

// runtimeEntry is the one function ONNX Runtime's library is entered by: dlsym looks it up
// once the library is loaded.
const runtimeEntry = "OrtGetApiBase"

// checkRuntimeLibrary refuses a whole shared library (checkLibrary's) that is not ONNX
// Runtime's before dlopen loads it, which would run its initialisers in this process: a
// program (a position-independent executable is an ELF shared object too, and dlopen
// refuses it only after mapping it), or a library that defines no OrtGetApiBase (libz
// was loaded, and the runtime's lookup then failed with an empty reason, its dlclose having
// cleared dlerror). A library whose dynamic symbols cannot be read (no section headers) is
// left to dlopen and runtimeLoadError.
func checkRuntimeLibrary(path string) error {
	ef, err := elf.Open(path)
	if err != nil {
		return nil // checkLibrary took it; dlopen will say
	}
	defer ef.Close()
	if flags, err := ef.DynValue(elf.DT_FLAGS_1); err == nil && slices.ContainsFunc(flags, func(f uint64) bool { return f&uint64(elf.DF_1_PIE) != 0 }) {
		return errors.New("a program (a position-independent executable), not ONNX Runtime's library")
	}
	syms, err := ef.DynamicSymbols()
	if err != nil {
		return nil
	}
	for _, s := range syms {
		if s.Name == runtimeEntry && s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			return nil
		}
	}
	return fmt.Errorf("a shared library, but not ONNX Runtime's: it defines no %s", runtimeEntry)
}

// runtimeLoadError is the error of loading the runtime library at lib, made to say what is
// wrong where onnxruntime_go's does not: its failed lookup of OrtGetApiBase gives an empty
// reason ("Error looking up OrtGetApiBase in …: ").
func runtimeLoadError(lib string, err error) error {
	if strings.Contains(err.Error(), "looking up "+runtimeEntry) {
		return fmt.Errorf("detect: ONNX Runtime %s: loaded, but not ONNX Runtime's library: it has no %s; get %s", lib, runtimeEntry, runtimeSource)
	}
	return fmt.Errorf("detect: ONNX Runtime %s: %w", lib, err)
}
