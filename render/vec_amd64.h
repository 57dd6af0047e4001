// The constants of the package's assembly (simd_amd64.s, effects_amd64.s), and its
// shared steps.

// VEC8 is a 32-byte read-only constant: the 8-byte value v four times. VEC4X2 is one of
// four 8-byte values in order.
#define VEC8(name, v) VEC4X2(name, v, v, v, v)
#define VEC4X2(name, a, b, c, d) \
	DATA  name+0x00(SB)/8, a; \
	DATA  name+0x08(SB)/8, b; \
	DATA  name+0x10(SB)/8, c; \
	DATA  name+0x18(SB)/8, d; \
	GLOBL name(SB), (NOPTR+RODATA), $32

// PREFIXSTEP sets Y0 to the inclusive prefix sums of its 8 int32 lanes plus carry (the
// sum before the group), and adds the group's own total to carry: within each 128-bit half
// by two shifted adds, the low half's last sum carried into the high half. The chain from
// group to group is the one add to carry. Y1 and Y2 are scratch.
#define PREFIXSTEP(carry) \
	VPSLLDQ    $4, Y0, Y1;       \
	VPADDD     Y1, Y0, Y0;       \
	VPSLLDQ    $8, Y0, Y1;       \
	VPADDD     Y1, Y0, Y0;       \
	VPSHUFD    $0xff, Y0, Y1;    \
	VPERM2I128 $0x08, Y1, Y1, Y1; \
	VPADDD     Y1, Y0, Y0;       \
	VPSHUFD    $0xff, Y0, Y2;    \
	VPERM2I128 $0x11, Y2, Y2, Y2; \
	VPADDD     carry, Y0, Y0;    \
	VPADDD     Y2, carry, carry
