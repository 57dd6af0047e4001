# env.sh, sourced by build.sh and gpu-kit.sh: the environment in which `go build` and
# `go test -c` link the portable way. FFmpeg, x264, x265 and dav1d come static from
# deps.sh's prefix (through the pkg-config wrapper); libstdc++, libgcc, libgomp and the
# BLAS/LAPACK that FAISS uses (with their Fortran runtime) come static from the compiler's
# and Debian's archives; glibc and, for the cuda build, libcuda.so.1 stay shared. Sets
# dist_repo, dist_top, dist_prefix, dist_version and the array dist_goflags.
dist_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dist_top=${TRACKINK_DIST_BUILD:-$dist_repo/build/dist}
# TRACKINK_DIST_PREFIX: a prefix deps.sh has built (to skip even its quick check).
dist_prefix=${TRACKINK_DIST_PREFIX:-$(bash "$dist_repo/scripts/dist/deps.sh")}
dist_version=${VERSION:-$(git -C "$dist_repo" describe --tags --always --dirty 2>/dev/null || echo unknown)}

# Static archives only, searched before the system's directories, where each of these
# libraries also has a shared object that the linker would otherwise prefer.
staticlib=$dist_top/staticlib
mkdir -p "$staticlib"
for lib in libstdc++.a libgomp.a libgfortran.a libquadmath.a libatomic.a; do
  ln -sfn "$(gcc -print-file-name=$lib)" "$staticlib/$lib"
done
for lib in liblapack.a libblas.a; do
  ln -sfn "$(readlink -f /usr/lib/x86_64-linux-gnu/$lib)" "$staticlib/$lib"
done
for lib in "$staticlib"/*.a; do
  [ -f "$lib" ] || { echo "dist: $(basename "$lib") is not installed (scripts/setup.sh --dist)" >&2; exit 1; }
done

export TRACKINK_DIST_PREFIX=$dist_prefix
export PKG_CONFIG=$dist_repo/scripts/dist/pkg-config
# The prefix (its path holds deps.sh's key) in CGO_CFLAGS and CGO_LDFLAGS also keys Go's build
# cache: pkg-config's output is not part of it, and a cgo package compiled for the system's
# FFmpeg must not be reused here.
export CGO_CFLAGS="-O2 -g -I$dist_prefix/include"
export CGO_LDFLAGS="-L$staticlib -L$dist_prefix/lib"
# -extldflags come last on the link line: the Fortran runtime after LAPACK and BLAS.
dist_goflags=(-trimpath -ldflags "-s -w -X trackink/cli.buildVersion=$dist_version -extldflags '-static-libgcc -static-libstdc++ -lgfortran -lquadmath'")
