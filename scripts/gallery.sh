#!/usr/bin/env bash
# gallery.sh (make gallery) renders the pictures of the README and docs/looks.md from real
# footage, OpenCV's vtest.avi (Debian's opencv-doc: scripts/setup.sh --test), so that they
# stay true when looks change:
#
#   docs/img/hero.webp           the README's picture: the default look with 30-frame trails
#   docs/img/look-NAME.webp      one per look that `trackink render --list-looks` lists
#   docs/img/opt-NAME.webp       one per style option in OPTIONS (docs/looks.md) and in
#                                FEATURED (the README's second table) below
#
# and rewrites the generated tables between the `<!-- gallery:… -->` markers in README.md and
# docs/looks.md, so a look added to the binary appears there on the next run. Each picture
# is frame 240 of a render of frames 200 to 240 (so that trails and the links' hysteresis
# have history, as in a whole render), coded losslessly, cropped and written as WebP.
# The tracks are docs/gallery/vtest.jsonl, trackink's own (`trackink track --detect people`;
# docs/gallery/README.md; TRACKS=FILE takes another file). TRACKINK=BIN names the binary
# (default bin/trackink).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${TRACKINK:-$repo/bin/trackink}
video=${VIDEO:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
tracks=${TRACKS:-$repo/docs/gallery/vtest.jsonl}
img=$repo/docs/img
die() { echo "gallery.sh: $*" >&2; exit 1; }
[ -x "$bin" ] || die "$bin is not built (make build)"
[ -f "$video" ] || die "$video is missing: install Debian's opencv-doc (bash scripts/setup.sh --test)"
[ -f "$tracks" ] || die "$tracks is missing"
command -v ffmpeg >/dev/null || die "ffmpeg is not installed (bash scripts/setup.sh)"

# The hero's flags (the README's caption shows them): the default look's strokes are sized
# for 4K (scaled by the frame's height), thin on vtest's 576 lines, so it names widths in px.
HERO=(--trail 30 --trail-width 3 --box-stroke 2 --line-width 1.5)
# The options' pictures are drawn on the default look with BASE (docs/looks.md says so), so
# that a stroke's pattern shows at 576 lines.
BASE=(--box-stroke 2 --line-width 1.5)
# The style options pictured in docs/looks.md, as NAME|FLAGS (FLAGS quoted as in a shell),
# each on the default look with BASE. A new option gets a line here and a picture in
# docs/looks.md.
OPTIONS=(
  "box-solid|--box-style solid"
  "box-corners|--box-style corners"
  "box-dashed|--box-style dashed"
  "box-dotted|--box-style dotted"
  "roundness-0|--roundness 0"
  "roundness-1|--roundness 1"
  "fill|--fill-opacity 0.45"
  "links-k2|--k 2"
  "links-dashed|--link-style dashed"
  "curves|--line-width 0 --curve-width 1.5 --bend 0.3"
  "points|--point-radius 4"
  "trail|--trail 30 --trail-width 2"
  "palette-okabe-ito|--palette okabe-ito"
  "palette-neon|--palette neon"
  "palette-mono|--palette mono"
  "color-by-class|--color-by class"
  "label-template|--label '{class} age {age}'"
  "no-labels|--no-labels"
)

# The options video makers come for, pictured in the README's second table (three a row,
# the flags above each), NAME|FLAGS as above, each on the default look with BASE and the
# neon palette (pastel links vanish on the grey pavement), in the wide crop (more people,
# so more links).
FEATURED=(
  "links-delaunay|--links delaunay --link-reach 0.5 --line-width 2.5 --link-opacity 0.9"
  "links-mst|--links mst --link-reach 0.5 --line-width 2.5 --link-opacity 0.9"
  "link-fade|--links radius --max-dist 500 --link-fade -1 --line-width 2.5 --link-opacity 1"
  "link-electric|--link-style electric --link-reach 0.5 --line-width 2 --link-opacity 1"
  "link-gradient|--link-color gradient --link-reach 0.5 --line-width 3 --link-opacity 1"
  "glow|--glow 8 --glow-opacity 0.8 --link-reach 0.5 --line-width 2"
  "blend-add|--blend add --fill-opacity 0.3"
  "point-diamond|--point-style diamond --point-radius 7"
  "trail-smooth|--trail 30 --trail-width 2.5 --trail-smooth 4"
  "effect-invert|--box-effect invert"
  "effect-pixelate|--box-effect pixelate --effect-strength 8"
  "effect-blur|--box-effect blur"
  "effect-sort|--box-effect sort --sort-columns --sort-range 0.1,0.9"
  "echo|--echo 6 --echo-decay 0.7 --fill-opacity 0"
  "particles|--particles 6 --particle-life 16 --fill-opacity 0"
  "link-arcs|--line-width 0 --curve-width 2.5 --bend 0.25 --bend-away --link-pulse 0.8 --link-reach 0.5 --link-opacity 0.9"
  "link-flow|--link-style dotted --line-width 3 --link-flow 2.5 --link-reach 0.5 --link-opacity 1"
  "text-lines|--font 'Go Mono' --label '{hex} {line}' --label-lines docs/gallery/code-lines.txt --label-reveal 2 --label-line-frames 20"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$img" "$work/img"

# shot OUT CROP FLAGS...: render frames 200-240 with FLAGS, keep the last frame, crop it
# (ffmpeg's w:h:x:y) and write it as WebP into $work/img, moved to docs/img once all are made.
shot() {
  local out=$1 crop=$2
  shift 2
  # The tracks run past frame 240: the warning that says so is expected here.
  "$bin" render -i "$video" --tracks "$tracks" --start 200 --end 240 --lossless --quiet -y \
    -o "$work/clip.mkv" "$@" </dev/null 2> >(grep -v 'the frames after it are not drawn' >&2)
  # Frame 240 is the clip's 41st (n counts from 0).
  ffmpeg -nostdin -v error -y -i "$work/clip.mkv" -vf "select=eq(n\,40),crop=$crop" -frames:v 1 \
    -c:v libwebp -quality 82 -compression_level 6 "$work/out.webp"
  mv "$work/out.webp" "$work/img/$out"
  echo "gallery: docs/img/$out"
}

wide=768:360:0:60  # the walkway and the square, without the lawn below
near=400:300:368:90 # the four people on the right

shot hero.webp "$wide" "${HERO[@]}"
looks=()
while read -r name desc; do
  [ -n "$name" ] || continue
  looks+=("$name")
  printf '%s\t%s\n' "$name" "$desc" >>"$work/looks.tsv"
  shot "look-$name.webp" "$wide" --look "$name"
done < <("$bin" render --list-looks)
for o in "${OPTIONS[@]}"; do
  name=${o%%|*}
  eval "flags=(${o#*|})"
  shot "opt-$name.webp" "$near" "${BASE[@]}" "${flags[@]}"
done
for o in "${FEATURED[@]}"; do
  name=${o%%|*}
  eval "flags=(${o#*|})"
  shot "opt-$name.webp" "$wide" "${BASE[@]}" --palette neon "${flags[@]}"
done

# table CAPTION|PICTURE...: a README table, three pictures a row, each caption above its
# picture.
table() {
  local n=0 row=() cmds=() cell
  flush() {
    [ ${#row[@]} -gt 0 ] || return 0
    local sep="|" i
    while [ "$n" -gt 0 ] && [ ${#row[@]} -lt 3 ]; do row+=(" ") cmds+=(" "); done
    for ((i = 0; i < ${#row[@]}; i++)); do sep+=" --- |"; done
    if [ "$n" -eq 0 ]; then
      printf '| %s |\n%s\n' "$(IFS='|'; echo "${cmds[*]}" | sed 's/|/ | /g')" "$sep"
    else
      printf '| %s |\n' "$(IFS='|'; echo "${cmds[*]}" | sed 's/|/ | /g')"
    fi
    printf '| %s |\n' "$(IFS='|'; echo "${row[*]}" | sed 's/|/ | /g')"
    n=$((n + 1))
    row=() cmds=()
  }
  for cell in "$@"; do
    cmds+=("${cell%%|*}")
    row+=("${cell#*|}")
    [ ${#row[@]} -lt 3 ] || flush
  done
  flush
}
cells=()
for name in "${looks[@]}"; do
  cells+=("\`--look $name\`|![look $name](docs/img/look-$name.webp)")
done
table "${cells[@]}" >"$work/readme.md"
cells=()
for o in "${FEATURED[@]}"; do
  cells+=("\`${o#*|}\`|![${o%%|*}](docs/img/opt-${o%%|*}.webp)")
done
table "${cells[@]}" >"$work/readme-options.md"

# docs/looks.md: every look with what it is for.
{
  echo "| look | for | on vtest.avi, frame 240 |"
  echo "| --- | --- | --- |"
  while IFS=$'\t' read -r name desc; do
    echo "| \`$name\` | $desc | ![look $name](img/look-$name.webp) |"
  done <"$work/looks.tsv"
} >"$work/looks.md"

# splice FILE MARKER FRAGMENT: replace what lies between <!-- gallery:MARKER begin --> and
# <!-- gallery:MARKER end --> in FILE with FRAGMENT.
splice() {
  local file=$1 marker=$2 frag=$3
  grep -q "<!-- gallery:$marker begin -->" "$file" || die "$file has no <!-- gallery:$marker begin --> marker"
  awk -v frag="$frag" -v b="<!-- gallery:$marker begin -->" -v e="<!-- gallery:$marker end -->" '
    index($0, b) { print; while ((getline l < frag) > 0) print l; skip = 1; next }
    index($0, e) { skip = 0 }
    !skip' "$file" >"$work/spliced"
  cat "$work/spliced" >"$file"
}
# Every picture is rendered: replace the old ones (a look or option removed loses its own).
rm -f "$img"/hero.webp "$img"/look-*.webp "$img"/opt-*.webp
mv "$work"/img/*.webp "$img"/
splice "$repo/README.md" looks "$work/readme.md"
splice "$repo/README.md" options "$work/readme-options.md"
splice "$repo/docs/looks.md" looks "$work/looks.md"
du -ch "$img"/*.webp | tail -1 | sed 's/^/gallery: docs\/img: /'
