// emu.h: the C interface of the emulated device's launcher (emu.cc), for cgo and for the
// fake CUDA driver (testdata/fakecuda).
#ifndef TRACKINK_EMU_H
#define TRACKINK_EMU_H

#ifdef __cplusplus
extern "C" {
#endif

// tk_emu_kernels returns the number of kernels; tk_emu_kernel_name the name of kernel i.
int tk_emu_kernels(void);
const char* tk_emu_kernel_name(int i);

// tk_emu_params_size returns sizeof(TkParams): the bytes a launch reads at its parameter
// block.
long tk_emu_params_size(void);

// tk_emu_launch runs kernel i over the grid, calling it once per (block, thread) with the
// one parameter-block pointer; blocks are spread over `workers` host threads. It returns
// 0, or -1 for an unknown kernel or an empty grid or block. With reverse != 0 it runs the
// blocks and each block's threads in descending order.
int tk_emu_launch(int kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  const void* params, int workers, int reverse);

#ifdef __cplusplus
}
#endif
#endif  // TRACKINK_EMU_H
