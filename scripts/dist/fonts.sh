# fonts.sh, sourced by test.sh and gpu-kit.sh: copy_fonts DIR copies the font files that the
# golden scenes and tests set labels in (internal/fonts, the one list of them) into DIR, for a
# root or a GPU machine without their Debian packages; trackink finds them through
# $TRACKINK_FONTS.
fonts_list="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/internal/fonts/fonts.go"
copy_fonts() {
  local dir=$1 f
  mkdir -p "$dir"
  for f in $(grep -o '"/usr/share/fonts[^"]*"' "$fonts_list" | tr -d '"'); do
    [ -f "$f" ] || { echo "fonts.sh: $f is missing (scripts/setup.sh --test installs it)" >&2; return 1; }
    cp "$f" "$dir/"
  done
}
