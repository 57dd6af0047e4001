#!/usr/bin/env bash
# selftest.sh: proves that the one-node cluster of cluster.sh works the way issue #15 needs.
#
#   selftest.sh [--keep] [DIR]
#
# Starts a cluster under DIR (default: a new temporary directory), then, each in a directory
# of its own:
#   1. ok       an array of 4 tasks, each writing out/seg-<SLURM_ARRAY_TASK_ID> atomically
#               (temporary file + rename), and a join job with --dependency=afterok:<array>
#               that checks the 4 segments and writes result; checks result and the states.
#   2. fail     task 2 of the array fails after writing a partial temporary file: the afterok
#               join never runs (it stays PENDING with Reason=DependencyNeverSatisfied), a
#               second join submitted with --kill-on-invalid-dep=yes is CANCELLED by Slurm,
#               and no seg-2 is visible.
#   3. requeue  task 1 (--requeue) is killed mid-write on its first attempt by `scontrol
#               requeue`; the retry (SLURM_RESTART_COUNT=1) removes the partial file and
#               writes the segment; the join runs once, after the retry, with the right
#               result. Then a completed task is requeued: it rewrites its segment byte for
#               byte, and a second join gives the same result.
# and stops the cluster (by pid), whatever happens. On failure it prints the daemons' logs
# and the jobs' output, keeps DIR, and exits 1. Times are printed at the end.
#
# Environment: SELFTEST_WAIT (seconds any one wait may take, default 120), and those of
# cluster.sh (SLURM_START_TIMEOUT, SLURM_PORT_BASE).
set -euo pipefail

prog=selftest.sh
here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/cluster.sh
wait_max=${SELFTEST_WAIT:-120}

keep=0
args=()
for a in "$@"; do
  case "$a" in
    --keep) keep=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$prog: unknown option $a" >&2; exit 2 ;;
    *) args+=("$a") ;;
  esac
done
[ "${#args[@]}" -le 1 ] || { echo "$prog: at most one DIR" >&2; exit 2; }
if [ "${#args[@]}" -eq 1 ]; then
  mkdir -p "${args[0]}"
  D=$(realpath "${args[0]}")
  made_dir=0
else
  D=$(mktemp -d /tmp/trackink-slurm.XXXXXX)
  made_dir=1
fi

t0=$SECONDS
t_start=0 t_tests=0 t_stop=0
failed=0
log() { echo "$prog: $*" >&2; }
fail() { echo "$prog: FAIL: $*" >&2; failed=1; exit 1; }

finish() {
  local rc=$?
  trap - EXIT
  [ "$failed" -eq 1 ] || [ "$rc" -eq 0 ] || log "FAIL: exit status $rc (see above)"
  if [ "$rc" -ne 0 ] && [ -f "$D/etc/slurm.conf" ]; then
    echo "===== jobs =====" >&2
    SLURM_CONF=$D/etc/slurm.conf timeout 10 scontrol -o show job >&2 2>&1 || true
    local f
    for f in "$D"/t/*/logs/*; do
      [ -f "$f" ] || continue
      echo "===== $f =====" >&2
      tail -n 30 "$f" >&2
    done
    "$cluster" logs "$D" >&2 || true
  fi
  local ts=$SECONDS
  if ! "$cluster" stop "$D"; then
    log "FAIL: could not stop the cluster in $D"
    rc=1
  fi
  t_stop=$((SECONDS - ts))
  if [ "$rc" -eq 0 ]; then
    log "PASS: start ${t_start}s, tests ${t_tests}s, stop ${t_stop}s, total $((SECONDS - t0))s"
    if [ "$keep" -eq 0 ] && [ "$made_dir" -eq 1 ]; then rm -rf "$D"; fi
  else
    log "FAIL (cluster directory kept: $D)"
  fi
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

ts=$SECONDS
"$cluster" start "$D"
t_start=$((SECONDS - ts))
export SLURM_CONF=$D/etc/slurm.conf

# ---------------------------------------------------------------------------- helpers

# job_lines ID: one line per job (or array task) of ID, from scontrol (finished jobs stay
# visible: MinJobAge=600 in the cluster's config).
job_lines() { timeout 10 scontrol -o show job "$1" 2>/dev/null || true; }

# field LINE NAME: the value of NAME=... in a scontrol -o line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }

# task_state ARRAY TASK: the state of one array task ("" while the array is one pending record).
task_state() {
  local l
  while IFS= read -r l; do
    [ "$(field "$l" ArrayTaskId)" = "$2" ] && { field "$l" JobState; return 0; }
  done < <(job_lines "$1")
  return 0
}

# job_state ID: the state of a plain job.
job_state() { field "$(job_lines "$1" | head -1)" JobState; }

# wait_for WHAT CMD...: run CMD every half second until it succeeds, at most $wait_max s.
wait_for() {
  local what=$1; shift
  local deadline=$((SECONDS + wait_max))
  while [ "$SECONDS" -lt "$deadline" ]; do
    "$@" && return 0
    sleep 0.5
  done
  fail "timed out after ${wait_max}s waiting for $what"
}

terminal() { case "$1" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) return 0 ;; esac; return 1; }

# array_done ARRAY: every one of the 4 tasks is in a terminal state.
array_done() {
  local i s
  for i in 0 1 2 3; do
    s=$(task_state "$1" "$i")
    terminal "$s" || return 1
  done
}

job_done() { terminal "$(job_state "$1")"; }

expect_task() {
  local s
  s=$(task_state "$1" "$2")
  [ "$s" = "$3" ] || fail "array $1 task $2: state $s, want $3"
}

expect_job() {
  local s
  s=$(job_state "$1")
  [ "$s" = "$2" ] || fail "job $1: state $s, want $2 ($(job_lines "$1"))"
}

submit() {
  local id
  id=$(sbatch --parsable "$@") || fail "sbatch $* failed"
  id=${id%%;*}
  [[ "$id" =~ ^[0-9]+$ ]] || fail "sbatch printed '$id', not a job id"
  echo "$id"
}

# The array task: writes out/seg-<task id> atomically. MODE fail:N makes task N fail after a
# partial write; MODE block:N makes task N's first attempt write part of its file and then
# wait to be killed (by the test's scontrol requeue).
write_task_script() {
  cat >"$1" <<'EOF'
#!/bin/bash
set -euo pipefail
w=$1 mode=$2
id=$SLURM_ARRAY_TASK_ID
attempt=${SLURM_RESTART_COUNT:-0}
echo "task=$id attempt=$attempt job=$SLURM_JOB_ID" >>"$w/attempts"
final=$w/out/seg-$id
# Partial files of earlier attempts of this task (killed mid-write) are ours to remove.
rm -f "$w/out/.seg-$id.tmp."*
tmp=$w/out/.seg-$id.tmp.$SLURM_JOB_ID.$attempt
case "$mode" in
  fail:"$id") echo "partial" >"$tmp"; echo "task $id failing on purpose" >&2; exit 3 ;;
  block:"$id")
    if [ "$attempt" -eq 0 ]; then
      echo "partial" >"$tmp"
      touch "$w/blocked-$id"
      sleep 600
      exit 4
    fi ;;
esac
printf 'segment %s of %s (array %s)\n' "$id" "$SLURM_ARRAY_TASK_COUNT" "$SLURM_ARRAY_JOB_ID" >"$tmp"
mv -f "$tmp" "$final"
EOF
  chmod +x "$1"
}

# The join: all 4 segments must be there; result written atomically; a marker per run.
write_join_script() {
  cat >"$1" <<'EOF'
#!/bin/bash
set -euo pipefail
w=$1 name=$2
echo "$SLURM_JOB_ID" >>"$w/join-ran-$name"
for i in 0 1 2 3; do
  [ -f "$w/out/seg-$i" ] || { echo "join: segment $i missing" >&2; exit 1; }
done
cat "$w"/out/seg-0 "$w"/out/seg-1 "$w"/out/seg-2 "$w"/out/seg-3 >"$w/.$name.tmp.$SLURM_JOB_ID"
mv -f "$w/.$name.tmp.$SLURM_JOB_ID" "$w/$name"
EOF
  chmod +x "$1"
}

# setup NAME: a fresh test directory; prints its path.
setup() {
  local w=$D/t/$1
  rm -rf "$w"
  mkdir -p "$w/out" "$w/logs"
  write_task_script "$w/task.sh"
  write_join_script "$w/join.sh"
  : >"$w/attempts"
  echo "$w"
}

expected_result() {
  local i
  for i in 0 1 2 3; do printf 'segment %s of 4 (array %s)\n' "$i" "$1"; done
}

no_tmp_left() {
  local left
  left=$(find "$1/out" -name '.seg-*.tmp.*' | sort)
  [ -z "$left" ] || fail "partial files left in $1/out: $left"
}

count_lines() { grep -c -- "$2" "$1" || true; }

# ---------------------------------------------------------------------------- 1. ok

ts=$SECONDS
log "1. array of 4 + afterok join"
w=$(setup ok)
A=$(submit --array=0-3 --requeue -J seg -o "$w/logs/%A_%a.out" "$w/task.sh" "$w" ok)
J=$(submit --dependency=afterok:"$A" --kill-on-invalid-dep=yes -J join -o "$w/logs/join_%j.out" "$w/join.sh" "$w" result)
wait_for "join $J to finish" job_done "$J"
for i in 0 1 2 3; do expect_task "$A" "$i" COMPLETED; done
expect_job "$J" COMPLETED
[ -f "$w/result" ] || fail "join completed but wrote no result"
diff <(expected_result "$A") "$w/result" >&2 || fail "result differs from the expected segments (diff above)"
[ "$(count_lines "$w/attempts" 'attempt=0')" -eq 4 ] || fail "want 4 first attempts, attempts log: $(cat "$w/attempts")"
[ "$(wc -l <"$w/join-ran-result")" -eq 1 ] || fail "join ran $(wc -l <"$w/join-ran-result") times, want 1"
no_tmp_left "$w"
log "   ok: array $A completed, join $J wrote the 4 segments in order ($((SECONDS - ts))s)"

# ---------------------------------------------------------------------------- 2. fail

ts=$SECONDS
log "2. a failed task: the afterok join must not run"
w=$(setup fail)
A=$(submit --array=0-3 --requeue -J seg -o "$w/logs/%A_%a.out" "$w/task.sh" "$w" fail:2)
J1=$(submit --dependency=afterok:"$A" -J join -o "$w/logs/join_%j.out" "$w/join.sh" "$w" result)
J2=$(submit --dependency=afterok:"$A" --kill-on-invalid-dep=yes -J join -o "$w/logs/join_%j.out" "$w/join.sh" "$w" result2)
wait_for "array $A to finish" array_done "$A"
expect_task "$A" 2 FAILED
for i in 0 1 3; do expect_task "$A" "$i" COMPLETED; done
never() { [ "$(field "$(job_lines "$J1")" Reason)" = DependencyNeverSatisfied ]; }
wait_for "join $J1 to be marked DependencyNeverSatisfied" never
expect_job "$J1" PENDING
wait_for "join $J2 (--kill-on-invalid-dep=yes) to be cancelled" job_done "$J2"
expect_job "$J2" CANCELLED
[ ! -e "$w/join-ran-result" ] && [ ! -e "$w/join-ran-result2" ] || fail "a join ran although task 2 failed"
[ ! -e "$w/result" ] && [ ! -e "$w/result2" ] || fail "a result exists although task 2 failed"
[ ! -e "$w/out/seg-2" ] || fail "the failed task left a visible seg-2"
for i in 0 1 3; do [ -f "$w/out/seg-$i" ] || fail "seg-$i missing"; done
scancel "$J1"
wait_for "join $J1 to be cancelled" job_done "$J1"
expect_job "$J1" CANCELLED
log "   ok: task 2 FAILED; join $J1 stayed PENDING (DependencyNeverSatisfied) until cancelled, join $J2 was CANCELLED by Slurm; neither ran ($((SECONDS - ts))s)"

# ---------------------------------------------------------------------------- 3. requeue

ts=$SECONDS
log "3. a task killed mid-write and requeued; a finished task rerun"
w=$(setup requeue)
A=$(submit --array=0-3 --requeue -J seg -o "$w/logs/%A_%a.out" --open-mode=append "$w/task.sh" "$w" block:1)
J=$(submit --dependency=afterok:"$A" --kill-on-invalid-dep=yes -J join -o "$w/logs/join_%j.out" "$w/join.sh" "$w" result)
blocked() { [ -e "$w/blocked-1" ]; }
wait_for "task 1 to block mid-write" blocked
[ ! -e "$w/out/seg-1" ] || fail "seg-1 visible while task 1 is still writing it"
ls "$w"/out/.seg-1.tmp.* >/dev/null 2>&1 || fail "task 1's partial file is missing"
[ "$(job_state "$J")" = PENDING ] || fail "join $J is $(job_state "$J") while task 1 runs"
timeout 10 scontrol requeue "${A}_1" || fail "scontrol requeue ${A}_1 failed"
wait_for "join $J to finish" job_done "$J"
expect_job "$J" COMPLETED
for i in 0 1 2 3; do expect_task "$A" "$i" COMPLETED; done
diff <(expected_result "$A") "$w/result" >&2 || fail "result after the retry differs (diff above)"
grep -q '^task=1 attempt=0 ' "$w/attempts" && grep -q '^task=1 attempt=1 ' "$w/attempts" ||
  fail "task 1 should have run twice (attempts 0 and 1): $(cat "$w/attempts")"
[ "$(count_lines "$w/attempts" '^task=1 ')" -eq 2 ] || fail "task 1 ran $(count_lines "$w/attempts" '^task=1 ') times, want 2"
[ "$(wc -l <"$w/join-ran-result")" -eq 1 ] || fail "join ran $(wc -l <"$w/join-ran-result") times, want 1"
no_tmp_left "$w"
# A finished task run again (a retry after success) rewrites the same bytes.
cp -p "$w/out/seg-0" "$w/seg-0.before"
before_ino=$(stat -c %i "$w/out/seg-0")
timeout 10 scontrol requeue "${A}_0" || fail "scontrol requeue ${A}_0 (completed) failed"
rerun() { [ "$(count_lines "$w/attempts" '^task=0 ')" -ge 2 ] && [ "$(task_state "$A" 0)" = COMPLETED ]; }
wait_for "task 0 to run again" rerun
cmp "$w/seg-0.before" "$w/out/seg-0" || fail "rerun of task 0 changed seg-0"
[ "$(stat -c %i "$w/out/seg-0")" != "$before_ino" ] || fail "seg-0 was not rewritten by the rerun (same inode)"
J2=$(submit --dependency=afterok:"$A" --kill-on-invalid-dep=yes -J join -o "$w/logs/join_%j.out" "$w/join.sh" "$w" result2)
wait_for "join $J2 to finish" job_done "$J2"
expect_job "$J2" COMPLETED
cmp "$w/result" "$w/result2" || fail "the join after the rerun differs"
no_tmp_left "$w"
log "   ok: task 1 killed mid-write left no seg-1, its retry wrote it, join $J ran once after it; task 0 rerun rewrote identical bytes ($((SECONDS - ts))s)"

t_tests=$((SECONDS - t_start - t0))
