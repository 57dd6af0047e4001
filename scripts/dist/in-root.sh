#!/usr/bin/env bash
# in-root.sh [--bind HOST_DIR:ROOT_DIR]... ROOT COMMAND [ARG...] runs COMMAND inside ROOT
# (root.sh's Debian root) with a clean environment (PATH, HOME, LANG only: pass more with
# `env NAME=VALUE ...`), in private mount and PID namespaces: /proc and /dev are mounted
# there for the command, and each --bind directory of this machine at its place in the
# root, all vanishing with it. Its exit status is COMMAND's.
set -euo pipefail
binds=()
while [ "${1:-}" = --bind ]; do
  binds+=("${2:?usage: in-root.sh [--bind HOST_DIR:ROOT_DIR]... ROOT COMMAND [ARG...]}")
  shift 2
done
root=${1:?usage: in-root.sh [--bind HOST_DIR:ROOT_DIR]... ROOT COMMAND [ARG...]}
shift
[ -x "$root/bin/sh" ] || { echo "in-root.sh: $root is not a root file system" >&2; exit 1; }
exec unshare --mount --pid --fork --propagation private -- bash -c '
  set -e
  root=$1 nbinds=$2; shift 2
  for ((i = 0; i < nbinds; i++)); do
    mkdir -p "$root${1#*:}"
    mount --rbind "${1%%:*}" "$root${1#*:}"
    shift
  done
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"' in-root "$root" "${#binds[@]}" "${binds[@]}" "$@"
