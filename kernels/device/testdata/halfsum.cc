// halfsum prints a checksum of cuda_compat.h's binary16 conversions: every half to float,
// and float to half over the floats where rounding decides (every mantissa's low 14 bits
// at every exponent a half can reach, both signs) and a stride over all 2^32 bit patterns.
// Built with _Float16 and with the conversions on the bits (TK_HALF_BITS), natively and for
// other machines, it prints the same line (kernels/device TestHalfConversions).
#include <stdio.h>
#include <string.h>

#include "../../cuda_compat.h"

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

static uint64_t sum = 1469598103934665603ull;  // FNV-1a
static void mix(uint32_t v) {
  for (int i = 0; i < 4; i++) {
    sum ^= (v >> (8 * i)) & 0xff;
    sum *= 1099511628211ull;
  }
}

static void toHalf(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  __half h = __float2half_rn(f);
  uint16_t out;
  memcpy(&out, &h, 2);
  mix(out);
}

int main() {
  for (uint32_t b = 0; b < 0x10000; b++) {
    uint16_t in = (uint16_t)b;
    __half h;
    memcpy(&h, &in, 2);
    float f = __half2float(h);
    uint32_t out;
    memcpy(&out, &f, 4);
    // NaNs keep their payload's top bits; compare them as one quiet NaN of their sign.
    if ((out & 0x7f800000) == 0x7f800000 && (out & 0x7fffff)) out = (out & 0x80000000) | 0x7fc00000;
    mix(out);
  }
  unsigned long n = 0;
  for (uint32_t sign = 0; sign < 2; sign++)
    for (uint32_t e = 100; e <= 143; e++)
      for (uint32_t hi = 0; hi < 0x200; hi += 0x7f)
        for (uint32_t lo = 0; lo < 0x4000; lo++, n++) toHalf(sign << 31 | e << 23 | hi << 14 | lo);
  for (uint64_t b = 0; b < 0x100000000ull; b += 9973, n++) {
    uint32_t bits = (uint32_t)b;
    if ((bits & 0x7f800000) == 0x7f800000 && (bits & 0x7fffff)) continue;  // NaN payloads differ by machine
    toHalf(bits);
  }
  printf("%016llx over %lu conversions\n", (unsigned long long)sum, n + 0x10000);
  return 0;
}
