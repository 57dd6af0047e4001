#!/usr/bin/env bash
# kit-test.sh FAKECUDA_DIR (make gpu-kit-test) runs dist/gpu-kit end to end in root.sh's
# minimal Debian 11 root (no FFmpeg, no CUDA, no Go), against the fake CUDA driver, exactly
# as a GPU machine would run it, and checks what comes back:
#   - the payload: the fatbin at src/kernels/kernels.fatbin, where kernels/gpu's
#     TestFatbinEntryPoints reads it, the same bytes as kernels/kernels.fatbin;
#   - the full run: every step in order, each passed except the sanitizers (the root has no
#     compute-sanitizer: "unavailable"), the report marked "fake driver", the report folder
#     holding report.txt and report.tar.gz only, the archive every step's log and the JSON;
#     this machine's cuobjdump (static but for glibc) on PATH there, so that run.sh sets
#     TRACKINK_REQUIRE_FATBIN as on a GPU machine with CUDA's tools, and the test of the
#     fatbin's entry points must have run and passed;
#   - a budget too small for all steps: the steps past it listed "not run: budget", and the
#     run over within its budget plus a few seconds;
#   - a driver call that never returns (the fake's TRACKINK_FAKECUDA_HANG): the step killed
#     at its limit, the run within its budget;
#   - --quick: doctor, goldens and the benchmark only;
#   - a machine whose glibc is older than the kit's: one clear first line, nothing run;
#   - no driver at all: the kit fails and says so.
# This machine's python3 reads the JSON.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
fake=${1:?usage: kit-test.sh FAKECUDA_DIR}
cd "$repo"
die() { echo "gpu-kit-test: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
[ -x dist/gpu-kit/run.sh ] || die "no dist/gpu-kit (make gpu-kit)"
[ -f "$fake/libcuda.so.1" ] || die "no fake driver at $fake/libcuda.so.1"
size=$(du -sb dist/gpu-kit | cut -f1)
[ "$size" -le $((56 * 1024 * 1024)) ] || die "dist/gpu-kit is $size bytes, over 56 MiB"
cuobjdump=$(command -v cuobjdump) || die "no cuobjdump (make setup-cuda)"
tar -xzOf dist/gpu-kit/payload.tar.gz ./src/kernels/kernels.fatbin 2>/dev/null | cmp -s - kernels/kernels.fatbin ||
  die "the payload's src/kernels/kernels.fatbin, which kernels/gpu's TestFatbinEntryPoints reads, is missing or not kernels/kernels.fatbin"

root=$(bash "$here/root.sh" test)
t=$root/work/kit
rm -rf "$t"
mkdir -p "$t/fakecuda" "$t/cuda"
cp -r dist/gpu-kit "$t/kit"
cp "$fake/libcuda.so.1" "$t/fakecuda/"
cp "$cuobjdump" "$t/cuda/"
inroot() { bash "$here/in-root.sh" "$root" "$@"; }
onfake=(env LD_LIBRARY_PATH=/work/kit/fakecuda)

# check_report DIR <<'PY' ... PY: DIR holds exactly report.txt and report.tar.gz; the
# archive is unpacked into DIR/unpacked and the Python on standard input checks it, with
# report.json as r, its steps by name as steps, their names in order as names, appending
# to errors (BUDGET in its environment where a test sets one).
check_report() {
  local dir=$1
  [ "$(ls -A "$dir" | tr '\n' ' ')" = "report.tar.gz report.txt " ] || die "$dir holds $(ls -A "$dir" | tr '\n' ' ')"
  mkdir -p "$dir/unpacked"
  tar -C "$dir/unpacked" -xzf "$dir/report.tar.gz" || die "$dir/report.tar.gz does not unpack"
  cmp -s "$dir/report.txt" "$dir/unpacked/report.txt" || die "report.txt differs from the archive's"
  { cat <<'PRELUDE'
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "report.json")))
steps = {s["name"]: s for s in r["steps"]}
names = [s["name"] for s in r["steps"]]
errors = []
for s in r["steps"]:
    if s["log"] and not os.path.isfile(os.path.join(d, s["log"])):
        errors.append(f"step {s['name']}: its log {s['log']} is not in the archive")
PRELUDE
    cat
    printf '%s\n' 'for e in errors:' '    print("report.json:", e)' 'sys.exit(1 if errors else 0)'
  } >"$dir/check.py"
  python3 "$dir/check.py" "$dir/unpacked" || die "$dir: report.json (above)"
  rm "$dir/check.py"
}

if inroot /work/kit/kit/run.sh >/dev/null 2>&1; then die "run.sh without a report folder succeeded"; fi
if inroot /work/kit/kit/run.sh --budget 5 /work/kit/r >/dev/null 2>&1; then die "run.sh --budget 5 succeeded"; fi

# --- the full run ---------------------------------------------------------------------------
inroot "${onfake[@]}" PATH=/work/kit/cuda:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /work/kit/kit/run.sh /work/kit/report >"$t/run.log" 2>&1 ||
  { cat "$t/run.log" >&2; die "the kit failed on the fake driver (report: $t/report)"; }
grep -q '^fake driver: ' "$t/report/report.txt" || die "report.txt does not say fake driver"
grep -qF "$(head -1 "$t/report/report.txt")" "$t/run.log" || die "run.sh did not print report.txt at the end"
check_report "$t/report" <<'PY'
tests = [n for n in names if n.startswith("test-")]
want = ["doctor", "golden-cuda"] + tests + ["bench-seed", "render-nvdec", "bench-e2e",
        "sanitizer-memcheck", "sanitizer-racecheck"]
if not tests:
    errors.append("no test binaries ran")
gpu = steps.get("test-kernels/gpu")
if not gpu or not gpu["log"] or "--- PASS: TestFatbinEntryPoints" not in open(os.path.join(d, gpu["log"])).read():
    errors.append("test-kernels/gpu did not pass TestFatbinEntryPoints (cuobjdump on PATH)")
if names != want:
    errors.append(f"steps {names}, want {want}")
for s in r["steps"]:
    status = "unavailable" if s["name"].startswith("sanitizer-") else "ok"
    if s["status"] != status:
        errors.append(f"step {s['name']} {s['status']} ({s['detail']}), want {status}")
    if status == "ok" and not (0 < s["limit"] <= r["budget_seconds"]):
        errors.append(f"step {s['name']}: limit {s['limit']}")
if r["driver"] != "fake" or "fake driver" not in r["driver_note"]:
    errors.append(f"driver {r['driver']!r}: {r['driver_note']!r}")
if r["budget_seconds"] != 420 or r["seconds"] > 420:
    errors.append(f"budget {r['budget_seconds']}, took {r['seconds']}")
if [(b["backend"], b["format"]) for b in r["bench"]] != [("cpu", "yuv420p"), ("cuda", "yuv420p"), ("cuda", "device")]:
    errors.append(f"bench rows {[(b['backend'], b['format']) for b in r['bench']]}")
elif not r["bench"][2].get("graph_total_median_ms") or not r["bench"][2].get("graph_same_picture"):
    errors.append(f"bench on a device frame: {r['bench'][2]}")
render = r["render"] or {}
if render.get("frames", 0) < 1 or render.get("device_overlay_frames") != render.get("frames"):
    errors.append(f"render: {render}")
if "libnvcuvid.so.1 is missing" not in steps["render-nvdec"]["detail"]:
    errors.append(f"render-nvdec does not say NVDEC is missing: {steps['render-nvdec']['detail']}")
if not r["e2e"] or r["e2e"]["frames"] != render.get("frames"):
    errors.append(f"e2e: {r['e2e']}")
if (r["passed"], r["failed"], r["other"]) != (len(want) - 2, 0, 2):
    errors.append(f"counts {r['passed']} {r['failed']} {r['other']}")
PY
full=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$t/report/unpacked/report.json")
echo "gpu-kit-test: the kit ran in the FFmpeg-less Debian 11 root on the fake driver in $full s:"
sed -n '4,/^$/p' "$t/report/report.txt" | sed '/^$/d'

# --- a budget too small for every step ------------------------------------------------------
budget=40
t0=$(date +%s)
if inroot "${onfake[@]}" /work/kit/kit/run.sh --budget $budget /work/kit/report-budget >"$t/budget.log" 2>&1; then
  die "a run cut short by its budget exited 0"
fi
took=$(($(date +%s) - t0))
[ "$took" -le $((budget + 8)) ] || die "--budget $budget took $took s (unpacking included)"
check_report "$t/report-budget" <<'PY'
# The steps cut are the last of those the machine offers (the root has no sanitizer).
offered = [n for n in names if steps[n]['status'] != 'unavailable']
cut = [n for n in offered if steps[n]['status'] == 'not run']
if not cut or cut != offered[len(offered) - len(cut):]:
    errors.append(f"steps not run: {cut} of {offered}")
for n in cut:
    if steps[n]['detail'] != 'budget':
        errors.append(f"step {n}: {steps[n]['detail']}")
if r['seconds'] > r['budget_seconds'] or r['budget_seconds'] != 40:
    errors.append(f"took {r['seconds']} s of {r['budget_seconds']}")
PY
grep -q 'not run: budget' "$t/report-budget/report.txt" || die "report.txt does not list the steps not run"
echo "gpu-kit-test: --budget $budget: over in $took s, $(grep -c 'not run: budget' "$t/report-budget/report.txt") steps listed \"not run: budget\""

# --- a driver call that never returns -------------------------------------------------------
budget=45
t0=$(date +%s)
if inroot "${onfake[@]}" TRACKINK_FAKECUDA_HANG=cuGraphLaunch /work/kit/kit/run.sh --budget $budget \
  /work/kit/report-hang >"$t/hang.log" 2>&1; then
  die "a run whose driver hangs exited 0"
fi
took=$(($(date +%s) - t0))
[ "$took" -le $((budget + 8)) ] || die "a hanging driver with --budget $budget took $took s"
check_report "$t/report-hang" <<'PY'
g = steps['golden-cuda']
if g['status'] != 'failed' or not g['detail'].startswith('timed out: killed at its limit'):
    errors.append(f"golden-cuda: {g['status']}: {g['detail']}")
if g['seconds'] > g['limit'] + 4:
    errors.append(f"golden-cuda ran {g['seconds']} s past its limit of {g['limit']} s")
if steps['doctor']['status'] != 'ok':
    errors.append(f"doctor: {steps['doctor']}")
PY
echo "gpu-kit-test: a hung driver call: golden-cuda $(grep -o 'timed out: killed at its limit of [0-9]* s' "$t/report-hang/report.txt" | head -1); the run over in $took s of $budget"

# --- --quick --------------------------------------------------------------------------------
inroot "${onfake[@]}" /work/kit/kit/run.sh --quick /work/kit/report-quick >"$t/quick.log" 2>&1 ||
  { cat "$t/quick.log" >&2; die "--quick failed on the fake driver"; }
check_report "$t/report-quick" <<'PY'
if names != ['doctor', 'golden-cuda', 'bench-seed'] or r['failed'] or not r['quick']:
    errors.append(f"--quick ran {names}, {r['failed']} failed")
PY
echo "gpu-kit-test: --quick: $(grep "^[0-9]* passed, " "$t/report-quick/report.txt")"

# --- too old a glibc, and no driver ---------------------------------------------------------
cp -r "$t/kit" "$t/kit-future"
echo 9.99 >"$t/kit-future/GLIBC"
if inroot /work/kit/kit-future/run.sh /work/kit/report-old >"$t/old.log" 2>&1; then die "the kit ran where glibc is too old"; fi
grep -q "^run.sh: this machine's glibc .* is older than the kit needs (9.99" <(head -1 "$t/old.log") ||
  die "with too old a glibc the first line is: $(head -1 "$t/old.log")"
echo "gpu-kit-test: too old a glibc: $(head -1 "$t/old.log")"

if inroot /work/kit/kit/run.sh /work/kit/report-nodriver >"$t/nodriver.log" 2>&1; then
  die "the kit passed with no CUDA driver"
fi
grep -q '^no CUDA device' <(sed -n 2p "$t/report-nodriver/report.txt") || die "with no driver the report says: $(head -2 "$t/report-nodriver/report.txt")"
echo "gpu-kit-test: with no driver the kit fails and says: $(sed -n 2p "$t/report-nodriver/report.txt")"
echo "gpu-kit-test: ok in $(($(date +%s) - start)) s (kit: $size bytes)"
