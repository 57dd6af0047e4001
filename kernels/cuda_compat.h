// cuda_compat.h lets the kernel sources (*.cu) compile as ordinary C++ with g++, for the
// emulated device (emu.cc). Under nvcc it only pulls in cuda_fp16.h.
//
// What the emulation maps, and why it is sound for these kernels:
//   - kernels (TK_KERNEL) become extern "C" functions taking the same arguments; emu.cc calls
//     them once per (block, thread), with blockIdx/threadIdx/blockDim/gridDim set in
//     thread-local variables first.
//   - The kernels use no __syncthreads(), no shared memory and no warp intrinsics: threads of
//     a launch interact only through atomics, and a kernel is correct under any interleaving
//     of its threads. Running the threads one after another is one such interleaving, so
//     the emulation is exact; it is not a model of timing, occupancy or memory coalescing.
//   - __half is _Float16 (gcc 12, x86-64): IEEE binary16 with round-to-nearest-even
//     conversions, the same as __float2half_rn / __half2float on the device.
//   - atomicAdd, atomicOr, atomicMin and atomicMax are gcc __atomic builtins (blocks run on
//     several host threads).
#ifndef TRACKINK_CUDA_COMPAT_H
#define TRACKINK_CUDA_COMPAT_H

// TK_KERNEL declares a kernel. extern "C" on both compilers: the host code finds kernels by
// their plain names (cuModuleGetFunction("tk_boxes")), which C++ name mangling would hide.
#ifdef __CUDACC__
#include <cuda_fp16.h>
#define TK_HOST_DEVICE __host__ __device__
#define TK_KERNEL extern "C" __global__
#else

#include <math.h>
#include <stdint.h>

#define TK_KERNEL extern "C"
#define __device__
#define __host__
#define __forceinline__ inline
#define TK_HOST_DEVICE

struct dim3 {
  unsigned x, y, z;
};

// The launch coordinates of the emulated thread now running (set by emu.cc).
extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

typedef _Float16 __half;

static inline __half __float2half_rn(float f) { return (__half)f; }
static inline float __half2float(__half h) { return (float)h; }

static inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline int atomicOr(int* p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
static inline int atomicMin(int* p, int v) {
  int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old > v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
static inline int atomicMax(int* p, int v) {
  int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}

#endif  // __CUDACC__
#endif  // TRACKINK_CUDA_COMPAT_H
