// all.cu is the one translation unit of the kernels: nvcc compiles it into the fatbin
// (build.sh) and emu.cc includes it, so both see the same sources in the same order.
#include "effects.cu"
#include "bin.cu"
#include "boxes.cu"
#include "lines.cu"
#include "curves.cu"
#include "echo.cu"
#include "labels.cu"
#include "composite.cu"
#include "camera.cu"
#include "links.cu"
