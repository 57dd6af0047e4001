#!/usr/bin/env bash
# go.sh ARG... runs `go ARG...` inside root.sh's build root (env.sh's dist_go), set up to link
# the portable way: FFmpeg, x264, x265 and dav1d static from deps.sh's prefix (through the
# pkg-config wrapper); libstdc++, libgcc, libgomp and the BLAS/LAPACK that FAISS uses (with
# their Fortran runtime) static from the root's compiler and packages; glibc and, for the
# cuda build, libcuda.so.1 shared. With `build` and `test`, the flags every portable
# binary is built with (-trimpath, stripped, the version) go before the other arguments.
# ARCH=arm64 cross-compiles for linux-arm64 with the root's aarch64-linux-gnu compilers;
# the portable build has no FAISS, so there only libstdc++ and libatomic are taken static.
# TRACKINK_CUDA_LINK: the folder of cuda.h and the link stub (env.sh).
set -euo pipefail
: "${TRACKINK_DIST_PREFIX:?the prefix of scripts/dist/deps.sh}"
here=$(cd "$(dirname "$0")" && pwd)
# Static archives only, searched before the system's directories, where each of these
# libraries also has a shared object that the linker would otherwise prefer.
staticlib=$TRACKINK_DIST_BUILD/staticlib
fortran="-lgfortran -lquadmath"
case ${ARCH:-amd64} in
  amd64)
    cc=gcc
    libs=(libstdc++.a libgomp.a libgfortran.a libquadmath.a libatomic.a)
    mkdir -p "$staticlib"
    for lib in liblapack.a libblas.a; do
      ln -sfn "$(readlink -f /usr/lib/x86_64-linux-gnu/$lib)" "$staticlib/$lib"
    done
    ;;
  arm64)
    cc=aarch64-linux-gnu-gcc
    libs=(libstdc++.a libatomic.a)
    staticlib=$staticlib-arm64
    fortran=""
    export GOARCH=arm64 CC=$cc CXX=aarch64-linux-gnu-g++
    ;;
  *) echo "go.sh: ARCH=$ARCH: amd64 or arm64" >&2; exit 2 ;;
esac
export CGO_ENABLED=1
mkdir -p "$staticlib"
for lib in "${libs[@]}"; do
  ln -sfn "$($cc -print-file-name=$lib)" "$staticlib/$lib"
done
for lib in "$staticlib"/*.a; do
  [ -f "$lib" ] || { echo "go.sh: $(basename "$lib") is not in the build root (scripts/dist/root.sh)" >&2; exit 1; }
done
cuda=${TRACKINK_CUDA_LINK:?the folder of cuda.h and the link stub of libcuda.so (env.sh)}
export PKG_CONFIG=$here/pkg-config
# The prefix (its path holds deps.sh's key) in CGO_CFLAGS and CGO_LDFLAGS also keys Go's build
# cache: pkg-config's output is not part of it, and a cgo package compiled for another
# FFmpeg must not be reused here.
export CGO_CFLAGS="-O2 -g -I$TRACKINK_DIST_PREFIX/include -I$cuda/include"
export CGO_LDFLAGS="-L$staticlib -L$TRACKINK_DIST_PREFIX/lib -L$cuda/lib"
case ${1:-} in
  build | test)
    sub=$1
    shift
    # -extldflags come last on the link line: the Fortran runtime after LAPACK and BLAS.
    # The link stub of libcuda.so has no symbol versions of its own to check against.
    # gorgonia.org/cu asks for -L/usr/lib/x86_64-linux-gnu/ on any linux: the aarch64 linker
    # skips that folder's libraries, and each time says so; those lines are dropped.
    # (Not exec'd: in in-root.sh's PID namespace the filter would die with go, unflushed.
    # pipefail gives go's status.)
    { go "$sub" -trimpath -ldflags "-s -w -X trackink/cli.buildVersion=${VERSION:-unknown} -extldflags '-static-libgcc -static-libstdc++ $fortran -Wl,--allow-shlib-undefined'" "$@" \
      2>&1 1>&3 3>&- | { grep -v '^/.*/ld: skipping incompatible /usr/lib/x86_64-linux-gnu//' || true; } >&2; } 3>&1
    ;;
  *) exec go "$@" ;;
esac
