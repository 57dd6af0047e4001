package kernels

import "embed"

// sources holds the kernel sources. kernels/device's emulated device compiles them through
// cgo (device/emu.cc includes all.cu), but the go command hashes only the C and C++ files
// and headers in a cgo package's own directory to decide whether to rebuild it: an edited .cu
// file here would leave the emulated device running stale kernels from the build cache.
// Embedding them makes them inputs of this package, and every package that imports it
// (kernels/device, kernels/internal/clayout) is rebuilt when they change.
//
//lint:ignore U1000 embedded for the go command's hashing, above, not read
//go:embed *.cu *.cuh *.h
var sources embed.FS
