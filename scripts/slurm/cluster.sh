#!/usr/bin/env bash
# cluster.sh: a real one-node Slurm cluster on this machine, for tests (issue #15).
#
#   cluster.sh install            install Debian's munge, slurmctld, slurmd, slurm-client
#   cluster.sh start DIR          install if needed, start munged, slurmctld and slurmd with
#                                 config, state, spool, logs and pid files under DIR, and wait
#                                 until sinfo shows the node idle
#   cluster.sh stop DIR           cancel the cluster's jobs, then stop exactly the processes
#                                 start recorded (by pid, whatever state they are in) and the
#                                 job steps their slurmd left behind
#   cluster.sh status DIR         which daemons run, and sinfo; exit 0 only when all run and
#                                 the node is usable
#   cluster.sh env DIR            print `export SLURM_CONF=...` for sbatch, squeue, sinfo...
#   cluster.sh logs DIR           print the daemons' logs
#
# Clients (sbatch, squeue, scontrol, sinfo, scancel) find the cluster through SLURM_CONF
# (DIR/etc/slurm.conf); the job environment inherits it. Nothing outside DIR is written apart
# from the packages, so several clusters can run side by side (each picks free ports).
#
# Runs as root: slurmd launches jobs as the submitting user, and the daemons run as root here
# (SlurmUser=root). No systemd needed: the daemons run in the foreground (-F / -D) under
# setsid, detached from the caller. Containers and chroots: ProctrackType=proctrack/linuxproc
# and TaskPlugin=task/none, so no job touches cgroups, and a cgroup.conf naming cgroup/v1 so
# that slurmd 22.05 does not die detecting the cgroup version where /sys/fs/cgroup is absent.
#
# Environment:
#   SLURM_START_TIMEOUT  seconds start waits for the node to be idle (default 90)
#   SLURM_PORT_BASE      slurmctld port (slurmd uses +1); default: a free pair chosen at random
#   SLURM_DEBUG_LEVEL    slurmctld/slurmd log level (default info)
#
# Exit status: 0 success, 1 failure (with the daemons' logs printed on start failures),
# 2 usage.
set -euo pipefail

prog=cluster.sh
die() { echo "$prog: $*" >&2; exit 1; }
usage() { # usage [STATUS]: the header comment, to stderr when it is an error
  if [ "${1:-2}" -eq 0 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
  else
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
  fi
  exit "${1:-2}"
}
log() { echo "$prog: $*" >&2; }

pkgs=(munge slurmctld slurmd slurm-client)
bins=(munged munge unmunge slurmctld slurmd sinfo sbatch squeue scontrol scancel)
daemons=(munged slurmctld slurmd)

require_root() {
  [ "$(id -u)" -eq 0 ] || die "must run as root (slurmd launches jobs as their user; try sudo)"
}

# ---------------------------------------------------------------------------- install

have_pkgs() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || return 1
  done
}

cmd_install() {
  require_root
  if have_pkgs "${pkgs[@]}"; then
    check_bins
    return 0
  fi
  log "installing ${pkgs[*]} (Debian packages, --no-install-recommends)"
  export DEBIAN_FRONTEND=noninteractive
  # The packages' maintainer scripts would start system-wide munged/slurmd from /etc/init.d on
  # a machine without systemd; a temporary policy-rc.d (the Debian mechanism for this) stops
  # that, so the only daemons running are the ones start launches and stop kills.
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# temporary, from trackink scripts/slurm/cluster.sh install\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    made_policy=1
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  # DPkg::Lock::Timeout waits for another apt/dpkg on the machine instead of failing.
  # One retry: Debian's apt can fail mid-way ("cannot access archive") and a second run
  # completes it (shared/deps.md). The retry refreshes the package lists first.
  local apt=(apt-get -q -o DPkg::Lock::Timeout=600)
  local ok=0
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e '^lock$' -e '^partial$' -e '^auxfiles$' || true)" ]; then
    "${apt[@]}" update || true
  fi
  if "${apt[@]}" install -y --no-install-recommends "${pkgs[@]}"; then
    ok=1
  else
    log "apt-get install failed; updating the package lists and retrying once"
    "${apt[@]}" update || true
    if "${apt[@]}" install -y --no-install-recommends "${pkgs[@]}"; then ok=1; fi
  fi
  if [ "$made_policy" -eq 1 ]; then rm -f "$policy"; trap - EXIT; fi
  [ "$ok" -eq 1 ] || die "could not install ${pkgs[*]} with apt-get (see its output above)"
  have_pkgs "${pkgs[@]}" || die "apt-get succeeded but dpkg does not list ${pkgs[*]} as installed"
  check_bins
}

check_bins() {
  local b missing=()
  for b in "${bins[@]}"; do
    command -v "$b" >/dev/null 2>&1 || missing+=("$b")
  done
  [ "${#missing[@]}" -eq 0 ] || die "installed, but these commands are missing from PATH: ${missing[*]}"
}

# ---------------------------------------------------------------------------- /proc helpers
# Only /proc, no procps: a fresh Debian container has no ps or pgrep.

# stat_field PID N: field N (1-based, as in proc(5)) of /proc/PID/stat; fields after the
# command name are parsed after its closing parenthesis (the name may hold spaces).
stat_field() {
  local s f
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  s=${s##*) }
  # $s now starts at field 3 (state).
  read -r -a f <<<"$s"
  echo "${f[$(($2 - 3))]}"
}

# alive PID: the process exists and is not a zombie.
alive() {
  local st
  [ -n "${1:-}" ] && [ -d "/proc/$1" ] || return 1
  st=$(stat_field "$1" 3 2>/dev/null) || return 1
  [ "$st" != Z ] && [ "$st" != X ]
}

cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null || true; }

all_pids() {
  local d
  for d in /proc/[0-9]*; do echo "${d#/proc/}"; done
}

# descendants PID: every live descendant of PID (children first found, recursively).
descendants() {
  local root=$1 p pp changed=1
  local -A set=([$root]=1)
  local -A ppid_of=()
  for p in $(all_pids); do
    pp=$(stat_field "$p" 4 2>/dev/null) || continue
    ppid_of[$p]=$pp
  done
  while [ "$changed" -eq 1 ]; do
    changed=0
    for p in "${!ppid_of[@]}"; do
      if [ -z "${set[$p]:-}" ] && [ -n "${set[${ppid_of[$p]}]:-}" ]; then
        set[$p]=1
        changed=1
      fi
    done
  done
  for p in "${!set[@]}"; do [ "$p" != "$root" ] && echo "$p"; done
  return 0
}

# kill_pids WHAT GRACE PID...: TERM (and CONT, for a stopped process), wait up to GRACE
# seconds, then KILL and wait up to 5 s. Fails if any survives.
kill_pids() {
  local what=$1 grace=$2; shift 2
  local p i left
  [ "$#" -gt 0 ] || return 0
  for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; kill -CONT "$p" 2>/dev/null || true; done
  for i in $(seq 1 $((grace * 10))); do
    left=0
    for p in "$@"; do alive "$p" && left=1; done
    [ "$left" -eq 0 ] && return 0
    sleep 0.1
  done
  for p in "$@"; do
    if alive "$p"; then log "$what (pid $p) still there ${grace} s after SIGTERM; sending SIGKILL"; kill -KILL "$p" 2>/dev/null || true; fi
  done
  for i in $(seq 1 50); do
    left=0
    for p in "$@"; do alive "$p" && left=1; done
    [ "$left" -eq 0 ] && return 0
    sleep 0.1
  done
  for p in "$@"; do alive "$p" && log "$what (pid $p) survived SIGKILL"; done
  return 1
}

# ---------------------------------------------------------------------------- layout

set_dir() {
  [ -n "${1:-}" ] || usage
  mkdir -p "$1"
  D=$(realpath "$1")
  CONF=$D/etc/slurm.conf
  SOCK=$D/munge/munge.socket
}

# ours NAME PID: PID is the daemon NAME that start launched for this DIR (its command line
# names the binary and DIR), so a pid recycled by the system is never killed.
ours() {
  local c
  alive "$2" || return 1
  c=$(cmdline "$2")
  case "$c" in *"$1"*"$D/"*) return 0 ;; esac
  return 1
}

recorded_pid() { cat "$D/run/$1.pid" 2>/dev/null || true; }

node_name() { cat "$D/etc/nodename" 2>/dev/null || true; }

node_state() {
  SLURM_CONF=$CONF timeout 10 sinfo -h -N -n "$(node_name)" -o '%T' 2>/dev/null | head -1 || true
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {
  local base i
  if [ -n "${SLURM_PORT_BASE:-}" ]; then
    base=$SLURM_PORT_BASE
    ! port_in_use "$base" && ! port_in_use $((base + 1)) ||
      die "SLURM_PORT_BASE=$base: port $base or $((base + 1)) is in use"
    echo "$base"; return 0
  fi
  for i in $(seq 1 50); do
    base=$((20000 + (RANDOM % 20000) * 2))
    if ! port_in_use "$base" && ! port_in_use $((base + 1)); then echo "$base"; return 0; fi
  done
  die "found no two free TCP ports on 127.0.0.1 in 50 tries"
}

print_logs() {
  local f n
  for f in munged.out slurmctld.out slurmctld.log slurmd.out slurmd.log; do
    case "$f" in *.log) n=100 ;; *) n=40 ;; esac
    echo "===== $D/log/$f (last $n lines) =====" >&2
    if [ -f "$D/log/$f" ]; then tail -n "$n" "$D/log/$f" >&2; else echo "(missing)" >&2; fi
  done
}

# ---------------------------------------------------------------------------- start

write_config() {
  local port=$1 nodeline node
  # The first line of `slurmd -C` is this machine's node line (NodeName=<host> CPUs=...
  # RealMemory=...); its second line (UpTime=) is not configuration.
  nodeline=$(slurmd -C | head -1)
  case "$nodeline" in NodeName=*) ;; *) die "slurmd -C printed no node line: $nodeline" ;; esac
  node=${nodeline%% *}
  node=${node#NodeName=}
  echo "$node" >"$D/etc/nodename"
  : >"$D/etc/plugstack.conf"
  # slurmd 22.05 initialises a cgroup plugin whatever the proctrack and task plugins are, and
  # its default (autodetect) fails where /sys/fs/cgroup is missing or unusual (chroots, some
  # containers: "cgroup filesystem not mounted in /sys/fs/cgroup/"). Naming cgroup/v1 skips
  # the detection; with proctrack/linuxproc and task/none nothing ever uses it. (The plugin
  # cannot be disabled before Slurm 24.05.) slurmd reads cgroup.conf beside slurm.conf.
  cat >"$D/etc/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupAutomount=no
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainSwapSpace=no
ConstrainDevices=no
EOF
  cat >"$CONF" <<EOF
# Written by trackink scripts/slurm/cluster.sh start: a one-node test cluster under $D.
ClusterName=trackinktest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
# cred_expire also sets how long a requeued job waits before it may start again (default
# 120 s; slurm.conf(5)): 10 s keeps the retry test short.
AuthInfo=socket=$SOCK,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.daemon.pid
SlurmdPidFile=$D/run/slurmd.daemon.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldDebug=${SLURM_DEBUG_LEVEL:-info}
SlurmdDebug=${SLURM_DEBUG_LEVEL:-info}
PlugStackConfig=$D/etc/plugstack.conf
MailProg=/bin/true
# No cgroups (containers): processes tracked by parent pid, tasks not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
# Schedule batch jobs as soon as they are submitted or resources free up (the default may
# delay them by up to 3 s each round; a test waits on several rounds), and test the whole
# queue every 2 s rather than 60 s: nothing else notices a requeued job's BeginTime passing.
SchedulerParameters=batch_sched_delay=0,sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Finished jobs stay visible to scontrol/squeue for 10 minutes (tests read their state).
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
$nodeline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

# launch NAME CMD...: run CMD in the foreground mode of the daemon, in a session of its own,
# its stdout/stderr to DIR/log/NAME.out (errors before the daemon opens its log file land
# there); record its pid in DIR/run/NAME.pid.
launch() {
  local name=$1; shift
  setsid "$@" </dev/null >>"$D/log/$name.out" 2>&1 &
  local pid=$!
  echo "$pid" >"$D/run/$name.pid"
  # setsid execs in place when the caller is not a process group leader (a background job of
  # a script never is); if it ever forked, $! would not be the daemon: refuse to go on.
  sleep 0.2
  if alive "$pid" && ! ours "$name" "$pid"; then
    die "$name: pid $pid is not the daemon (command line: $(cmdline "$pid")); not tracking it"
  fi
}

start_failed() {
  local rc=$?
  trap - EXIT
  if [ "$rc" -ne 0 ]; then
    log "start failed; the daemons' logs follow, then the started daemons are stopped"
    print_logs
    stop_all || true
    log "start failed (logs kept in $D/log)"
  fi
  exit "$rc"
}

cmd_start() {
  require_root
  set_dir "${1:-}"
  local timeout=${SLURM_START_TIMEOUT:-90} n
  for n in "${daemons[@]}"; do
    if ours "$n" "$(recorded_pid "$n")"; then
      die "$D already has a running $n (pid $(recorded_pid "$n")); run: $0 stop $D"
    fi
  done
  cmd_install
  # munged insists that the socket's directory be reachable (o+x) by everyone and that no
  # directory on the key's or the log's path be writable by others without the sticky bit.
  [ "${#SOCK}" -lt 100 ] || die "DIR is too long for a unix socket path ($SOCK); use a shorter one"
  chmod 755 "$D"
  local a=$D
  while [ "$a" != / ]; do
    a=$(dirname "$a")
    [ "$(( 0$(stat -c '%a' "$a") & 1 ))" -eq 1 ] || die "munged needs every directory above $D to be o+x; $a is not"
  done
  rm -rf "$D/state" "$D/spool" "$D/run" "$D/munge"
  mkdir -p "$D/etc" "$D/state" "$D/spool" "$D/log" "$D/run" "$D/munge"
  chmod 755 "$D/munge" "$D/etc" "$D/log"
  rm -f "$D"/log/*.out "$D"/log/*.log
  trap start_failed EXIT

  local port
  port=$(pick_ports)

  # munge: a fresh key for this cluster; its own socket (the cluster's AuthInfo names it).
  dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$D/munge/munge.key"
  launch munged munged -F --socket="$SOCK" --key-file="$D/munge/munge.key" \
    --pid-file="$D/run/munged.daemon.pid" --seed-file="$D/munge/munged.seed" \
    --log-file="$D/log/munged.log"
  local i ok=0
  for i in $(seq 1 100); do
    if munge -n -S "$SOCK" 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1; then ok=1; break; fi
    alive "$(recorded_pid munged)" || break
    sleep 0.1
  done
  [ "$ok" -eq 1 ] || die "munged did not come up (a credential could not be encoded and decoded through $SOCK)"

  write_config "$port"
  launch slurmctld slurmctld -D -f "$CONF"
  launch slurmd slurmd -D -f "$CONF"
  {
    echo "export SLURM_CONF=$CONF"
  } >"$D/env"

  local deadline=$((SECONDS + timeout)) st=""
  while [ "$SECONDS" -lt "$deadline" ]; do
    for n in "${daemons[@]}"; do
      alive "$(recorded_pid "$n")" || die "$n exited during start (pid $(recorded_pid "$n"))"
    done
    st=$(node_state)
    [ "$st" = idle ] && break
    sleep 0.5
  done
  [ "$st" = idle ] || die "node $(node_name) not idle after ${timeout}s (sinfo state: '${st:-no answer}')"
  trap - EXIT
  log "cluster up in $D: node $(node_name) idle, slurmctld on 127.0.0.1:$port (pids: munged $(recorded_pid munged), slurmctld $(recorded_pid slurmctld), slurmd $(recorded_pid slurmd))"
  log "clients: export SLURM_CONF=$CONF"
}

# ---------------------------------------------------------------------------- stop

# stop_all: cancel jobs while the controller runs, then stop slurmd, slurmctld and munged by
# their recorded pids (with their descendants, e.g. slurmctld's slurmscriptd), then the job
# steps our slurmd started (slurmstepd runs in a session of its own and outlives slurmd; it
# is recognised by holding our DIR's slurmd log open) with everything in their sessions.
stop_all() {
  local rc=0 n pid j p f
  if ours slurmctld "$(recorded_pid slurmctld)" && [ -f "$CONF" ]; then
    local jobs
    jobs=$(SLURM_CONF=$CONF timeout 10 squeue -h -o '%A' 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      log "cancelling jobs: $(echo $jobs)"
      # shellcheck disable=SC2086
      SLURM_CONF=$CONF timeout 10 scancel $jobs 2>/dev/null || true
      for j in $(seq 1 100); do
        [ -z "$(SLURM_CONF=$CONF timeout 10 squeue -h -t R,CG,S -o '%A' 2>/dev/null || true)" ] && break
        sleep 0.1
      done
    fi
  fi
  for n in slurmd slurmctld munged; do
    pid=$(recorded_pid "$n")
    [ -n "$pid" ] || continue
    if ours "$n" "$pid"; then
      local kids
      kids=$(descendants "$pid")
      # shellcheck disable=SC2086
      kill_pids "$n" 10 "$pid" || rc=1
      local left=()
      for p in $kids; do alive "$p" && left+=("$p"); done
      if [ "${#left[@]}" -gt 0 ]; then kill_pids "$n's children" 5 "${left[@]}" || rc=1; fi
    elif alive "$pid"; then
      log "pid $pid recorded for $n is another process now ($(cmdline "$pid")); not killing it"
    fi
    [ "$rc" -ne 0 ] || rm -f "$D/run/$n.pid"
  done
  # Job steps left behind (jobs that did not end when cancelled, or a dead slurmctld).
  local sids=() s
  for p in $(all_pids); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null || true)" = slurmstepd ] || continue
    alive "$p" || continue
    for f in /proc/"$p"/fd/*; do
      case "$(readlink "$f" 2>/dev/null || true)" in
        "$D"/*) s=$(stat_field "$p" 6) && sids+=("$s"); break ;;
      esac
    done
  done
  if [ "${#sids[@]}" -gt 0 ]; then
    local victims=()
    for p in $(all_pids); do
      alive "$p" || continue
      s=$(stat_field "$p" 6 2>/dev/null) || continue
      for j in "${sids[@]}"; do [ "$s" = "$j" ] && victims+=("$p"); done
    done
    log "stopping job steps left by slurmd: pids ${victims[*]}"
    # slurmstepd ignores SIGTERM (it expects slurmd to tell it what to do): short grace.
    kill_pids "job steps" 1 "${victims[@]}" || rc=1
  fi
  return "$rc"
}

cmd_stop() {
  require_root
  set_dir "${1:-}"
  if [ ! -d "$D/run" ]; then
    log "$D has no run/ directory: no cluster was started there; nothing to stop"
    return 0
  fi
  stop_all || die "some processes of the cluster in $D could not be stopped (see above)"
  log "stopped the cluster in $D"
}

# ---------------------------------------------------------------------------- status

cmd_status() {
  set_dir "${1:-}"
  local rc=0 n pid st
  for n in "${daemons[@]}"; do
    pid=$(recorded_pid "$n")
    if ours "$n" "$pid"; then
      echo "$n: running (pid $pid)"
    else
      echo "$n: not running${pid:+ (recorded pid $pid)}"
      rc=1
    fi
  done
  if ours slurmctld "$(recorded_pid slurmctld)"; then
    SLURM_CONF=$CONF timeout 10 sinfo || rc=1
    st=$(node_state)
    case "$st" in idle|mixed|allocated|completing) ;; *) echo "node state: '${st:-no answer}'"; rc=1 ;; esac
  fi
  return "$rc"
}

# ---------------------------------------------------------------------------- main

[ "$#" -ge 1 ] || usage
sub=$1; shift
case "$sub" in
  install) [ "$#" -eq 0 ] || usage; cmd_install ;;
  start) [ "$#" -eq 1 ] || usage; cmd_start "$1" ;;
  stop) [ "$#" -eq 1 ] || usage; cmd_stop "$1" ;;
  status) [ "$#" -eq 1 ] || usage; cmd_status "$1" ;;
  env) [ "$#" -eq 1 ] || usage; set_dir "$1"; [ -f "$CONF" ] || die "no cluster config in $D"; echo "export SLURM_CONF=$CONF" ;;
  logs) [ "$#" -eq 1 ] || usage; set_dir "$1"; print_logs 2>&1 ;;
  -h|--help|help) usage 0 ;;
  *) echo "$prog: unknown subcommand '$sub'" >&2; usage ;;
esac
