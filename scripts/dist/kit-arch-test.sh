#!/usr/bin/env bash
# kit-arch-test.sh (make dist-test-arm64) checks that a GPU kit refuses, in one line and
# before anything runs, a machine of another architecture: the arm64 kit
# (dist/gpu-kit-arm64) in root.sh's x86-64 test root, and the x86-64 kit (dist/gpu-kit, when
# make gpu-kit has made it) in the arm64 root, under qemu-user. The full kit is run by
# kit-test.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
die() { echo "kit-arch-test: FAIL: $*" >&2; exit 1; }
[ -x dist/gpu-kit-arm64/run.sh ] || die "no dist/gpu-kit-arm64 (make gpu-kit ARCH=arm64)"
[ "$(cat dist/gpu-kit-arm64/ARCH)" = aarch64 ] || die "dist/gpu-kit-arm64/ARCH says $(cat dist/gpu-kit-arm64/ARCH)"

# refused KIT ROOT_ARCH KIT_MACHINE MACHINE: KIT run in the ROOT_ARCH root says, as its one
# line, that it is for KIT_MACHINE and the machine is MACHINE, exits 1, and runs nothing.
refused() {
  local kit=$1 arch=$2 root t out
  root=$(bash "$here/root.sh" test "$arch")
  t=$root/work/kit-arch
  rm -rf "$t"
  mkdir -p "$t"
  cp -r "$kit" "$t/kit"
  if out=$(bash "$here/in-root.sh" "$root" /work/kit-arch/kit/run.sh /work/kit-arch/report 2>&1); then
    die "$kit ran in the $arch root: $out"
  fi
  [ "$(wc -l <<<"$out")" -eq 1 ] || die "$kit in the $arch root says more than one line: $out"
  grep -q "^run.sh: this kit is for $3 and this machine is $4: " <<<"$out" || die "$kit in the $arch root says: $out"
  [ "$(sed -n 2p "$t/report/report.txt")" = "Nothing was run." ] || die "$kit in the $arch root reports: $(cat "$t/report/report.txt")"
  echo "kit-arch-test: $kit on $4: $out"
}
refused dist/gpu-kit-arm64 amd64 aarch64 x86_64
if [ -x dist/gpu-kit/run.sh ]; then
  refused dist/gpu-kit arm64 x86_64 aarch64
else
  echo "kit-arch-test: no dist/gpu-kit (make gpu-kit): the x86-64 kit's refusal of arm64 not checked"
fi
