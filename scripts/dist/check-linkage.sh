#!/usr/bin/env bash
# check-linkage.sh [--cuda] FILE... fails unless each ELF file needs, at run time, nothing but
# glibc's own libraries (with --cuda also, and necessarily, the NVIDIA driver's libcuda.so.1,
# which must come from the machine it runs on), has no RPATH/RUNPATH, and asks for no glibc
# symbol version newer than 2.31 (Debian 11, Ubuntu 20.04; $TRACKINK_GLIBC_MAX to ask for
# another), so that it runs on any x86-64 (ARCH=arm64: aarch64) Linux whose glibc is at least
# that. Reads only ELF headers and tables (readelf), so it checks either architecture's
# files. Prints one line per file.
set -euo pipefail
case ${ARCH:-amd64} in
  amd64) machine=X86-64 loader=ld-linux-x86-64.so.2 ;;
  arm64) machine=AArch64 loader=ld-linux-aarch64.so.1 ;;
  *) echo "check-linkage: ARCH=$ARCH: amd64 or arm64" >&2; exit 2 ;;
esac
allowed=(libc.so.6 libm.so.6 libmvec.so.1 libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2 "$loader")
cuda=0
if [ "${1:-}" = --cuda ]; then allowed+=(libcuda.so.1); cuda=1; shift; fi
[ $# -gt 0 ] || { echo "usage: check-linkage.sh [--cuda] FILE..." >&2; exit 2; }
glibc=${TRACKINK_GLIBC_MAX:-2.31}
bad=0
for f in "$@"; do
  if ! readelf -h "$f" 2>/dev/null | grep -q "Machine:.*$machine"; then
    echo "check-linkage: $f is not an $machine ELF file" >&2; bad=1; continue
  fi
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | tr '\n' ' ')
  for lib in $needed; do
    if [[ " ${allowed[*]} " != *" $lib "* ]]; then
      echo "check-linkage: $f needs $lib, which is not one of: ${allowed[*]}" >&2; bad=1
    fi
  done
  if [ "$cuda" -eq 1 ] && [[ " $needed " != *" libcuda.so.1 "* ]]; then
    echo "check-linkage: $f does not load libcuda.so.1 from the machine" >&2; bad=1
  fi
  if readelf -d "$f" | grep -q '(RPATH)\|(RUNPATH)'; then
    echo "check-linkage: $f has an RPATH/RUNPATH: $(readelf -d "$f" | grep 'R.*PATH')" >&2; bad=1
  fi
  # The glibc versions it needs (its .gnu.version_r), the newest of them.
  newest=$( { readelf -V -W "$f" | grep -o 'Name: GLIBC_[0-9.]*' || true; } | sed 's/.*GLIBC_//' | sort -V | tail -1)
  if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$glibc" | sort -V | tail -1)" != "$glibc" ]; then
    echo "check-linkage: $f asks for glibc $newest, newer than the $glibc it must run on" >&2; bad=1
  fi
  echo "check-linkage: $(basename "$f"): needs ${needed:-nothing}(glibc >= ${newest:-any})"
done
exit "$bad"
