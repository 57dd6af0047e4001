#!/usr/bin/env bash
# apt-sources_test.sh checks scripts/apt-sources.sh on sample apt configurations: a mirror in
# deb822 form with an inline key, a proxy in one-line form with options, entries that are
# disabled or already have what is asked, and a machine with no Debian entry at all.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# check NAME KIND DEB822 LIST WANT: apt-sources.sh KIND on those files must print WANT.
check() {
  local name=$1 kind=$2 got
  printf '%s' "$3" >"$tmp/debian.sources"
  printf '%s' "$4" >"$tmp/sources.list"
  if ! got=$(APT_DEB822=$tmp/debian.sources APT_LIST=$tmp/sources.list bash "$here/apt-sources.sh" "$kind" 2>"$tmp/err"); then
    got="(failed: $(cat "$tmp/err"))"
  fi
  if [ "$got" != "$5" ]; then
    echo "FAIL $name ($kind):"; diff <(echo "$5") <(echo "$got") || true
    fail=1
  else
    echo "ok   $name ($kind)"
  fi
}

# An inline key: Signed-By with continuation lines, copied as it is.
key='-----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mQINBGPL
 -----END PGP PUBLIC KEY BLOCK-----'
mirror='Types: deb
# a comment inside the entry
URIs: http://mirror.example:3142/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: '"$key"'

Types: deb
URIs: http://mirror.example:3142/debian-security
Suites: bookworm-security
Components: main contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
Enabled: no
URIs: http://old.example/debian
Suites: bookworm
Components: main
'
check "deb822 mirror, inline key" deb-src "$mirror" "" 'Types: deb-src
URIs: http://mirror.example:3142/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: '"$key"'

Types: deb-src
URIs: http://mirror.example:3142/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
# The security entry has contrib and non-free already; the disabled one is ignored.
check "deb822 mirror, inline key" non-free "$mirror" "" 'Types: deb
URIs: http://mirror.example:3142/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: '"$key"''

list='# proxy
deb [arch=amd64 signed-by=/etc/apt/keyrings/proxy.gpg] http://proxy.example/debian bookworm main
deb http://proxy.example/debian-security bookworm-security main
deb-src http://proxy.example/debian-security bookworm-security main
'
check "one-line proxy" deb-src "" "$list" 'Types: deb-src
URIs: http://proxy.example/debian
Suites: bookworm
Components: main
Signed-By: /etc/apt/keyrings/proxy.gpg'
check "one-line proxy" mirror "" "$list" 'http://proxy.example/debian bookworm -'
check "deb-src already everywhere" deb-src 'Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
' "" ''
check "no Debian entry" deb-src "" 'deb http://example.org/other stable extra
' "(failed: apt-sources.sh: no Debian entry with component main in $tmp/debian.sources or $tmp/sources.list to copy the deb-src entries from)"
exit "$fail"
