#!/usr/bin/env bash
# apt-sources.sh deb-src|non-free prints, in deb822 form, the apt entries trackink's setup adds
# to this machine's Debian sources: `deb-src` (component main: FAISS's, FFmpeg's and x264's
# source packages) or `non-free` (binary contrib and non-free: Debian's CUDA toolkit). Each
# entry takes its URIs, suites and Signed-By from an entry the machine already has
# (/etc/apt/sources.list.d/debian.sources in deb822 form, /etc/apt/sources.list in one-line
# form), so a machine whose apt goes through a mirror or a proxy keeps using it. An entry
# that already provides what is asked (Types with deb-src; Components with contrib and
# non-free) is not repeated. Prints nothing when nothing is missing; fails when the machine
# has no Debian entry with component main to copy.
# apt-sources.sh mirror prints "URI SUITE KEYRING" of the first such entry's first suite (the
# release: scripts/dist/root.sh's debootstrap takes it); KEYRING is "-" when the entry names
# no keyring file.
# The files read can be changed for tests: APT_DEB822=FILE, APT_LIST=FILE.
set -euo pipefail

want=${1:-}
case "$want" in
  deb-src | non-free | mirror) ;;
  *) echo "usage: apt-sources.sh deb-src|non-free|mirror" >&2; exit 2 ;;
esac
deb822=${APT_DEB822-/etc/apt/sources.list.d/debian.sources}
list=${APT_LIST-/etc/apt/sources.list}

# Both readers print one record per enabled entry: types, URIs, suites, components and the
# Signed-By value (continuation lines of an inline key kept, newlines as \n), tab-separated.
records() {
  if [ -f "$deb822" ]; then
    awk '
      function flush() {
        if (types != "" && uris != "" && suites != "" && enabled != "no")
          printf "%s\t%s\t%s\t%s\t%s\n", types, uris, suites, comps, signed
        types = uris = suites = comps = signed = enabled = ""; field = ""
      }
      /^#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/ { if (field == "signed-by") signed = signed "\\n" $0; next }
      {
        field = tolower(substr($0, 1, index($0, ":") - 1))
        value = substr($0, index($0, ":") + 1); sub(/^[ \t]+/, "", value); sub(/[ \t]+$/, "", value)
        if (field == "types") types = value
        else if (field == "uris") uris = value
        else if (field == "suites") suites = value
        else if (field == "components") comps = value
        else if (field == "signed-by") signed = value
        else if (field == "enabled") enabled = tolower(value)
      }
      END { flush() }' "$deb822"
  fi
  if [ -f "$list" ]; then
    awk '
      /^[ \t]*(#|$)/ { next }
      $1 == "deb" || $1 == "deb-src" {
        type = $1; i = 2; signed = ""
        if ($2 ~ /^\[/) {
          opts = ""
          for (; i <= NF; i++) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } }
          gsub(/[][]/, "", opts)
          n = split(opts, o, " ")
          for (j = 1; j <= n; j++) if (o[j] ~ /^signed-by=/) signed = substr(o[j], 11)
        }
        uri = $i; suite = $(i + 1); comps = ""
        for (j = i + 2; j <= NF; j++) comps = comps (comps == "" ? "" : " ") $j
        printf "%s\t%s\t%s\t%s\t%s\n", type, uri, suite, comps, signed
      }' "$list"
  fi
}

has_word() { [[ " $1 " == *" $2 "* ]]; }

all=$(records)
found=0
while IFS=$'\t' read -r types uris suites comps signed; do
  has_word "$types" deb && has_word "$comps" main || continue
  found=1
  if [ "$want" = mirror ]; then
    keyring=-
    if [ -n "$signed" ] && [[ "$signed" != *'\n'* ]] && [ -f "$signed" ]; then keyring=$signed; fi
    echo "${uris%% *} ${suites%% *} $keyring"
    exit 0
  fi
  if [ "$want" = deb-src ]; then
    has_word "$types" deb-src && continue
    # The same URIs and suites may also be listed as deb-src by another entry.
    while IFS=$'\t' read -r t2 u2 s2 c2 _; do
      if has_word "$t2" deb-src && [ "$u2" = "$uris" ] && [ "$s2" = "$suites" ] && has_word "$c2" main; then continue 2; fi
    done <<<"$all"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n' "$uris" "$suites"
  else
    has_word "$comps" contrib && has_word "$comps" non-free && continue
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\n' "$uris" "$suites"
  fi
  if [ -n "$signed" ]; then printf 'Signed-By: %b\n' "$signed"; fi
  echo
done <<<"$all"
if [ "$found" -eq 0 ]; then
  echo "apt-sources.sh: no Debian entry with component main in $deb822 or $list to copy the $want entries from" >&2
  exit 1
fi
