package detect

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
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
