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
//     conversions, the same as __float2half_rn / __half2float on the device. Elsewhere the
//     same conversions are written out on the bits (kernels only convert, never compute, in
//     half): gcc 10 of the portable build's Debian 11 root has no _Float16, and gcc 12 on
//     aarch64 defines __FLT16_MAX__ but its C++ rejects _Float16 (gcc 13 takes it).
//     TK_HALF_BITS forces the bits on x86-64 too, for the test that holds both to the same
//     results (kernels/device TestHalfConversions).
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
// TK_NO_UNROLL keeps the loop it precedes rolled on the device. tk_curves's per-row arrays
// then live in local memory rather than in registers: 109 registers a thread instead of
// 255, two blocks an SM instead of one, which the H200 ran 20 % faster (docs/gpu.md,
// "Measured on a GPU"). The host compiler's optimiser is left to itself.
#define TK_NO_UNROLL _Pragma("unroll 1")
// TK_BOUNDS(threads, blocks) caps a kernel's registers so that blocks of threads fit an SM
// together (__launch_bounds__). Only tk_labels takes it: three blocks an SM (80 registers,
// a few spilled) drew labels 9 % faster on the H200; boxes, lines and curves ran slower so
// capped (docs/gpu.md, "Measured on a GPU").
#define TK_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
#else

#include <math.h>
#include <stdint.h>

#define TK_KERNEL extern "C"
#define TK_NO_UNROLL
#define TK_BOUNDS(threads, blocks)
#define __device__
#define __host__
#define __forceinline__ inline
#define TK_HOST_DEVICE

struct dim3 {
  unsigned x, y, z;
};

// The launch coordinates of the emulated thread now running (set by emu.cc).
extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

#if defined(__FLT16_MAX__) && defined(__x86_64__) && !defined(TK_HALF_BITS)
typedef _Float16 __half;

static inline __half __float2half_rn(float f) { return (__half)f; }
static inline float __half2float(__half h) { return (float)h; }
#else
#include <string.h>

struct __half {
  uint16_t bits;
};

// __float2half_rn rounds f to the nearest binary16, ties to even; overflow gives infinity,
// NaN stays NaN (quiet).
static inline __half __float2half_rn(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t mag = x & 0x7fffffff;
  __half h;
  if (mag >= 0x7f800000) {  // infinity or NaN
    h.bits = sign | 0x7c00 | (mag > 0x7f800000 ? 0x200 | (uint16_t)((mag >> 13) & 0x3ff) : 0);
    return h;
  }
  if (mag >= 0x477ff000) {  // rounds to 65520 or more: infinity
    h.bits = sign | 0x7c00;
    return h;
  }
  if (mag < 0x38800000) {  // below the smallest normal half (2^-14): a subnormal or zero
    if (mag < 0x33000000) {  // at most 2^-25: rounds to zero
      h.bits = sign;
      return h;
    }
    int e = (int)(mag >> 23);
    uint32_t m = (mag & 0x7fffff) | 0x800000;
    int shift = 126 - e;  // m · 2^(e-150) in units of 2^-24: m >> (126 - e)
    uint32_t q = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (q & 1))) q++;
    h.bits = sign | (uint16_t)q;
    return h;
  }
  uint32_t q = (mag - 0x38000000) >> 13, rest = mag & 0x1fff;  // rebias 127 → 15
  if (rest > 0x1000 || (rest == 0x1000 && (q & 1))) q++;  // may carry into the exponent: right
  h.bits = sign | (uint16_t)q;
  return h;
}

static inline float __half2float(__half h) {
  uint32_t sign = (uint32_t)(h.bits & 0x8000) << 16, e = (h.bits >> 10) & 0x1f, m = h.bits & 0x3ff, x;
  if (e == 0x1f) {
    x = sign | 0x7f800000 | (m << 13);
  } else if (e != 0) {
    x = sign | ((e + 112) << 23) | (m << 13);
  } else if (m == 0) {
    x = sign;
  } else {  // subnormal: normalise
    e = 113;
    while (!(m & 0x400)) {
      m <<= 1;
      e--;
    }
    x = sign | (e << 23) | ((m & 0x3ff) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}
#endif

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
