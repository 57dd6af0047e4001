// Package kernels is trackink's GPU path: the CUDA C kernels (*.cu), the host code that
// drives them (GPU, written once against the narrow Device interface), and two devices
// behind that interface: the CUDA driver through gorgonia.org/cu (cuda.go, build tag cuda,
// plus a little cgo of its own for stream capture and graph launch) and an emulated device
// that runs the same kernel sources on the CPU (emu.cc, every build).
//
// Why an emulated device: the development and CI machines have no GPU, and "it compiled
// with nvcc" proves nothing about a picture. The emulated device compiles the very same
// .cu files as C++ (cuda_compat.h) and runs every block and thread of each launch, so the
// kernels' arithmetic, indexing and the host code's buffers, parameter blocks, launch order
// and graph capture/replay run in every `go test`, against the CPU renderer (the
// reference) and the golden pictures, and under AddressSanitizer and UBSan.
//
// The kernels mirror render's stages by name (bin, boxes, lines, curves, labels, composite)
// and compute coverage with the same float32 operations in the same order as packages
// sdf, curves and render, so the emulated device matches the CPU's coverage bit for bit.
// The layer between stages is FP16 premultiplied RGBA; that rounding is the only
// difference from the CPU and bounds the tolerance (EmuTolerance in the tests: 1 code value).
//
// The emulation's limits: threads of a block run one after another, which is a valid
// schedule only because no kernel uses __syncthreads, shared memory or warp intrinsics
// (kernels that need them would need a fiber-per-thread launcher); it says nothing about
// speed, occupancy, coalescing or races the hardware's memory model would expose. Rounding
// is not among the limits: both compilers are told not to contract multiply-adds (the pragma
// in emu.cc, nvcc -fmad=false in build.sh) and the kernels use only IEEE-exact operations,
// so the GPU computes the emulation's bits. The CUDA device's own code (cuda.go) runs in a
// cuda build, on a GPU or against the fake driver library in fakedriver/ (make cuda-fake),
// which implements the driver calls on the CPU and is as strict as the driver about
// contexts, memory, launches, capture and stream order.
//
// Probe reports, without linking libcuda, whether a driver and devices are present and
// whether this binary has the CUDA backend (CUDABuilt).
package kernels
