#!/usr/bin/env bash
# in-root.sh ROOT COMMAND [ARG...] runs COMMAND inside ROOT (root.sh's Debian root) with a
# clean environment (PATH, HOME, LANG only: pass more with `env NAME=VALUE ...`), in private
# mount and PID namespaces: /proc and /dev are mounted there for the command and vanish
# with it. Its exit status is COMMAND's.
set -euo pipefail
root=${1:?usage: in-root.sh ROOT COMMAND [ARG...]}
shift
[ -x "$root/bin/sh" ] || { echo "in-root.sh: $root is not a root file system" >&2; exit 1; }
exec unshare --mount --pid --fork --propagation private -- bash -c '
  set -e
  root=$1; shift
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"' in-root "$root" "$@"
