#!/usr/bin/env bash
# experiment.sh: the experiments behind docs/segments.md, rerunnable. Each line it prints is
# a fact the design relies on; a fact that does not hold makes it fail (exit 1).
#
#   bash docs/segments/experiment.sh [WORKDIR]     (from the repository root; needs ffmpeg,
#                                                   ffprobe and the FFmpeg 5.1 dev libraries)
#
# segtool.go (same directory) stands in for phase 2's code: render frames [a,b) after a seek,
# painting each frame's number into the picture (a wrong frame number changes the pixels),
# and join segments at the packet level with the source's audio.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-$(mktemp -d /tmp/segments-exp.XXXXXX)}
mkdir -p "$W"
cd "$W"
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
q() { ffmpeg -hide_banner -loglevel error -y "$@"; }

(cd "$root" && go build -o "$W/segtool" docs/segments/segtool.go)
S=$W/segtool

# video frames: "key pts type" per frame, presentation order; packets: "pts dts flags".
frames() { ffprobe -v error -select_streams v:0 -show_entries frame=key_frame,pts,pict_type -of compact=p=0 "$1" | grep -o 'key_frame=[01]|pts=[-0-9A-Z/]*|pict_type=.' | sed 's/key_frame=//;s/|pts=/ /;s/|pict_type=/ /'; }
packets() { ffprobe -v error -select_streams v:0 -show_entries packet=pts,dts,flags -of compact=p=0 "$1" | sed 's/pts=//;s/|dts=/ /;s/|flags=/ /'; }
# Decoded frames with their own timestamps (-copyts: no shift to the file's start).
fmd5() { ffmpeg -hide_banner -loglevel error -copyts -i "$1" -map 0:v:0 -fps_mode passthrough -enc_time_base -1 -f framemd5 - | grep -v '^#'; }
amd5() { ffprobe -v error -select_streams a -show_entries packet=pts_time,size -show_data_hash md5 -of csv=p=0 "$1"; }
nframes() { ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }

# The source: 150 frames of variable frame rate (30 fps, then 20 fps from frame 61, then
# 25 fps from frame 106), 90 kHz time base, H.264 with B-frames and a keyframe every 48,
# AAC audio. Keyframes fall at frames 1, 49, 97, 145.
q -f lavfi -i testsrc2=size=640x360:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 \
  -filter:v "settb=1/90000,setpts='if(lt(N,60), N*3000, if(lt(N,105), 180000+(N-60)*4500, 382500+(N-105)*3600))'" \
  -frames:v 150 -c:v libx264 -preset medium -crf 23 -g 48 -pix_fmt yuv420p -fps_mode passthrough \
  -enc_time_base 1/90000 -video_track_timescale 90000 -c:a aac -b:a 96k -t 6.05 src.mp4
echo "source: $("$S" probe src.mp4)"

# case NAME SRC ENCOPTS RANGES...: the whole render (decoded from the start, frames numbered
# by count) against segments rendered after a seek and joined. Prints what matched.
case_() {
  local name=$1 src=$2 opts=$3; shift 3
  "$S" render "$src" "${name}_whole.mp4" 1 0 "$opts" noseek 2>/dev/null
  local segs=() r
  for r in "$@"; do
    set -- $r
    "$S" render "$src" "${name}_seg$1.mp4" "$1" "$2" "$opts" 2>>"$name.log"
    segs+=("${name}_seg$1.mp4")
  done
  "$S" join "${name}_join.mp4" "$src" "${segs[@]}" 2>>"$name.log"
  fmd5 "${name}_whole.mp4" >"${name}_whole.md5"
  fmd5 "${name}_join.mp4" >"${name}_join.md5"
  local n
  n=$(nframes "${name}_join.mp4")
  if cmp -s "${name}_whole.md5" "${name}_join.md5"; then
    echo "identical"
  elif cmp -s <(cut -d, -f2,4 "${name}_whole.md5") <(cut -d, -f2,4 "${name}_join.md5"); then
    echo "timestamps"
  else
    echo "differ"
  fi >"$name.result"
  cmp -s <(amd5 "$src") <(amd5 "${name}_join.mp4") && echo audio >>"$name.result"
  echo "$n" >>"$name.result"
}
expect() { # expect NAME WHAT FRAMES
  local got
  got=$(head -1 "$1.result")
  local what="decoded frames identical to the whole render's (timestamps and pixels)"
  [ "$2" = timestamps ] && what="the whole render's frame timestamps and durations (pixels differ: lossy, other GOPs)"
  if [ "$got" = "$2" ] && grep -qx audio "$1.result" && grep -qx "$3" "$1.result"; then
    ok "$1: $what, $3 frames, audio packets identical to the source's"
  else
    bad "$1: want $2/$3 frames/audio, got: $(tr '\n' ' ' <"$1.result"); log: $(tr '\n' ' ' <"$1.log")"
  fi
}

echo "== lossless (x264 qp=0): segments joined = whole render, frame for frame (pts, pixels incl. the painted frame number)"
case_ ll1 src.mp4 qp=0 "1 0";                                   expect ll1 identical 150
case_ ll3 src.mp4 qp=0 "1 51" "51 101" "101 0";                 expect ll3 identical 150
case_ ll3b src.mp4 qp=0 "1 61" "61 106" "106 0";                expect ll3b identical 150
case_ ll4 src.mp4 qp=0 "1 38" "38 76" "76 113" "113 0";         expect ll4 identical 150
echo "== lossy default x264 (B-frames): same frame count and timestamps"
case_ ly3 src.mp4 "" "1 51" "51 101" "101 0";                   expect ly3 timestamps 150
case_ ly3b src.mp4 "" "1 61" "61 106" "106 0";                  expect ly3b timestamps 150
case_ ly4 src.mp4 "" "1 38" "38 76" "76 113" "113 0";           expect ly4 timestamps 150
if grep -q 'dts 171000 -> 171001' ly3b.log; then
  ok "ly3b: at the 30 -> 20 fps boundary (frame 61) the segment's first dts (171000) equals the previous segment's last: the join moved it to 171001 (still <= its pts 180000)"
else
  bad "ly3b: expected a dts collision at frame 61: $(grep dts ly3b.log || true)"
fi
echo "== x265"
ENC=libx265 case_ h265ll src.mp4 "x265-params=lossless=1:log-level=error" "1 51" "51 101" "101 0"; expect h265ll identical 150
ENC=libx265 case_ h265 src.mp4 "x265-params=log-level=error" "1 61" "61 106" "106 0";             expect h265 timestamps 150
nal() { ffmpeg -hide_banner -i "$1" -c copy -bsf:v trace_headers -f null - 2>&1 | grep 'nal_unit_type' | awk '{print $NF}' | tr '\n' ' '; }
first=$(nal h265_seg61.mp4 | awk '{for(i=1;i<=NF;i++) if ($i<32) {print $i; exit}}')
[ "$first" = 20 ] && ok "x265 segment 61 starts with an IDR (NAL type 20, IDR_N_LP)" || bad "x265 segment 61 first slice NAL type $first"
first=$(nal ly3_seg51.mp4 | awk '{for(i=1;i<=NF;i++) if ($i==1 || $i==5) {print $i; exit}}')
[ "$first" = 5 ] && ok "x264 segment 51 starts with an IDR (NAL type 5)" || bad "x264 segment 51 first slice NAL type $first"

echo "== other sources"
q -i src.mp4 -c copy src.mkv
case_ mkv src.mkv qp=0 "1 38" "38 76" "76 113" "113 0";          expect mkv identical 150
ENC=libx265 "$S" render src.mp4 opengop.mp4 1 0 "x265-params=log-level=error:keyint=30" noseek 2>/dev/null
cras=$(nal opengop.mp4 | tr ' ' '\n' | grep -cx 21 || true)
case_ og opengop.mp4 qp=0 "1 38" "38 76" "76 113" "113 0";       expect og identical 150
ok "open-GOP HEVC source ($cras CRA keyframes with leading pictures): seeking to a CRA and dropping what precedes the first frame is exact"
q -i src.mp4 -c copy src.ts
case_ ts src.ts qp=0 "1 38" "38 76" "76 113" "113 0"
if grep -q 'seek landed at keyframe pts 276000, after the first frame (pts 132000)' ts.log; then
  ok "MPEG-TS (no index): av_seek_frame(BACKWARD) to the first keyframe's pts landed one keyframe late; segtool saw it and decoded from the start"
else
  bad "MPEG-TS seek: $(grep landed ts.log || echo 'did not land late')"
fi
[ "$(head -1 ts.result)" = differ ] && [ "$(cmp <(cut -d, -f6 ts_whole.md5) <(cut -d, -f6 ts_join.md5) && echo same)" = same ] &&
  ok "MPEG-TS: pixels identical; timestamps differ by the MP4 edit list rounding of the join's output (movie_timescale 1000), see the next check" ||
  bad "MPEG-TS: $(tr '\n' ' ' <ts.result)"

echo "== seeking"
for m in dts pts; do SEEKMODE=$m SEEKDEBUG=1 "$S" render src.mp4 seek_$m.mp4 50 0 qp=0 2>seek_$m.log || true; done
grep -q 'decoded pts 0 (frame 1)' seek_dts.log && ok "mp4: seeking to keyframe 49's dts (138000) lands on frame 1, a GOP early: the mov seek compares presentation times" || bad "seek by dts: $(cat seek_dts.log)"
grep -q 'decoded pts 144000 (frame 49)' seek_pts.log && ok "mp4: seeking to keyframe 49's pts (144000) lands on it" || bad "seek by pts: $(cat seek_pts.log)"

echo "== checks of the join"
"$S" render src.mp4 f_preset.mp4 51 101 preset=ultrafast 2>/dev/null
"$S" render src.mp4 f_crf.mp4 51 101 crf=30 2>/dev/null
j() { "$S" join fj.mp4 src.mp4 "$@" 2>&1 | grep -v 'frames=' || true; }
j ly3_seg1.mp4 f_preset.mp4 ly3_seg101.mp4 | grep -q 'foreign segment' && ok "another preset: extradata differs (foreign segment)" || bad "preset not detected"
j ly3_seg1.mp4 f_crf.mp4 ly3_seg101.mp4 | grep -q 'foreign segment' && ok "another crf: extradata differs too (x264's PPS carries the initial QP)" || bad "crf not detected"
j ly3_seg51.mp4 ly3_seg1.mp4 ly3_seg101.mp4 | grep -q 'not after the previous' && ok "out of order: caught by timestamps" || bad "order not detected"
j ly3_seg1.mp4 ly3_seg1.mp4 ly3_seg101.mp4 | grep -q 'not after the previous' && ok "duplicate: caught by timestamps" || bad "duplicate not detected"
j ly3_seg1.mp4 ly3_seg101.mp4 | grep -q 'joined 2 segments' && ok "a MISSING middle segment passes timestamp and extradata checks: the join needs the segment records (frame ranges)" || bad "missing segment"

echo "== container pitfalls (ffmpeg CLI)"
enc() { local in=$1 out=$2; shift 2; q -i "$in" -map 0:v:0 -c:v libx264 -fps_mode passthrough -enc_time_base -1 "$@" "$out"; }
sel() { echo "select='between(n,$(($1 - 1)),$(($2 - 2)))'"; }
enc src.mp4 p_default.mp4 -qp 0 -vf "$(sel 51 101)" -copyts -muxdelay 0 -muxpreload 0
enc src.mp4 p_ts.mp4 -qp 0 -vf "$(sel 51 101)" -copyts -muxdelay 0 -muxpreload 0 -movie_timescale 90000
enc src.mp4 p.mkv -qp 0 -vf "$(sel 51 101)" -copyts -muxdelay 0 -muxpreload 0
enc src.mp4 p1.nut -vf "$(sel 1 51)" -copyts -muxdelay 0 -muxpreload 0
a=$(frames p_default.mp4 | head -1 | cut -d' ' -f2); b=$(frames p_ts.mp4 | head -1 | cut -d' ' -f2); c=$(frames p.mkv | head -1 | cut -d' ' -f2); d=$(frames p1.nut | head -1 | cut -d' ' -f2)
[ "$a" = 149940 ] && ok "MP4, default movie_timescale 1000: a segment starting at pts 150000 reads back at $a (the empty edit is rounded to 1 ms)" || bad "mp4 default: $a"
[ "$b" = 150000 ] && ok "MP4 with -movie_timescale 90000: reads back at $b (exact)" || bad "mp4 movie_timescale: $b"
[ "$c" = 1667 ] && ok "Matroska: time base 1/1000, 150000/90000 s becomes $c ms (not exact)" || bad "mkv: $c"
[ "$d" = 6000 ] && ok "NUT: segment 1 (lossy, first dts -6000) is shifted to start at pts $d (avoid_negative_ts)" || bad "nut: $d"
seg101_last=$(ffprobe -v error -select_streams v -show_entries packet=duration -of csv=p=0 ll3_seg101.mp4 | tail -1)
[ "$seg101_last" = N/A ] && ok "MP4 segment with a start offset: its last packet reads back with no duration (N/A): the join takes it from the segment record" || bad "last duration: $seg101_last"
printf "file '%s'\n" ll3_seg1.mp4 ll3_seg51.mp4 ll3_seg101.mp4 >list.txt
q -f concat -safe 0 -i list.txt -c copy concat.mp4
e=$(frames concat.mp4 | sed -n 101p | cut -d' ' -f2)
[ "$e" = 510000 ] && ok "concat demuxer on the same segments: frame 101 lands at $e, not 360000: it re-bases each file on the sum of the previous files' durations, and an MP4 segment's duration includes its start offset (the empty edit)" || bad "concat demuxer: frame 101 at $e"
enc src.mp4 p_bf.mp4 -qp 0 -bf 3
[ "$(frames p_bf.mp4 | grep -c ' B$')" = 0 ] && ok "x264 lossless (qp 0) uses no B-frames even with -bf 3: lossless tests do not exercise reordering" || bad "x264 qp0 B-frames"

echo "== the whole render today (trackink built from this tree)"
(cd "$root" && go build -o "$W/trackink" .)
"$W/trackink" render -i src.ts --scene seed -o tk_ts.mp4 -y --quiet
t=$(ffprobe -v error -select_streams v -show_entries packet=pts -of default=nw=1:nk=1 tk_ts.mp4 | grep -E "^-?[0-9]+$" | sort -n | head -1)
s0=$(ffprobe -v error -select_streams v -show_entries packet=pts -of default=nw=1:nk=1 src.ts | grep -E "^-?[0-9]+$" | sort -n | head -1)
[ "$t" = 131940 ] && [ "$s0" = 132000 ] && ok "trackink render of src.ts (video starts at pts $s0) writes .mp4 whose first frame reads back at $t: the same 1 ms edit-list rounding" || bad "trackink render src.ts: first pts $t (source $s0)"

echo
if [ "$fails" -eq 0 ]; then echo "all facts hold (work directory: $W)"; else echo "$fails facts did not hold (work directory: $W)"; exit 1; fi
