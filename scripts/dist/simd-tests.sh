#!/usr/bin/env bash
# simd-tests.sh builds, for ARCH (default arm64), `go test -c` of every package with AVX2
# kernels (an *_amd64.s file: their *_other.go Go twins are what any other architecture
# runs), each into build/dist/simd-tests-ARCH/DIR/NAME.test beside a copy of the package's
# other files (testdata included), and prints that folder. test.sh runs them in the arm64
# root under qemu-user: there every test of those packages runs the Go twins, and the tests
# that compare the assembly with the twins say they skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export ARCH=${ARCH:-arm64}
# shellcheck source=env.sh
. "$here/env.sh"
cd "$dist_repo"
out=$dist_top/simd-tests-$dist_arch
rm -rf "$out"
mapfile -t dirs < <(git ls-files '*_amd64.s' | xargs -n1 dirname | sort -u)
[ ${#dirs[@]} -gt 0 ] || { echo "simd-tests.sh: no package has AVX2 kernels (*_amd64.s)" >&2; exit 1; }
for dir in "${dirs[@]}"; do
  mkdir -p "$out/$dir"
  git ls-files -z "$dir" | while IFS= read -r -d '' f; do
    case $f in *.go | *.s) continue ;; esac
    mkdir -p "$out/$(dirname "$f")"
    cp "$f" "$out/$f"
  done
  dist_go test -c -o "$(root_path "$out/$dir/$(basename "$dir").test")" "./$dir" >&2
done
echo "$out"
