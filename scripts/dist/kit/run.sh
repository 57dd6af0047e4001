#!/usr/bin/env bash
# run.sh REPORT_DIR: trackink's GPU validation kit (make gpu-kit). Copy the kit's folder to a
# machine with an NVIDIA GPU and its driver (CUDA's compute-sanitizer and cuobjdump on PATH
# are used when there) and run it; it needs no Go, no FFmpeg, no network and no root. In
# order, each step logged with its exit status and time:
#   1. nvidia-smi
#   2. trackink-cuda doctor
#   3. every test binary of the kit (go test -c -tags cuda), on the device
#   4. trackink-cuda golden --backend cuda
#   5. trackink-cuda bench --scene seed --backend cpu,cuda (per-stage times; CUDA events)
#   6. a render of the kit's clip with NVDEC decoding and frames kept in GPU memory
#      (device_overlay_frames must equal frames), NVENC where the card has it, else libx264
#   7. compute-sanitizer memcheck, then racecheck, on golden --backend cuda
#   8. trackink-cuda bench --e2e on the clip against the machine's ffmpeg if it has one, else
#      against the kit's own (the same static FFmpeg as trackink's)
# The report goes to REPORT_DIR: report.txt, report.json, logs/ (one log per step) and the
# JSON the steps print. When the CUDA device is trackink's fake driver (kernels emulated on
# the CPU; make gpu-kit-test), the report says "fake driver": such a run proves the kit, not
# a GPU. Exit status: 0 when no step failed (a step whose tool is missing is skipped and
# listed), 1 when one did, 2 on a usage error.
# (No `set -e`: a failing step is recorded and the next one runs.)
set -uo pipefail

if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: run.sh REPORT_DIR   (the report and logs are written there)" >&2
  exit 2
fi
kit=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1/logs" || exit 2
report=$(cd "$1" && pwd)
rm -f "$report"/logs/*.log "$report"/report.txt "$report"/report.json "$report"/*.jsonl "$report"/*-stats.json
[ -f "$kit/payload.tar.gz" ] || { echo "run.sh: $kit/payload.tar.gz is missing: copy the whole gpu-kit folder" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/trackink-kit.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
echo "run.sh: unpacking the kit into $work"
tar -C "$work" -xzf "$kit/payload.tar.gz" || { echo "run.sh: cannot unpack $kit/payload.tar.gz" >&2; exit 1; }
machine_ffmpeg=$(command -v ffmpeg || true)
export PATH=$work/bin:$PATH
# The golden scenes' fonts, for a machine without their Debian packages.
export TRACKINK_FONTS=$work/fonts
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

names=() statuses=() codes=() secs=() details=() commands=() logs=()
n=0
failed=0
# step NAME DETAIL-FUNCTION COMMAND...: runs COMMAND, its output in logs/NN-NAME.log; then
# DETAIL-FUNCTION (or -) checks what it wrote and prints one line, failing the step when it
# returns non-zero.
step() {
  local name=$1 check=$2
  shift 2
  n=$((n + 1))
  local log
  log=$report/logs/$(printf '%02d' "$n")-${name//\//-}.log # a package path names a file
  printf '[%02d] %-22s ' "$n" "$name"
  local t0 t1 rc detail=""
  t0=$(date +%s.%N)
  { echo "\$ $*"; echo; } >"$log"
  "$@" >>"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local status=ok
  if [ "$rc" -ne 0 ]; then status=failed; fi
  if [ "$check" != - ]; then
    if ! detail=$("$check" "$log" "$rc"); then status=failed; fi
  fi
  [ "$status" = failed ] && failed=$((failed + 1))
  names+=("$name") statuses+=("$status") codes+=("$rc") details+=("$detail") commands+=("$*") logs+=("logs/${log##*/}")
  secs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')")
  echo "$status (exit $rc, ${secs[-1]} s)${detail:+: $detail}"
}
skip() {
  n=$((n + 1))
  printf '[%02d] %-22s skipped: %s\n' "$n" "$1" "$2"
  names+=("$1") statuses+=(skipped) codes+=(-1) details+=("$2") commands+=("") secs+=(0) logs+=("")
}

# --- 1. the machine -----------------------------------------------------------------------
if command -v nvidia-smi >/dev/null; then
  smi() { nvidia-smi && nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv; }
  step nvidia-smi - smi
else
  skip nvidia-smi "nvidia-smi not found"
fi

# --- 2. doctor: which driver and device the kit runs on -----------------------------------
driver=none
doctor_check() {
  local g
  g=$(sed -n 's/^GPU 0: //p' "$1")
  echo "GPU 0: ${g:-none}; FFmpeg $(sed -n 's/^FFmpeg: \([^,]*\).*/\1/p' "$1")"
  [ -n "$g" ]
}
step doctor doctor_check "$tk" doctor
gpu=$(sed -n 's/^GPU 0: //p' "$report/${logs[-1]}")
if grep -q 'fake CUDA driver' <<<"$gpu"; then
  driver=fake
elif [ -n "$gpu" ]; then
  driver=nvidia
fi

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
while IFS= read -r t; do
  rel=${t#"$work"/src/}
  step "test-${rel%/*}" tests_check env -C "${t%/*}" TRACKINK_STATIC_FFMPEG=1 "${fatbin_env[@]}" \
    "$t" -test.v -test.count=1 -test.timeout=30m
done < <(find "$work/src" -name '*.test' -type f | sort)

# --- 4. goldens on the CUDA backend ---------------------------------------------------------
golden_check() { grep -m1 'golden scenes passed\|golden scenes failed' "$1"; }
step golden-cuda golden_check "$tk" golden --backend cuda --dir "$goldens" --out "$report/golden-failures"

# --- 5. the seed benchmark, CPU and CUDA ----------------------------------------------------
bench_check() {
  grep '^{' "$1" >"$report/bench.jsonl"
  local line out=()
  while IFS= read -r line; do
    out+=("$(grep -o '"backend":"[^"]*"' <<<"$line" | cut -d'"' -f4) $(grep -o '"total_median_ms":[0-9.]*' <<<"$line" | cut -d: -f2) ms")
  done <"$report/bench.jsonl"
  local joined
  joined=$(printf '%s, ' "${out[@]}")
  echo "median per frame: ${joined%, }"
  [ ${#out[@]} -eq 2 ]
}
step bench-seed bench_check "$tk" bench --scene seed --backend cpu,cuda --json

# --- 6. NVDEC, frames in GPU memory, NVENC or libx264 ---------------------------------------
# field FILE NAME: a number or string field of the JSON trackink writes.
field() { sed -n 's/^ *"'"$2"'": *"\{0,1\}\([^",]*\)"\{0,1\},\{0,1\}$/\1/p' "$1" | head -1; }
render_check() {
  local s=$report/render-stats.json frames dev enc hw nvdec=yes
  [ -s "$s" ] || { echo "no stats written"; return 1; }
  frames=$(field "$s" frames) dev=$(field "$s" device_overlay_frames)
  enc=$(field "$s" encoder) hw=$(field "$s" hwaccel)
  # Where NVDEC cannot start (no libnvcuvid: the fake driver) trackink decodes in software
  # and uploads each frame, which is still --hwaccel cuda; nvdec_frames counts the others.
  if [ "$(field "$s" nvdec_frames)" != "$frames" ]; then nvdec="no ($(field "$s" nvdec_frames) of $frames frames; the rest decoded in software, uploaded)"; fi
  echo "$frames frames, $dev drawn in GPU memory, NVDEC $nvdec, encoder $enc"
  [ -n "$frames" ] && [ "$frames" -gt 0 ] && [ "$dev" = "$frames" ] && [ "$hw" = cuda ] &&
    { [ "$nvdec" = yes ] || [ "$driver" = fake ]; }
}
step render-nvdec render_check "$tk" render -i "$clip" --scene seed --backend cuda --hwaccel cuda \
  --encoder auto --stats-json "$report/render-stats.json" -o "$work/render.mp4" -y

# --- 7. compute-sanitizer ------------------------------------------------------------------
sanitizer_check() { grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY\|golden scenes' "$1"; }
for tool in memcheck racecheck; do
  if command -v compute-sanitizer >/dev/null; then
    step "sanitizer-$tool" sanitizer_check compute-sanitizer --tool "$tool" --error-exitcode 1 \
      "$tk" golden --backend cuda --dir "$goldens" --out "$work/golden-$tool"
  else
    skip "sanitizer-$tool" "compute-sanitizer not found"
  fi
done

# --- 8. a whole render against a plain ffmpeg transcode -------------------------------------
if [ -n "$machine_ffmpeg" ]; then
  plain=$machine_ffmpeg
  plain_what="this machine's ffmpeg"
else
  plain=$work/bin/ffmpeg
  plain_what="the kit's ffmpeg (this machine has none)"
fi
plain_version=$("$plain" -version 2>/dev/null | head -1)
e2e_check() {
  grep '^{' "$1" >"$report/e2e.json"
  local ratio
  ratio=$(grep -o '"ratio":[0-9.e+-]*' "$report/e2e.json" | cut -d: -f2)
  printf 'wall time ours / plain ffmpeg: %.2f (reference: %s)\n' "${ratio:-0}" "$plain_what"
  [ -n "$ratio" ]
}
step bench-e2e e2e_check env TRACKINK_FFMPEG="$plain" "$tk" bench --e2e "$clip" --backend cuda --json

# --- the report -----------------------------------------------------------------------------
version=$(cat "$work/VERSION" 2>/dev/null || echo unknown)
passed=0 skipped=0
for s in "${statuses[@]}"; do
  case $s in ok) passed=$((passed + 1)) ;; skipped) skipped=$((skipped + 1)) ;; esac
done
case $driver in
  fake) drivernote="fake driver: trackink's fake CUDA driver (kernels emulated on the CPU) answered, not a GPU; this run proves the kit, not the CUDA path" ;;
  nvidia) drivernote="NVIDIA driver, GPU 0: $gpu" ;;
  *) drivernote="no CUDA device: trackink-cuda found no usable driver (see logs/02-doctor.log)" ;;
esac
{
  echo "trackink GPU kit $version, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(uname -sr))"
  echo "$drivernote"
  echo
  for i in "${!names[@]}"; do
    printf '%02d %-22s %-8s exit %-3s %7s s  %s\n' "$((i + 1))" "${names[$i]}" "${statuses[$i]}" "${codes[$i]}" "${secs[$i]}" "${details[$i]}"
  done
  echo
  echo "$passed passed, $failed failed, $skipped skipped; logs in $report/logs"
  echo "bench --e2e reference: $plain_what: $plain_version"
} >"$report/report.txt"
{
  printf '{\n  "kit_version": %s,\n  "date": %s,\n  "host": %s,\n  "driver": %s,\n  "driver_note": %s,\n  "gpu": %s,\n' \
    "$(json_str "$version")" "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(json_str "$(uname -n) $(uname -sr)")" \
    "$(json_str "$driver")" "$(json_str "$drivernote")" "$(json_str "$gpu")"
  printf '  "passed": %d,\n  "failed": %d,\n  "skipped": %d,\n  "steps": [\n' "$passed" "$failed" "$skipped"
  for i in "${!names[@]}"; do
    [ "$i" -gt 0 ] && printf ',\n'
    printf '    {"name": %s, "status": %s, "exit": %s, "seconds": %s, "detail": %s, "command": %s, "log": %s}' \
      "$(json_str "${names[$i]}")" "$(json_str "${statuses[$i]}")" "${codes[$i]}" "${secs[$i]}" \
      "$(json_str "${details[$i]}")" "$(json_str "${commands[$i]}")" "$(json_str "${logs[$i]}")"
  done
  printf '\n  ],\n  "bench": [%s],\n' "$(if [ -s "$report/bench.jsonl" ]; then paste -sd, "$report/bench.jsonl"; fi)"
  printf '  "render": %s,\n  "e2e": %s,\n  "e2e_reference": %s\n}\n' "$(json_file "$report/render-stats.json")" \
    "$(json_file "$report/e2e.json")" "$(json_str "$plain_what: $plain_version")"
} >"$report/report.json"
echo
cat "$report/report.txt"
[ "$failed" -eq 0 ]
