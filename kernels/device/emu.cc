// emu.cc is the emulated device: the kernel sources compiled as C++ (see cuda_compat.h) and a
// launcher that runs a grid the way the hardware may: every thread of every block, blocks in
// any order and in parallel. Within a block the threads run one after another, which is a
// legal schedule only because the kernels use no barriers (cuda_compat.h says why). A
// reversed launch runs the blocks and each block's threads in descending order: another
// legal schedule, under which a kernel that relies on the usual one (atomics handing out
// slots in thread order) gives other results.
#include "emu.h"

// The kernels must round like the CPU renderer (Go never fuses a multiply and an add on
// amd64), so no contraction into FMA even where the flags enable FMA instructions. cgo does
// not accept -ffp-contract in #cgo CXXFLAGS, hence the pragma.
#pragma GCC optimize("fp-contract=off")

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "../all.cu"

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace {

typedef void (*Kernel)(const TkParams*);

struct Entry {
  const char* name;
  Kernel fn;
};

#define TK_ENTRY(k) {#k, k}
const Entry kernels[] = {
    TK_ENTRY(tk_begin),           TK_ENTRY(tk_curve_chords),     TK_ENTRY(tk_scan_sums_chords),
    TK_ENTRY(tk_scan_mid_chords), TK_ENTRY(tk_scan_apply_chords), TK_ENTRY(tk_bin_count),
    TK_ENTRY(tk_scan_sums_bins),  TK_ENTRY(tk_scan_mid_bins),    TK_ENTRY(tk_scan_apply_bins),
    TK_ENTRY(tk_bin_cursor),      TK_ENTRY(tk_bin_fill),         TK_ENTRY(tk_bin_sort),
    TK_ENTRY(tk_boxes),           TK_ENTRY(tk_lines),            TK_ENTRY(tk_curves),
    TK_ENTRY(tk_labels),          TK_ENTRY(tk_composite_blended), TK_ENTRY(tk_composite),
    // echo.cu
    TK_ENTRY(tk_echo),
    // effects.cu
    TK_ENTRY(tk_effects_copy), TK_ENTRY(tk_effects_gauss_weights), TK_ENTRY(tk_effects_gauss),
    TK_ENTRY(tk_effects_sort),          TK_ENTRY(tk_effects),
    // camera.cu
    TK_ENTRY(tk_camera_copy), TK_ENTRY(tk_camera),
    // links.cu
    TK_ENTRY(tk_links_clear),           TK_ENTRY(tk_links_extent),         TK_ENTRY(tk_links_grid),
    TK_ENTRY(tk_links_cells),           TK_ENTRY(tk_links_sums_cells),     TK_ENTRY(tk_links_offsets_cells),
    TK_ENTRY(tk_links_apply_cells),     TK_ENTRY(tk_links_fill),           TK_ENTRY(tk_links_search),
    TK_ENTRY(tk_links_match),           TK_ENTRY(tk_links_choose),         TK_ENTRY(tk_links_count),
    TK_ENTRY(tk_links_sums_buckets),    TK_ENTRY(tk_links_offsets_buckets), TK_ENTRY(tk_links_apply_buckets),
    TK_ENTRY(tk_links_bucket),          TK_ENTRY(tk_links_caps),           TK_ENTRY(tk_links_sums_incident),
    TK_ENTRY(tk_links_offsets_incident), TK_ENTRY(tk_links_apply_incident), TK_ENTRY(tk_links_incident),
    TK_ENTRY(tk_links_degree),          TK_ENTRY(tk_links_keep),           TK_ENTRY(tk_links_sums_kept),
    TK_ENTRY(tk_links_offsets_kept),    TK_ENTRY(tk_links_apply_kept),     TK_ENTRY(tk_links_emit),
    TK_ENTRY(tk_links_blank),
};
const int nKernels = sizeof(kernels) / sizeof(kernels[0]);

void runBlocks(Kernel fn, dim3 grid, dim3 block, const TkParams* p, std::atomic<unsigned long>* next, bool reverse) {
  gridDim = grid;
  blockDim = block;
  unsigned long blocks = (unsigned long)grid.x * grid.y * grid.z;
  for (;;) {
    unsigned long b = next->fetch_add(1);
    if (b >= blocks) return;
    if (reverse) b = blocks - 1 - b;
    blockIdx = dim3{(unsigned)(b % grid.x), (unsigned)(b / grid.x % grid.y), (unsigned)(b / grid.x / grid.y)};
    for (unsigned z = 0; z < block.z; z++)
      for (unsigned y = 0; y < block.y; y++)
        for (unsigned x = 0; x < block.x; x++) {
          threadIdx = reverse ? dim3{block.x - 1 - x, block.y - 1 - y, block.z - 1 - z} : dim3{x, y, z};
          fn(p);
        }
  }
}

}  // namespace

extern "C" int tk_emu_kernels(void) { return nKernels; }

extern "C" const char* tk_emu_kernel_name(int i) { return i >= 0 && i < nKernels ? kernels[i].name : nullptr; }

extern "C" int tk_emu_launch(int kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, const void* params, int workers, int reverse) {
  if (kernel < 0 || kernel >= nKernels || gx * gy * gz == 0 || bx * by * bz == 0) return -1;
  dim3 grid{gx, gy, gz}, block{bx, by, bz};
  std::atomic<unsigned long> next{0};
  const TkParams* p = (const TkParams*)params;
  unsigned long blocks = (unsigned long)gx * gy * gz;
  int n = workers < 1 ? 1 : workers;
  if ((unsigned long)n > blocks) n = (int)blocks;
  std::vector<std::thread> pool;
  for (int i = 1; i < n; i++) pool.emplace_back(runBlocks, kernels[kernel].fn, grid, block, p, &next, reverse != 0);
  runBlocks(kernels[kernel].fn, grid, block, p, &next, reverse != 0);
  for (auto& t : pool) t.join();
  return 0;
}

extern "C" long tk_emu_params_size(void) { return (long)sizeof(TkParams); }
