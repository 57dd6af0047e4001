#!/usr/bin/env bash
# cuda-packages.sh prints the packages whose test binaries the cuda build tag changes: those
# with a file of their own under the tag (kernels/device's driver, the tests of kernels/gpu
# and video that use it) and those whose tests link a package whose code the tag changes.
# make cuda-fake runs these in the cuda build; every other package's test binary is the
# very one the plain `go test ./...` runs.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# changed FIELDS: the packages whose file lists FIELDS differ under the tag.
changed() {
  local f="{{.ImportPath}} $1"
  (diff <($GO list -f "$f" ./...) <($GO list -tags cuda -f "$f" ./...) || true) | awk '$1 == ">" {print $2}'
}
code=$(changed '{{.GoFiles}} {{.CgoFiles}}')
tests=$(changed '{{.TestGoFiles}} {{.XTestGoFiles}}')
[ -n "$code" ] || { echo "cuda-packages.sh: no package's code changes under the cuda tag" >&2; exit 1; }
# Each test binary P.test and what it links (a package recompiled for the test is listed as
# "Q [P.test]": Q is what counts).
$GO list -tags cuda -test -f '{{if not .ForTest}}{{.ImportPath}} {{join .Deps " "}}{{end}}' ./... |
  awk -v code="$code" -v tests="$tests" '
    BEGIN {
      n = split(code, c, "\n"); for (i = 1; i <= n; i++) is[c[i]] = 1
      n = split(tests, c, "\n"); for (i = 1; i <= n; i++) own[c[i]] = 1
    }
    $1 ~ /\.test$/ {
      p = substr($1, 1, length($1) - 5)
      hit = (p in is) || (p in own)
      for (i = 2; i <= NF && !hit; i++) hit = ($i in is)
      if (hit) print p
    }'
