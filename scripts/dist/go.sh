#!/usr/bin/env bash
# go.sh ARG... runs `go ARG...` inside root.sh's build root (env.sh's dist_go), set up to link
# the portable way: FFmpeg, x264, x265 and dav1d static from deps.sh's prefix (through the
# pkg-config wrapper); libstdc++, libgcc, libgomp and the BLAS/LAPACK that FAISS uses (with
# their Fortran runtime) static from the root's compiler and packages; glibc and, for the
# cuda build, libcuda.so.1 shared. With `build` and `test`, the flags every portable
# binary is built with (-trimpath, stripped, the version) go before the other arguments.
set -euo pipefail
: "${TRACKINK_DIST_PREFIX:?the prefix of scripts/dist/deps.sh}"
here=$(cd "$(dirname "$0")" && pwd)
# Static archives only, searched before the system's directories, where each of these
# libraries also has a shared object that the linker would otherwise prefer.
staticlib=$TRACKINK_DIST_BUILD/staticlib
mkdir -p "$staticlib"
for lib in libstdc++.a libgomp.a libgfortran.a libquadmath.a libatomic.a; do
  ln -sfn "$(gcc -print-file-name=$lib)" "$staticlib/$lib"
done
for lib in liblapack.a libblas.a; do
  ln -sfn "$(readlink -f /usr/lib/x86_64-linux-gnu/$lib)" "$staticlib/$lib"
done
for lib in "$staticlib"/*.a; do
  [ -f "$lib" ] || { echo "go.sh: $(basename "$lib") is not in the build root (scripts/dist/root.sh)" >&2; exit 1; }
done
cuda=$TRACKINK_DIST_BUILD/cuda-link
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
    exec go "$sub" -trimpath -ldflags "-s -w -X trackink/cli.buildVersion=${VERSION:-unknown} -extldflags '-static-libgcc -static-libstdc++ -lgfortran -lquadmath -Wl,--allow-shlib-undefined'" "$@"
    ;;
  *) exec go "$@" ;;
esac
