#!/usr/bin/env bash
# in-root.sh [--bind HOST_DIR:ROOT_DIR]... ROOT COMMAND [ARG...] runs COMMAND inside ROOT
# (root.sh's Debian root) with a clean environment (PATH, HOME, LANG only: pass more with
# `env NAME=VALUE ...`), in private mount and PID namespaces: /proc and /dev are mounted
# there for the command, and each --bind directory of this machine at its place in the
# root, all vanishing with it. Its exit status is COMMAND's.
# An arm64 root on another machine runs under qemu-user: the command also gets a user
# namespace of its own (every id mapped to itself, so it stays root with the same files),
# where a binfmt_misc of its own is mounted and qemu-aarch64 (qemu.sh) registered with the
# F flag: every arm64 program started in there, the command's children too, runs emulated,
# and nothing changes for the rest of the machine. No root gets /sys: in an arm64 one the
# host's would describe x86-64 processors to ONNX Runtime's arm64 cpuinfo, which crashes
# on them (without /sys it warns and runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: in-root.sh [--bind HOST_DIR:ROOT_DIR]... ROOT COMMAND [ARG...]"
binds=()
while [ "${1:-}" = --bind ]; do
  binds+=("${2:?$usage}")
  shift 2
done
root=${1:?$usage}
shift
[ -e "$root/bin/sh" ] || { echo "in-root.sh: $root is not a root file system" >&2; exit 1; }

# The root's architecture, from the ELF header of its env (e_machine, bytes 18-19).
machine=$(od -An -tx1 -j18 -N2 "$root/usr/bin/env" | tr -d ' \n')
case "$machine:$(uname -m)" in
  3e00:x86_64 | b700:aarch64) qemu="" ;;
  b700:*) qemu=$(bash "$here/qemu.sh") ;;
  *) echo "in-root.sh: $root is for an architecture (ELF machine $machine) this machine cannot run" >&2; exit 1 ;;
esac

# inside: the part that runs in the new namespaces.
inside='
  set -e
  root=$1 qemu=$2 nbinds=$3; shift 3
  if [ -n "$qemu" ]; then
    # Wait for the parent to map the ids, then register qemu in a binfmt_misc of our own.
    until [ -n "$(cat /proc/self/uid_map)" ]; do sleep 0.01; done
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    echo ":qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:$qemu:F" \
      >/proc/sys/fs/binfmt_misc/register
  fi
  for ((i = 0; i < nbinds; i++)); do
    mkdir -p "$root${1#*:}"
    mount --rbind "${1%%:*}" "$root${1#*:}"
    shift
  done
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"'
if [ -z "$qemu" ]; then
  exec unshare --mount --pid --fork --propagation private -- bash -c "$inside" in-root "$root" "" "${#binds[@]}" "${binds[@]}" "$@"
fi
unshare --user --mount --pid --fork --propagation private -- bash -c "$inside" in-root "$root" "$qemu" "${#binds[@]}" "${binds[@]}" "$@" &
pid=$!
# Signals for this script go to the command.
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
self=$(readlink /proc/self/ns/user)
while [ "$(readlink "/proc/$pid/ns/user" 2>/dev/null || echo "$self")" = "$self" ]; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
echo '0 0 4294967295' >"/proc/$pid/uid_map"
echo '0 0 4294967295' >"/proc/$pid/gid_map"
status=0
wait "$pid" || status=$?
# A wait cut short by a trapped signal: wait again for the command's own status.
while kill -0 "$pid" 2>/dev/null; do wait "$pid" || status=$?; done
exit "$status"
