#!/usr/bin/env bash
# kit-test.sh FAKECUDA_DIR (make gpu-kit-test) runs dist/gpu-kit end to end in root.sh's
# minimal Debian root (no FFmpeg, no CUDA, no Go), against the fake CUDA driver, exactly as
# a GPU machine would run it, and checks its report: every step in order, each passed
# except the three whose tools the root lacks (nvidia-smi, compute-sanitizer twice), and
# the report marked "fake driver". It then runs the kit with no driver at all, which must
# fail and say so. python3 (meson's, from setup.sh --dist) reads the JSON.
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
[ "$size" -le $((60 * 1024 * 1024)) ] || die "dist/gpu-kit is $size bytes, over 60 MiB"

root=$(bash "$here/root.sh")
t=$root/work/kit
rm -rf "$t"
mkdir -p "$t/fakecuda"
cp -r dist/gpu-kit "$t/kit"
cp "$fake/libcuda.so.1" "$t/fakecuda/"
inroot() { bash "$here/in-root.sh" "$root" "$@"; }

if inroot /work/kit/kit/run.sh >/dev/null 2>&1; then die "run.sh without a report folder succeeded"; fi

inroot env LD_LIBRARY_PATH=/work/kit/fakecuda /work/kit/kit/run.sh /work/kit/report >"$t/run.log" 2>&1 ||
  { cat "$t/run.log" >&2; die "the kit failed on the fake driver (report: $t/report)"; }
grep -q '^fake driver: ' "$t/report/report.txt" || die "report.txt does not say fake driver"
python3 - "$t/report/report.json" <<'EOF' || die "report.json (above)"
import json, sys
r = json.load(open(sys.argv[1]))
names = [s["name"] for s in r["steps"]]
tests = [n for n in names if n.startswith("test-")]
want = ["nvidia-smi", "doctor"] + tests + ["golden-cuda", "bench-seed", "render-nvdec",
        "sanitizer-memcheck", "sanitizer-racecheck", "bench-e2e"]
skipped = {"nvidia-smi", "sanitizer-memcheck", "sanitizer-racecheck"}
errors = []
if not tests:
    errors.append("no test binaries ran")
if names != want:
    errors.append(f"steps {names}, want {want}")
for s in r["steps"]:
    status = "skipped" if s["name"] in skipped else "ok"
    if s["status"] != status:
        errors.append(f"step {s['name']} {s['status']} ({s['detail']}), want {status}")
if r["driver"] != "fake" or "fake driver" not in r["driver_note"]:
    errors.append(f"driver {r['driver']!r}: {r['driver_note']!r}")
if [b["backend"] for b in r["bench"]] != ["cpu", "cuda"]:
    errors.append(f"bench backends {[b['backend'] for b in r['bench']]}")
render = r["render"] or {}
if render.get("frames", 0) < 1 or render.get("device_overlay_frames") != render.get("frames"):
    errors.append(f"render: {render}")
if not r["e2e"] or r["e2e"]["frames"] != render.get("frames"):
    errors.append(f"e2e: {r['e2e']}")
if (r["passed"], r["failed"], r["skipped"]) != (len(want) - 3, 0, 3):
    errors.append(f"counts {r['passed']} {r['failed']} {r['skipped']}")
for e in errors:
    print("report.json:", e)
sys.exit(1 if errors else 0)
EOF
echo "gpu-kit-test: the kit ran in the FFmpeg-less root on the fake driver:"
sed -n '3,/^$/p' "$t/report/report.txt" | sed '/^$/d'

if inroot /work/kit/kit/run.sh /work/kit/report-nodriver >"$t/nodriver.log" 2>&1; then
  die "the kit passed with no CUDA driver"
fi
grep -q '^no CUDA device' "$t/report-nodriver/report.txt" || die "with no driver the report says: $(head -2 "$t/report-nodriver/report.txt")"
echo "gpu-kit-test: with no driver the kit fails and says: $(sed -n 2p "$t/report-nodriver/report.txt")"
echo "gpu-kit-test: ok in $(($(date +%s) - start)) s (kit: $size bytes)"
