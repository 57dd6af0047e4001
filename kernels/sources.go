package kernels

import "embed"

// sources holds the kernel sources. emu.cc includes them, but the go command hashes only the
// C and C++ files and headers it knows (.c, .cc, .h, ...) to decide whether to rebuild a
// cgo package: without this embed an edited .cu or .cuh file would leave the emulated
// device running stale kernels from the build cache. Embedding makes them inputs of the
// package's build.
//
//go:embed *.cu *.cuh
var sources embed.FS

// Sources returns the kernels' CUDA C sources (all.cu includes the others), for reports
// and for runtime compilation where nvcc was not available at build time.
func Sources() embed.FS { return sources }
