// Package kernels holds trackink's CUDA kernels: the C sources (*.cu, *.cuh) of the GPU
// backend's stages, layout.h (the records and parameter block the host and the kernels
// share), cuda_compat.h (which lets the same sources compile as C++ for the emulated
// device), and build.sh, which compiles them with nvcc into kernels.fatbin (cubins for
// sm_75 to sm_90 and compute_90 PTX; generated, not in git).
//
// The kernels mirror package render's stages file for file (bin.cu and render/bin.go,
// boxes.cu and render/boxes.go, ...; composite.cu and package composite), and
// geometry.cuh mirrors packages sdf and curves function for function, with the same
// float32 operations in the same order, so the CPU, the emulated device and a GPU compute
// the same coverage bit for bit. The layer between stages is FP16 premultiplied RGBA; that
// rounding is the only difference from the CPU (1 code value; kernels/gpu's tests), and
// through the echo trails' 8-bit kept layers (echo.cu), where it can put a value on the
// other side of a kept step, one step more (4 code values on a 10-bit frame).
//
// The rest of the GPU path lives in the subpackages, one job each:
//   - kernels/device: the Device interface (memory, copies, launches by name, graph
//     capture, events) and its implementations: the emulated device, which runs these
//     sources on the CPU in every build; the CUDA driver through gorgonia.org/cu (build
//     tag cuda); and Probe, which looks for a driver with dlopen. testdata/fakecuda is a
//     stand-in libcuda.so.1 that runs the CUDA device's own code without a GPU.
//   - kernels/gpu: the host code, written once against Device: buffers, the parameter
//     block, the frame's launches captured into one CUDA graph and replayed.
//
// The emulation's limits: threads of a block run one after another, which is a valid
// schedule only because no kernel uses __syncthreads, shared memory or warp intrinsics
// (cuda_compat.h says why); it says nothing about speed, occupancy, coalescing or races the
// hardware's memory model would expose. Rounding is not among the limits: both compilers
// are told not to contract multiply-adds (the pragma in device/emu.cc, nvcc -fmad=false in
// build.sh) and the kernels use only IEEE-exact operations, so the GPU computes the
// emulation's bits.
package kernels
