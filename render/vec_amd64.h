// The constants of the package's assembly (simd_amd64.s, effects_amd64.s).

// VEC8 is a 32-byte read-only constant: the 8-byte value v four times. VEC4X2 is one of
// four 8-byte values in order.
#define VEC8(name, v) VEC4X2(name, v, v, v, v)
#define VEC4X2(name, a, b, c, d) \
	DATA  name+0x00(SB)/8, a; \
	DATA  name+0x08(SB)/8, b; \
	DATA  name+0x10(SB)/8, c; \
	DATA  name+0x18(SB)/8, d; \
	GLOBL name(SB), (NOPTR+RODATA), $32
