#!/usr/bin/env bash
# run.sh [--budget SECONDS] [--quick] REPORT_DIR: trackink's GPU validation kit (make
# gpu-kit). Copy the kit's folder to a machine with an NVIDIA GPU and its driver (CUDA's
# compute-sanitizer and cuobjdump on PATH are used when there) and run it; it needs no Go,
# no FFmpeg, no network and no root. It is made for a short lease: the whole run keeps
# within its budget (default 420 s) however a step hangs, and what comes back is two files.
#
# First, before anything runs, one line if this machine cannot run the kit at all (another
# architecture than the kit's, glibc older than the binaries need, an NVIDIA driver older
# than the kernels need). Then the
# steps, most valuable first, each under a time limit of its own (its share of the budget
# but at least 20 s, never past what is left of it):
#   doctor          the driver and device (trackink-cuda doctor), nvidia-smi, glibc, and
#                   whether the NVDEC and NVENC libraries are present
#   golden-cuda     every golden scene through the CUDA backend, against the stored pictures
#   test-PACKAGE    each test binary of the kit (go test -c -tags cuda), on the device
#   bench-seed      bench --scene seed --backend cpu,cuda (per-stage times; CUDA events), then
#                   --backend cuda --format device (a frame in GPU memory; the graph's figure)
#   render-nvdec    a render of the kit's clip with NVDEC, frames kept in GPU memory, NVENC
#                   where the card has it (else libx264); without libnvcuvid it decodes in
#                   software and uploads, and says so
#   bench-e2e       the whole render against a plain ffmpeg transcode of the same clip
#   sanitizer-*     compute-sanitizer memcheck, then racecheck, in whatever time is left; one
#                   the runtime refuses ("Device not supported") is "unavailable here"
# --quick runs doctor, golden-cuda and bench-seed only (under 2 minutes): the confirming
# second call of a lease. A step with no time left is listed "not run: budget"; a step that
# outlives its limit is killed (its process group: SIGTERM, then SIGKILL) and, should even
# that not end it (a process stuck in the driver), left behind.
#
# REPORT_DIR receives report.txt (printed at the end too) and report.tar.gz (every log, the
# JSON of each step and report.json). When the CUDA device is trackink's fake driver
# (kernels emulated on the CPU; make gpu-kit-test) the report says "fake driver": such a run
# proves the kit, not a GPU. Exit status: 0 when every step ran and none failed (a step
# whose tool is missing or refused is listed, not failed), 1 when one failed, the budget
# left steps out, run.sh was interrupted or the machine cannot run the kit, 2 on a usage
# error.
# (No `set -e`: a failing step is recorded and the next one runs.)
set -uo pipefail

usage() {
  echo "usage: run.sh [--budget SECONDS] [--quick] REPORT_DIR   (report.txt and report.tar.gz go there)" >&2
  exit 2
}
budget=420
quick=0
report_arg=""
while [ $# -gt 0 ]; do
  case $1 in
    --budget)
      [ $# -ge 2 ] || usage
      budget=$2
      shift 2
      ;;
    --budget=*) budget=${1#--budget=}; shift ;;
    --quick) quick=1; shift ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *)
      [ -z "$report_arg" ] || usage
      report_arg=$1
      shift
      ;;
  esac
done
[ -n "$report_arg" ] || usage
if ! [[ $budget =~ ^[0-9]+$ ]] || [ "$budget" -lt 10 ]; then
  echo "run.sh: --budget takes whole seconds, at least 10 (got $budget)" >&2
  exit 2
fi

start=$(date +%s)
deadline=$((start + budget))
# reserve: seconds kept back from the steps for the report and the archive.
reserve=4
kit=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$report_arg" || exit 2
report=$(cd "$report_arg" && pwd)
rm -f "$report/report.txt" "$report/report.tar.gz"
# The logs and JSON gather in out/ and leave as one archive.
out=$(mktemp -d "$report/.kit-report.XXXXXX") || exit 1
mkdir -p "$out/logs"
work=""
cleanup() { rm -rf "$out" ${work:+"$work"}; }
trap cleanup EXIT

# version_lt A B: version A is older than B (sort -V order).
version_lt() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -1)" = "$1" ]; }

# refuse MESSAGE: the first line of the output and of report.txt, then exit 1.
refuse() {
  echo "run.sh: $*"
  { echo "$*"; echo "Nothing was run."; } >"$report/report.txt"
  exit 1
}

# --- before anything: can this machine run the kit at all ---------------------------------
# The kit's architecture (uname -m's name), and which kit the machine wants instead.
kit_machine=$(cat "$kit/ARCH" 2>/dev/null || echo x86_64)
have_machine=$(uname -m)
if [ "$have_machine" != "$kit_machine" ]; then
  case $have_machine in
    x86_64) other="make gpu-kit" ;;
    aarch64) other="make gpu-kit ARCH=arm64" ;;
    *) other="" ;;
  esac
  refuse "this kit is for $kit_machine and this machine is $have_machine: its binaries cannot run here${other:+ (the $have_machine kit: $other)}"
fi
need_glibc=$(cat "$kit/GLIBC" 2>/dev/null || echo 2.31)
have_glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -z "$have_glibc" ]; then
  refuse "this machine has no glibc (musl?): the kit's binaries need glibc $need_glibc or newer"
elif version_lt "$have_glibc" "$need_glibc"; then
  refuse "this machine's glibc $have_glibc is older than the kit needs ($need_glibc or newer): its binaries cannot start here"
fi
# The kernels are built by CUDA 11.8 (SASS for sm_75 to sm_90 and compute_90 PTX); CUDA 11's
# minor-version compatibility runs them on drivers from 450.80.02 on.
need_driver=450.80.02
have_driver=$(sed -n 's/.*Kernel Module *\([0-9][0-9.]*\).*/\1/p' /proc/driver/nvidia/version 2>/dev/null | head -1)
if [ -n "$have_driver" ] && version_lt "$have_driver" "$need_driver"; then
  refuse "this machine's NVIDIA driver $have_driver is older than the kernels need ($need_driver or newer, CUDA 11.8)"
fi

[ -f "$kit/payload.tar.gz" ] || { echo "run.sh: $kit/payload.tar.gz is missing: copy the whole gpu-kit folder" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/trackink-kit.XXXXXX") || exit 1
echo "run.sh: budget $budget s$([ "$quick" -eq 1 ] && echo ", quick"); unpacking the kit into $work"
tar -C "$work" -xzf "$kit/payload.tar.gz" || { echo "run.sh: cannot unpack $kit/payload.tar.gz" >&2; exit 1; }
machine_ffmpeg=$(command -v ffmpeg || true)
export PATH=$work/bin:$PATH
# The golden scenes' fonts, for a machine without their Debian packages. The kit carries no
# footage (Debian's opencv-doc clip): the scenes drawn on it are skipped, saying so.
export TRACKINK_FONTS=$work/fonts TRACKINK_FOOTAGE=$work/no-footage
tk=$work/bin/trackink-cuda
goldens=$work/src/goldens/testdata
clip=$work/clip.mp4

# JSON helpers: a string, and a file's JSON (or null when it is missing or empty).
json_str() {
  local s
  s=$(printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037')
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  s=${s//$'\r'/}
  printf '"%s"' "$s"
}
json_file() { if [ -s "$1" ]; then tr '\n' ' ' <"$1"; else printf null; fi; }

names=() statuses=() codes=() secs=() details=() commands=() logs=() limits=()
n=0
failed=0
cut=0 # steps not run for want of time
interrupted=""

# record NAME STATUS EXIT SECONDS LIMIT DETAIL COMMAND LOG: one row of the report.
record() {
  names+=("$1") statuses+=("$2") codes+=("$3") secs+=("$4") limits+=("$5") details+=("$6") commands+=("$7") logs+=("$8")
  [ "$2" = failed ] && failed=$((failed + 1))
  if [ "$2" = "not run" ]; then
    printf '[%02d] %-22s not run: %s\n' "$n" "$1" "$6"
  else
    printf '[%02d] %-22s %s (exit %s, %s s of %s)%s\n' "$n" "$1" "$2" "$3" "$4" "$5" "${6:+: $6}"
  fi
}

# run_limited LIMIT LOG COMMAND...: runs COMMAND in a process group of its own (timeout's),
# its output appended to LOG, and returns its status: 124 when LIMIT ran out (SIGTERM, then
# SIGKILL 3 s later), 125 when even that did not end it within 3 s more, which is then left
# behind: a process stuck in the driver must not hold the run.
run_limited() {
  local limit=$1 log=$2
  shift 2
  timeout -k 3 "$limit" "$@" >>"$log" 2>&1 </dev/null &
  local pid=$! hard=$(($(date +%s) + limit + 6))
  while kill -0 "$pid" 2>/dev/null; do
    if [ -n "$interrupted" ] && [ "$hard" -gt $(($(date +%s) + 4)) ]; then
      kill -TERM -- "-$pid" 2>/dev/null
      hard=$(($(date +%s) + 4))
    fi
    if [ "$(date +%s)" -ge "$hard" ]; then
      kill -KILL -- "-$pid" 2>/dev/null
      echo "run.sh: still running $((limit + 6)) s after the start; left behind" >>"$log"
      return 125
    fi
    sleep 0.2
  done
  wait "$pid"
}

# step NAME SHARE CHECK COMMAND...: runs COMMAND under a limit of SHARE percent of the
# budget (at least 20 s, at most what is left of it), its output in logs/NN-NAME.log;
# then CHECK (or -) reads what it wrote and prints one line, failing the step when it
# returns 1, or marking it "unavailable" (refused by the machine, not failed) when it
# returns 3.
step() {
  local name=$1 share=$2 check=$3
  shift 3
  n=$((n + 1))
  if [ -n "$interrupted" ]; then
    record "$name" "not run" -1 0 0 "$interrupted" "$*" ""
    return
  fi
  local left=$((deadline - reserve - $(date +%s)))
  local limit=$((budget * share / 100))
  [ "$limit" -lt 20 ] && limit=20 # a share of a short budget is still time to start a program
  [ "$limit" -gt "$left" ] && limit=$left
  if [ "$limit" -lt 3 ]; then
    record "$name" "not run" -1 0 0 budget "$*" ""
    cut=$((cut + 1))
    return
  fi
  local log
  log=$out/logs/$(printf '%02d' "$n")-${name//\//-}.log # a package path names a file
  { echo "\$ $*"; echo "(limit $limit s)"; echo; } >"$log"
  local t0 t1 rc detail="" status=ok crc=0
  t0=$(date +%s.%N)
  run_limited "$limit" "$log" "$@"
  rc=$?
  t1=$(date +%s.%N)
  [ "$rc" -ne 0 ] && status=failed
  if [ "$check" != - ]; then
    detail=$("$check" "$log" "$rc")
    crc=$?
    case $crc in
      0) ;;
      3) status=unavailable ;;
      *) status=failed ;;
    esac
  fi
  case $rc in
    124) status=failed detail="timed out: killed at its limit of $limit s${detail:+; $detail}" ;;
    125) status=failed detail="hung: not ended by SIGKILL, left behind after $((limit + 6)) s${detail:+; $detail}" ;;
  esac
  record "$name" "$status" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')" "$limit" \
    "$detail" "$*" "logs/${log##*/}"
}

# A signal to run.sh itself (the lease ending) stops the current step (run_limited sees
# it within 0.2 s) and still writes the report, the steps not reached listed as such.
on_signal() { interrupted="interrupted (run.sh got $1)"; }
trap 'on_signal SIGTERM' TERM
trap 'on_signal SIGINT' INT
trap 'on_signal SIGHUP' HUP

# --- 1. doctor: driver, device, glibc, NVDEC and NVENC --------------------------------------
# has_lib NAME: the dynamic loader would find NAME (ldconfig's cache, LD_LIBRARY_PATH, or the
# directories NVIDIA's container toolkit mounts the driver into).
has_lib() {
  local d
  if { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q "[[:space:]]$1 "; then return 0; fi
  local IFS=:
  for d in ${LD_LIBRARY_PATH:-} /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/lib/wsl/lib; do
    [ -n "$d" ] && [ -e "$d/$1" ] && return 0
  done
  return 1
}
nvdec_lib=missing
nvenc_lib=missing
has_lib libnvcuvid.so.1 && nvdec_lib=present
has_lib libnvidia-encode.so.1 && nvenc_lib=present
doctor_cmd() {
  echo "glibc: $have_glibc (the kit needs $need_glibc or newer)"
  echo "NVIDIA kernel module: ${have_driver:-none found in /proc/driver/nvidia/version}"
  echo "libnvcuvid.so.1 (NVDEC): $nvdec_lib"
  echo "libnvidia-encode.so.1 (NVENC): $nvenc_lib"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
    nvidia-smi
  else
    echo "nvidia-smi: not found"
  fi
  echo
  "$tk" doctor
}
doctor_check() {
  local g
  g=$(sed -n 's/^GPU 0: //p' "$1")
  echo "GPU 0: ${g:-none}; glibc $have_glibc; NVDEC library $nvdec_lib, NVENC library $nvenc_lib"
  [ -n "$g" ]
}
export -f doctor_cmd
export have_glibc need_glibc have_driver nvdec_lib nvenc_lib tk
step doctor 8 doctor_check bash -c doctor_cmd
gpu=""
[ -n "${logs[-1]}" ] && gpu=$(sed -n 's/^GPU 0: //p' "$out/${logs[-1]}")
driver=none
if grep -q 'fake CUDA driver' <<<"$gpu"; then
  driver=fake
elif [ -n "$gpu" ]; then
  driver=nvidia
fi

# --- 2. goldens on the CUDA backend ---------------------------------------------------------
golden_check() { grep -m1 'golden scenes passed\|golden scenes failed' "$1"; }
step golden-cuda 15 golden_check "$tk" golden --backend cuda --dir "$goldens" --out "$out/golden-failures"

# --- 3. the test binaries -------------------------------------------------------------------
tests_check() {
  local p f s
  p=$(grep -c -- '^--- PASS\|^    --- PASS' "$1")
  f=$(grep -c -- '--- FAIL' "$1")
  s=$(grep -c -- '--- SKIP' "$1")
  echo "$p passed, $f failed, $s skipped"
  [ "$f" -eq 0 ] && [ "$2" -eq 0 ]
}
# Each runs in its package's directory, as go test does. The kit's FFmpeg is static
# (TRACKINK_STATIC_FFMPEG); with cuobjdump at hand the fatbin's entry points are checked too.
fatbin_env=()
if command -v cuobjdump >/dev/null; then fatbin_env=(TRACKINK_REQUIRE_FATBIN=1); fi
if [ "$quick" -eq 0 ]; then
  while IFS= read -r t; do
    rel=${t#"$work"/src/}
    step "test-${rel%/*}" 12 tests_check env -C "${t%/*}" TRACKINK_STATIC_FFMPEG=1 "${fatbin_env[@]}" \
      "$t" -test.v -test.count=1
  done < <(find "$work/src" -name '*.test' -type f | sort)
fi

# --- 4. the seed benchmark, CPU and CUDA ----------------------------------------------------
# The CPU and the CUDA backend on host frames (the CUDA one copying each frame in and out),
# then the CUDA backend on a frame in GPU memory, as NVDEC leaves it: its graph figure is the
# overlay as a render with NVDEC draws it (bench --format device).
# On the fake driver, whose kernels are emulated on the CPU (about 0.4 s a 4K frame), one
# timed frame a pass: it proves the step, and its times mean nothing.
bench_frames=30
[ "$driver" = fake ] && bench_frames=1
bench_cmd() {
  "$tk" bench --scene seed --backend cpu,cuda --frames "$bench_frames" --json &&
    "$tk" bench --scene seed --backend cuda --format device --frames "$bench_frames" --json
}
bench_check() {
  grep '^{' "$1" >"$out/bench.jsonl"
  local line parts=() graph=""
  while IFS= read -r line; do
    if grep -q '"format":"device"' <<<"$line"; then
      graph=$(grep -o '"graph_total_median_ms":[0-9.]*' <<<"$line" | cut -d: -f2)
      continue
    fi
    parts+=("$(grep -o '"backend":"[^"]*"' <<<"$line" | cut -d'"' -f4) $(grep -o '"total_median_ms":[0-9.]*' <<<"$line" | cut -d: -f2) ms")
  done <"$out/bench.jsonl"
  local joined
  joined=$(printf '%s, ' "${parts[@]}")
  echo "median per frame: ${joined%, }; frame in GPU memory, graph: ${graph:-none} ms"
  [ ${#parts[@]} -eq 2 ] && [ -n "$graph" ]
}
export -f bench_cmd
export bench_frames
step bench-seed 15 bench_check bash -c bench_cmd

if [ "$quick" -eq 0 ]; then
  # --- 5. NVDEC, frames in GPU memory, NVENC or libx264 -------------------------------------
  # field FILE NAME: a number or string field of the JSON trackink writes.
  field() { sed -n 's/^ *"'"$2"'": *"\{0,1\}\([^",]*\)"\{0,1\},\{0,1\}$/\1/p' "$1" | head -1; }
  render_check() {
    local s=$out/render-stats.json frames dev enc hw nvdec=yes
    [ -s "$s" ] || { echo "no stats written"; return 1; }
    frames=$(field "$s" frames) dev=$(field "$s" device_overlay_frames)
    enc=$(field "$s" encoder) hw=$(field "$s" hwaccel)
    # Where NVDEC cannot start (no libnvcuvid: a container without the driver's video
    # libraries, or the fake driver) trackink decodes in software and uploads each frame,
    # which is still --hwaccel cuda; nvdec_frames counts the frames NVDEC decoded.
    if [ "$(field "$s" nvdec_frames)" != "$frames" ]; then
      nvdec="no ($(field "$s" nvdec_frames) of $frames frames; the rest decoded in software and uploaded"
      [ "$nvdec_lib" = missing ] && nvdec+=": libnvcuvid.so.1 is missing here"
      nvdec+=")"
    fi
    echo "$frames frames, $dev drawn in GPU memory, NVDEC $nvdec, encoder $enc"
    [ -n "$frames" ] && [ "$frames" -gt 0 ] && [ "$dev" = "$frames" ] && [ "$hw" = cuda ] &&
      { [ "$nvdec" = yes ] || [ "$nvdec_lib" = missing ] || [ "$driver" = fake ]; }
  }
  step render-nvdec 10 render_check "$tk" render -i "$clip" --scene seed --backend cuda --hwaccel cuda \
    --encoder auto --stats-json "$out/render-stats.json" -o "$work/render.mp4" -y

  # --- 6. a whole render against a plain ffmpeg transcode -----------------------------------
  if [ -n "$machine_ffmpeg" ]; then
    plain=$machine_ffmpeg
    plain_what="this machine's ffmpeg"
  else
    plain=$work/bin/ffmpeg
    plain_what="the kit's ffmpeg (this machine has none)"
  fi
  plain_version=$("$plain" -version 2>/dev/null | head -1)
  e2e_check() {
    grep '^{' "$1" >"$out/e2e.json"
    local ratio
    ratio=$(grep -o '"ratio":[0-9.e+-]*' "$out/e2e.json" | cut -d: -f2)
    printf 'wall time ours / plain ffmpeg: %.2f (reference: %s)\n' "${ratio:-0}" "$plain_what"
    [ -n "$ratio" ]
  }
  # --no-twin: the twin renders the clip once more, losslessly; the kit times the GPU path.
  step bench-e2e 12 e2e_check env TRACKINK_FFMPEG="$plain" "$tk" bench --e2e "$clip" --backend cuda --no-twin --json

  # --- 7. compute-sanitizer, in the time left -----------------------------------------------
  # A sanitizer that ran prints its summary; one that exits without one was refused by the
  # runtime (some GPU containers: "Device not supported"): unavailable here, not a failure.
  sanitizer_check() {
    local summary
    summary=$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$1")
    if [ -z "$summary" ] && [ "$2" -ne 0 ] && [ "$2" -ne 124 ] && [ "$2" -ne 125 ]; then
      echo "unavailable here: $(grep -m1 -i 'error\|not supported\|unable' "$1" | sed 's/^=* *//')"
      return 3
    fi
    echo "${summary#========= }"
    [ "$2" -eq 0 ]
  }
  for tool in memcheck racecheck; do
    if command -v compute-sanitizer >/dev/null; then
      step "sanitizer-$tool" 40 sanitizer_check compute-sanitizer --tool "$tool" --error-exitcode 1 \
        "$tk" golden --backend cuda --dir "$goldens" --out "$work/golden-$tool"
    else
      n=$((n + 1))
      record "sanitizer-$tool" unavailable -1 0 0 "compute-sanitizer not found" "" ""
    fi
  done
fi

# --- the report -----------------------------------------------------------------------------
version=$(cat "$work/VERSION" 2>/dev/null || echo unknown)
passed=0 other=0
for s in "${statuses[@]}"; do
  case $s in ok) passed=$((passed + 1)) ;; failed) ;; *) other=$((other + 1)) ;; esac
done
case $driver in
  fake) drivernote="fake driver: trackink's fake CUDA driver (kernels emulated on the CPU) answered, not a GPU; this run proves the kit, not the CUDA path" ;;
  nvidia) drivernote="NVIDIA driver, GPU 0: $gpu" ;;
  *) drivernote="no CUDA device: trackink-cuda found no usable driver (see logs/01-doctor.log)" ;;
esac
took=$(($(date +%s) - start))
{
  echo "trackink GPU kit $version, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(uname -sr))"
  echo "$drivernote"
  echo
  for i in "${!names[@]}"; do
    if [ "${statuses[$i]}" = "not run" ]; then
      printf '%02d %-22s not run: %s\n' "$((i + 1))" "${names[$i]}" "${details[$i]}"
    else
      printf '%02d %-22s %-11s exit %-3s %6s s of %-4s %s\n' "$((i + 1))" "${names[$i]}" "${statuses[$i]}" \
        "${codes[$i]}" "${secs[$i]}" "${limits[$i]}" "${details[$i]}"
    fi
  done
  echo
  echo "$passed passed, $failed failed, $other not run or unavailable; $took s of a $budget s budget${interrupted:+; $interrupted}"
  [ "$quick" -eq 0 ] && echo "bench --e2e reference: $plain_what: $plain_version"
  echo "every log and the JSON: report.tar.gz"
} >"$out/report.txt"
{
  printf '{\n  "kit_version": %s,\n  "date": %s,\n  "host": %s,\n  "driver": %s,\n  "driver_note": %s,\n  "gpu": %s,\n' \
    "$(json_str "$version")" "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(json_str "$(uname -n) $(uname -sr)")" \
    "$(json_str "$driver")" "$(json_str "$drivernote")" "$(json_str "$gpu")"
  printf '  "glibc": %s,\n  "nvdec_library": %s,\n  "nvenc_library": %s,\n' "$(json_str "$have_glibc")" \
    "$(json_str "$nvdec_lib")" "$(json_str "$nvenc_lib")"
  printf '  "budget_seconds": %d,\n  "seconds": %d,\n  "quick": %s,\n' "$budget" "$took" "$([ "$quick" -eq 1 ] && echo true || echo false)"
  printf '  "passed": %d,\n  "failed": %d,\n  "other": %d,\n  "steps": [\n' "$passed" "$failed" "$other"
  for i in "${!names[@]}"; do
    [ "$i" -gt 0 ] && printf ',\n'
    printf '    {"name": %s, "status": %s, "exit": %s, "seconds": %s, "limit": %s, "detail": %s, "command": %s, "log": %s}' \
      "$(json_str "${names[$i]}")" "$(json_str "${statuses[$i]}")" "${codes[$i]}" "${secs[$i]}" "${limits[$i]}" \
      "$(json_str "${details[$i]}")" "$(json_str "${commands[$i]}")" "$(json_str "${logs[$i]}")"
  done
  printf '\n  ],\n  "bench": [%s],\n' "$(if [ -s "$out/bench.jsonl" ]; then paste -sd, "$out/bench.jsonl"; fi)"
  printf '  "render": %s,\n  "e2e": %s\n}\n' "$(json_file "$out/render-stats.json")" "$(json_file "$out/e2e.json")"
} >"$out/report.json"
cp "$out/report.txt" "$report/report.txt"
tar -C "$out" -czf "$report/report.tar.gz.partial" . && mv "$report/report.tar.gz.partial" "$report/report.tar.gz"
echo
cat "$report/report.txt"
[ "$failed" -eq 0 ] && [ "$cut" -eq 0 ] && [ -z "$interrupted" ]
