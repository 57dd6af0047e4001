package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/composite"
	"trackink/internal/mediatest"
	"trackink/internal/testdir"
)

// paintNumber is the tests' DrawFunc: it writes n's bits into the top-left 64×8 pixels of
// the picture (white for 1, black for 0), so that a frame numbered wrongly looks otherwise.
func paintNumber(n int, dst composite.Surface) error {
	f, ok := dst.(*composite.YUV420P)
	if !ok {
		return fmt.Errorf("paintNumber: a %T", dst)
	}
	for y := range 8 {
		for x := range 64 {
			v := byte(16)
			if n>>(x/8)&1 == 1 {
				v = 235
			}
			f.Y[y*f.StrideY+x] = v
		}
	}
	return nil
}

// renderSegments renders o in count segments into a new directory with paintNumber and
// returns the segment files in order and each render's Stats.
func renderSegments(t *testing.T, o Options, count int) ([]string, []Stats) {
	t.Helper()
	dir := t.TempDir()
	var files []string
	var stats []Stats
	for i := range count {
		plan, err := PlanSegment(t.Context(), o, i, count)
		if err != nil {
			t.Fatal(err)
		}
		so := o
		so.Segment, so.Output = plan, filepath.Join(dir, SegmentName(o.Input, i, count))
		st, err := Transcode(t.Context(), so, paintNumber)
		if err != nil {
			t.Fatalf("segment %d of %d: %v", i, count, err)
		}
		files, stats = append(files, so.Output), append(stats, st)
	}
	return files, stats
}

// join joins segments of source into a new .mp4.
func join(t *testing.T, source string, segments []string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "joined.mp4")
	if _, err := Join(t.Context(), JoinOptions{Source: source, Segments: segments, Output: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

// The segments of a render, joined, are the whole render, for every kind of source: the
// decoded frames (pixels, with each frame's number painted in, and timestamps) and the
// audio packets. Each segment on its own decodes to its pictures of the whole render (it
// starts with an IDR). Segments after the first decode from the keyframe before their first
// frame, not from the start, except from MPEG-TS, whose seeks land late: they say so and
// decode from the start.
func TestSegmentsJoinToTheWholeRender(t *testing.T) {
	const clipGOP = 12 // mediatest.Clip's keyframes are frames 1, 13, 25...
	for _, kind := range []string{"mp4", "mkv", "ts", "hevc"} {
		t.Run(kind, func(t *testing.T) {
			src := mediatest.Clip(t, kind)
			var logged []string
			o := Options{Input: src, Output: filepath.Join(t.TempDir(), "whole.mp4"), Lossless: true,
				Log: func(l string) { logged = append(logged, l) }}
			if _, err := Transcode(t.Context(), o, paintNumber); err != nil {
				t.Fatal(err)
			}
			whole := mediatest.Frames(t, o.Output)
			if len(whole) != mediatest.ClipFrames {
				t.Fatalf("the whole render has %d frames, want %d", len(whole), mediatest.ClipFrames)
			}
			segs, stats := renderSegments(t, o, 4)
			joined := join(t, src, segs)
			if got := mediatest.Frames(t, joined); !slices.Equal(got, whole) {
				t.Errorf("the joined frames differ from the whole render's: %s", mediatest.Difference(whole, got))
			}
			if a, b := mediatest.Packets(t, o.Output, "0:a"), mediatest.Packets(t, joined, "0:a"); !slices.Equal(a, b) {
				t.Errorf("the joined audio differs from the whole render's: %s", mediatest.Difference(a, b))
			}
			first := 1
			for i, seg := range segs {
				n := stats[i].Frames
				// Its pictures: frame durations in framemd5 are the ffmpeg CLI's guesses from a
				// stream's frame rate, which a part of a variable-rate video has otherwise.
				want := mediatest.Pictures(whole[first-1 : first-1+n])
				if got := mediatest.Pictures(mediatest.Frames(t, seg)); !slices.Equal(got, want) {
					t.Errorf("segment %d on its own: %s", i, mediatest.Difference(want, got))
				}
				// Counted before its first frame, not in all: the decoder's frame threads, one a
				// core, decode as many frames past the segment's end (35 decoded for frames 16
				// to 30 on 16 cores). From the keyframe before, the keyframe and at most the
				// frames up to the first (fewer where frames none refers to are skipped).
				fromKey := (first - 1) % clipGOP
				switch p := stats[i].Preroll; {
				case kind == "ts" && i > 0 && p <= fromKey:
					t.Errorf("segment %d decoded %d frames before frame %d, want more than the %d from the keyframe before it: it decodes from the start", i, p, first, fromKey)
				case (kind != "ts" || i == 0) && (p > fromKey || (fromKey > 0 && p == 0)):
					t.Errorf("segment %d decoded %d frames before frame %d, want 1 to %d: decoding from the keyframe before it, frame %d", i, p, first, fromKey, first-fromKey)
				}
				first += n
			}
			if fellBack := slices.ContainsFunc(logged, func(l string) bool { return strings.Contains(l, "decoding from the start") }); fellBack != (kind == "ts") {
				t.Errorf("fell back to decoding from the start: %t, want %t (log: %q)", fellBack, kind == "ts", logged)
			}
		})
	}
}

// A video with B-frames whose packets' pts are in decoding order is refused in the plan, in
// every task alike, before any work; it renders whole. An AVI with B-frames has no pts, and
// a remux (-c copy, with or without mpeg4_unpack_bframes) gives each packet its dts as pts:
// the decoder then puts the frames in order by itself and stamps them by a guess that
// depends on what it decoded before, so a segment numbered them otherwise than the whole
// render counts them (a frame short, pts "moved forward", other frames' pixels). The
// refusal sends no one to a remux, which keeps the trait: the re-encode it gives, run on the
// refused video, keeps its frames (the whole render's pictures) and segments exactly, as
// does the same video written straight into MP4 (its pts say the order).
func TestSegmentsOfReorderedVideo(t *testing.T) {
	dir := t.TempDir()
	encode := []string{"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50", "-c:v", "mpeg4", "-bf", "2", "-g", "12", "-y"}
	avi, direct := filepath.Join(dir, "bf.avi"), filepath.Join(dir, "direct.mp4")
	makeSource(t, append(encode, avi)...)
	makeSource(t, append(encode, direct)...)
	remux := func(name string, args ...string) string {
		out := filepath.Join(dir, name)
		makeSource(t, append(append([]string{"-i", avi, "-c", "copy"}, args...), "-y", out)...)
		return out
	}
	// whole renders src whole and returns its frames.
	whole := func(t *testing.T, src string) (Options, []string) {
		o := Options{Input: src, Output: filepath.Join(t.TempDir(), "whole.mp4"), Lossless: true}
		if st, err := Transcode(t.Context(), o, paintNumber); err != nil || st.Frames != 50 {
			t.Fatalf("the whole render of %s: %d frames, %v; want 50", src, st.Frames, err)
		}
		return o, mediatest.Frames(t, o.Output)
	}
	// segmentsExactly renders src in 3 segments and joins them: the whole render's frames.
	segmentsExactly := func(t *testing.T, src string) []string {
		o, frames := whole(t, src)
		segs, _ := renderSegments(t, o, 3)
		if got := mediatest.Frames(t, join(t, src, segs)); !slices.Equal(got, frames) {
			t.Errorf("%s: the joined frames differ from the whole render's: %s", src, mediatest.Difference(frames, got))
		}
		return frames
	}
	for _, tc := range []struct {
		name, src string
		refused   string // what the refusal says; "" for a video that segments
	}{
		{"AVI", avi, "video packet 1 has no presentation timestamp"},
		{"remuxed", remux("remuxed.mp4"), "its mpeg4 video has B-frames, but its packets' timestamps are in decoding order"},
		{"remuxed unpacked", remux("unpacked.mp4", "-bsf:v", "mpeg4_unpack_bframes"), "in decoding order"},
		{"written straight into MP4", direct, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.refused == "" {
				segmentsExactly(t, tc.src)
				return
			}
			var msg string
			for i := range 3 {
				_, err := PlanSegment(t.Context(), Options{Input: tc.src, Output: "x.mp4"}, i, 3)
				msg = fmt.Sprint(err)
				if !errors.Is(err, ErrUnsegmentable) || !strings.Contains(msg, tc.refused) ||
					!strings.Contains(msg, "render it whole, or re-encode it first") || strings.Contains(msg, "-c copy OUT") {
					t.Fatalf("segment %d of 3: %v; want ErrUnsegmentable saying %q and to render it whole or re-encode it, not to remux it", i, err, tc.refused)
				}
			}
			// The re-encode the refusal gives, as a user runs it.
			cmd := regexp.MustCompile(`ffmpeg (-i IN .* OUT\.mkv)`).FindStringSubmatch(msg)
			if cmd == nil {
				t.Fatalf("no ffmpeg command in %q", msg)
			}
			out := filepath.Join(t.TempDir(), "out.mkv")
			args, files := strings.Fields(cmd[1]), map[string]string{"IN": tc.src, "OUT.mkv": out}
			for i, a := range args {
				if f, ok := files[a]; ok {
					args[i] = f
				}
			}
			makeSource(t, args...)
			_, want := whole(t, tc.src)
			if got := segmentsExactly(t, out); !slices.Equal(mediatest.Pictures(got), mediatest.Pictures(want)) {
				t.Errorf("the re-encode's pictures differ from the refused video's: %s", mediatest.Difference(mediatest.Pictures(want), mediatest.Pictures(got)))
			}
		})
	}
}

// A segment stops, as unsegmentable, at a decoded frame that comes out of the frame table's
// order: numbered from the table, it would be drawn as another frame, where the whole render
// counts it (before, its pts was "moved forward" and the segment written). The plan refuses
// the videos known to do so (TestSegmentsOfReorderedVideo); this is the backstop.
func TestSegmentNumbersFramesInOrder(t *testing.T) {
	d := &decodeStage{in: &input{path: "in.mp4"}, seg: &SegmentPlan{table: &frameTable{pts: []int64{0, 512, 1024, 1536}}}}
	for _, tc := range []struct {
		pts  int64
		want int // 0: refused
	}{{512, 2}, {1536, 4}, {1024, 0}, {1536, 0}} {
		v, err := d.number(tc.pts)
		if tc.want == 0 && (!errors.Is(err, ErrUnsegmentable) || !strings.Contains(fmt.Sprint(err), "after frame 4")) {
			t.Errorf("pts %d after frame 4: frame %d, %v; want ErrUnsegmentable, after frame 4", tc.pts, v, err)
		}
		if tc.want != 0 && (v != tc.want || err != nil) {
			t.Errorf("pts %d: frame %d, %v; want frame %d", tc.pts, v, err, tc.want)
		}
	}
}

// A segment of a pipe (a shell's <(…), a FIFO, standard input) is refused as such, before
// the pipe is read: it failed when the segment's render opened it again ("opening input
// /dev/fd/63: Invalid data found"). Nobody writes to the FIFO here: a read would block.
func TestPlanSegmentRefusesPipes(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "in.mkv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{fifo, os.DevNull} {
		_, err := PlanSegment(t.Context(), Options{Input: in, Output: "x.mp4"}, 0, 2)
		if !errors.Is(err, ErrUnseekable) || !strings.Contains(err.Error(), in+" is a pipe or a device") {
			t.Errorf("%s: %v, want ErrUnseekable naming it", in, err)
		}
	}
}

// PlanSegment cuts what Start and End select, as a whole render selects it, into ranges as
// even as whole frames allow.
func TestPlanSegment(t *testing.T) {
	src := mediatest.Clip(t, "mp4")
	for _, tc := range []struct {
		start, end  string
		first, last int // frames 21 to 40: pts 3000·n of 1/90000 for n in 20..49 but 21, 24…48
	}{
		{"", "", 1, 60},
		{"7", "50", 7, 50},
		{"1s", "", 28, 60},   // the first frame at or after 1 s (pts 90000): frame 28, pts 93000
		{"7", "1.5s", 7, 37}, // the last before 1.5 s (pts 135000): frame 37, pts 132000
	} {
		start, _ := ParsePosition(tc.start)
		end, _ := ParsePosition(tc.end)
		o := Options{Input: src, Output: "x.mp4", Start: start, End: end}
		for _, count := range []int{1, 3, 7} {
			next := tc.first
			for i := range count {
				p, err := PlanSegment(t.Context(), o, i, count)
				if err != nil {
					t.Fatal(err)
				}
				n := tc.last - tc.first + 1
				if p.First != tc.first || p.Last != tc.last || p.SegFirst != next || p.Frames() < n/count || p.Frames() > n/count+1 {
					t.Errorf("start %q end %q, segment %d of %d: render %d..%d, segment %d..%d; want render %d..%d, segment from %d, %d or %d frames",
						tc.start, tc.end, i, count, p.First, p.Last, p.SegFirst, p.SegLast, tc.first, tc.last, next, n/count, n/count+1)
				}
				next = p.SegLast + 1
			}
			if next != tc.last+1 {
				t.Errorf("start %q end %q, %d segments end at frame %d, want %d", tc.start, tc.end, count, next-1, tc.last)
			}
		}
	}
	if _, err := PlanSegment(t.Context(), Options{Input: src, Output: "x.mp4", Start: Position{Frame: 55}}, 0, 7); !errors.Is(err, ErrSegmentCount) {
		t.Errorf("7 segments of 6 frames: %v, want ErrSegmentCount", err)
	}
	// Cut mid-GOP: the decoder drops the frames before the first keyframe, so the packets
	// do not number the frames a render decodes.
	cut := filepath.Join(t.TempDir(), "cut.mp4")
	if err := runFFmpeg(t.Context(), "-i", src, "-ss", "0.2", "-map", "0:v", "-c", "copy", "-copyinkf", "-y", cut); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanSegment(t.Context(), Options{Input: cut, Output: "x.mp4"}, 0, 2); !errors.Is(err, ErrUnsegmentable) || !strings.Contains(err.Error(), "not a keyframe") {
		t.Errorf("a video cut mid-GOP: %v, want ErrUnsegmentable, not a keyframe", err)
	}
}

// Join refuses, before writing anything, what is not every segment of one render once: a
// missing segment, one given twice, one of a render with other options, one of a render cut
// into another count, a file that is no segment, segments of another source; and an output
// that is one of the segments.
func TestJoinRefuses(t *testing.T) {
	src := mediatest.Clip(t, "mp4")
	o := Options{Input: src, Output: "x.mp4", Preset: "ultrafast"}
	segs, _ := renderSegments(t, o, 3)
	otherCRF := o
	otherCRF.CRF = 30
	foreign, _ := renderSegments(t, otherCRF, 3)
	fourths, _ := renderSegments(t, o, 4)
	otherSource := mediatest.Clip(t, "mkv")
	out := filepath.Join(t.TempDir(), "out.mp4")
	for _, tc := range []struct {
		name     string
		source   string
		segments []string
		output   string
		says     string
	}{
		{"missing", src, []string{segs[0], segs[2]}, out, "segment 1 of 3 is missing (src.seg-0001-of-0003.mp4)"},
		{"twice", src, []string{segs[0], segs[1], segs[1], segs[2]}, out, "duplicate segment 1 of 3"},
		{"other options", src, []string{segs[0], foreign[1], segs[2]}, out, "foreign segment"},
		{"other count", src, []string{segs[0], segs[1], fourths[3]}, out, "segments of two renders cut differently"},
		{"no segment", src, []string{segs[0], src, segs[2]}, out, "not a trackink segment"},
		{"other source", otherSource, segs, out, "were not rendered from"},
		{"output is a segment", src, segs, segs[1], "is one of the segments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Join(context.Background(), JoinOptions{Source: tc.source, Segments: tc.segments, Output: tc.output, Overwrite: true})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Join: %v, want an error saying %q", err, tc.says)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a refused join wrote its output")
			}
			entries, _ := os.ReadDir(filepath.Dir(out))
			if len(entries) > 0 {
				t.Errorf("a refused join left %s", entries[0].Name())
			}
		})
	}
}

// Join refuses a segment damaged after its render wrote it, naming it and saying which
// segment to render again, before it writes anything: bytes flipped in its payload (it still
// opens and has its frames: the join used to copy them), its record's checksum changed, a
// file cut short, and a segment of a trackink whose records carried no checksum. The same
// segments intact join, their packets copied byte for byte.
// A join stopped while it opens its segments says it was stopped, with the stop's cause,
// and never that a segment is damaged (which would send the user to render it again): a
// stop signal that ended a segment's open was once taken for a truncated file.
func TestJoinStoppedWhileOpening(t *testing.T) {
	src := mediatest.Clip(t, "mp4")
	segs, _ := renderSegments(t, Options{Input: src, Output: "x.mp4", Preset: "ultrafast"}, 2)
	stopped := errors.New("interrupted by SIGINT")
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(stopped)
	out := filepath.Join(t.TempDir(), "joined.mp4")
	_, err := Join(ctx, JoinOptions{Source: src, Segments: segs, Output: out})
	var damaged *DamagedSegmentError
	if !errors.Is(err, stopped) || errors.As(err, &damaged) {
		t.Errorf("join stopped: %v; want the stop's cause, not a damaged segment", err)
	}
	testdir.Holds(t, filepath.Dir(out))
}

func TestJoinRefusesDamagedSegments(t *testing.T) {
	src := mediatest.Clip(t, "mp4")
	segs, _ := renderSegments(t, Options{Input: src, Output: "x.mp4", Preset: "ultrafast"}, 3)
	for _, tc := range []struct {
		name    string
		damage  func(t *testing.T, path string)
		says    string
		damaged bool // a *DamagedSegmentError, which says which segment to render again
	}{
		{"payload flipped", flipPayload, "its packets do not match the checksum its render recorded", true},
		{"checksum edited", func(t *testing.T, path string) {
			editFile(t, path, func(b []byte) []byte {
				loc := regexp.MustCompile(`"packets":"[0-9a-f]{64}"`).FindIndex(b)
				if loc == nil {
					t.Fatalf("%s has no checksum in its record", path)
				}
				if digit := &b[loc[1]-2]; *digit == '0' {
					*digit = '1'
				} else {
					*digit = '0'
				}
				return b
			})
		}, "its packets do not match the checksum its render recorded", true},
		// Cut short, as by a copy that stopped: its movie header, at the end, is gone.
		{"truncated", func(t *testing.T, path string) {
			editFile(t, path, func(b []byte) []byte { return b[:len(b)*2/3] })
		}, "it cannot be opened (truncated?)", true},
		{"no checksum", func(t *testing.T, path string) {
			editFile(t, path, func(b []byte) []byte { return bytes.Replace(b, []byte(`{"version":3,`), []byte(`{"version":1,`), 1) })
		}, "written by an older trackink, whose segments carry no checksum", false},
		{"no build", func(t *testing.T, path string) {
			editFile(t, path, func(b []byte) []byte { return bytes.Replace(b, []byte(`{"version":3,`), []byte(`{"version":2,`), 1) })
		}, "written by an older trackink, whose segments do not say which build of trackink rendered them", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copies := copySegments(t, segs)
			tc.damage(t, copies[1])
			out := filepath.Join(t.TempDir(), "out.mp4")
			_, err := Join(t.Context(), JoinOptions{Source: src, Segments: copies, Output: out})
			if err == nil || !strings.Contains(err.Error(), copies[1]) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Join: %v\nwant an error naming %s and saying %q", err, copies[1], tc.says)
			}
			var damaged *DamagedSegmentError
			if errors.As(err, &damaged) != tc.damaged || tc.damaged && (damaged.Path != copies[1] || damaged.Index != 1 || damaged.Count != 3) {
				t.Errorf("Join: %#v, want a DamagedSegmentError %t for segment 1 of 3, %s", err, tc.damaged, copies[1])
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
				t.Errorf("a refused join left %s", entries[0].Name())
			}
		})
	}

	joined := join(t, src, copySegments(t, segs))
	var want []string
	for _, s := range segs {
		want = append(want, packetBytes(t, s)...)
	}
	if got := packetBytes(t, joined); !slices.Equal(got, want) {
		t.Errorf("the joined video's packets are not the segments': %s", mediatest.Difference(want, got))
	}
}

// A segment replaced while the join runs (its render run again, as a requeued cluster task
// does, renames its new segment over the old) does not mix two files: the join checks and
// copies the file it opened. Here a damaged file takes the intact segment's place once the
// join has opened the segments: the join used to open the path again for the checksum, and
// refused as damaged the segment it was copying, which was intact. Without /proc, where the
// join can only open the path again, it refuses to go on, saying to run the join again; the
// same join undisturbed succeeds.
func TestJoinReadsTheSegmentItOpened(t *testing.T) {
	src := mediatest.Clip(t, "mp4")
	segs, _ := renderSegments(t, Options{Input: src, Output: "x.mp4", Preset: "ultrafast"}, 3)
	var want []string
	for _, s := range segs {
		want = append(want, packetBytes(t, s)...)
	}
	joinAndCompare := func(t *testing.T, segments []string) {
		t.Helper()
		if got := packetBytes(t, join(t, src, segments)); !slices.Equal(got, want) {
			t.Errorf("the joined video's packets are not the segments': %s", mediatest.Difference(want, got))
		}
	}
	// replaceDuringJoin has the next joins rename a damaged copy of path over it once they
	// have opened the segments.
	replaceDuringJoin := func(t *testing.T, path string) {
		testHookSegmentsOpened = func() {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			next := filepath.Join(filepath.Dir(path), ".next.mp4")
			if err := os.WriteFile(next, b, 0o644); err != nil {
				t.Fatal(err)
			}
			flipPayload(t, next)
			if err := os.Rename(next, path); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { testHookSegmentsOpened = nil })
	}

	t.Run("the file opened", func(t *testing.T) {
		copies := copySegments(t, segs)
		replaceDuringJoin(t, copies[1])
		joinAndCompare(t, copies)
	})
	t.Run("no /proc", func(t *testing.T) {
		procFD = filepath.Join(t.TempDir(), "fd") + "/"
		t.Cleanup(func() { procFD = "/proc/self/fd/" })
		copies := copySegments(t, segs)
		joinAndCompare(t, copies)
		replaceDuringJoin(t, copies[1])
		out := filepath.Join(t.TempDir(), "out.mp4")
		_, err := Join(t.Context(), JoinOptions{Source: src, Segments: copies, Output: out})
		var damaged *DamagedSegmentError
		if !errors.Is(err, ErrSegmentChanged) || errors.As(err, &damaged) || !strings.Contains(err.Error(), copies[1]) || !strings.Contains(err.Error(), "run the join again") {
			t.Errorf("Join: %v\nwant ErrSegmentChanged naming %s and saying to run the join again", err, copies[1])
		}
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
			t.Errorf("a refused join left %s", entries[0].Name())
		}
	})
}

// Segments rendered by two builds of trackink (a cluster where one node runs an older
// binary) may draw otherwise though their plans agree: Join refuses them, before writing
// anything, naming each build and the segments it rendered. The build is injected here:
// go test stamps no commit, so every segment of a test binary is of one build, named by the
// executable's hash.
func TestJoinRefusesSegmentsOfTwoBuilds(t *testing.T) {
	if got := buildIdentity(); !strings.Contains(got, "executable sha256 ") {
		t.Errorf("a test binary's build: %q, want it named by the executable's hash", got)
	}
	src := mediatest.Clip(t, "mp4")
	o := Options{Input: src, Output: "x.mp4", Preset: "ultrafast"}
	old := buildIdentity
	t.Cleanup(func() { buildIdentity = old })
	buildIdentity = func() string { return "A (go1.26.0 linux/amd64)" }
	a, _ := renderSegments(t, o, 3)
	buildIdentity = func() string { return "B (go1.26.0 linux/amd64)" }
	b, _ := renderSegments(t, o, 3)
	for _, tc := range []struct {
		segments []string
		says     []string
	}{
		{[]string{a[0], b[1], a[2]}, []string{"segments rendered by 2 builds of trackink, whose pictures may differ: ",
			"segments 0 and 2 (" + a[0] + ", " + a[2] + ") by trackink A (go1.26.0 linux/amd64); segment 1 (" + b[1] + ") by trackink B (go1.26.0 linux/amd64); ",
			"render again the segments another build rendered"}},
		{[]string{b[2], a[1], a[0]}, []string{"segments 0 and 1 (" + a[0] + ", " + a[1] + ") by trackink A (go1.26.0 linux/amd64); segment 2 (" + b[2] + ") by trackink B"}},
	} {
		out := filepath.Join(t.TempDir(), "out.mp4")
		_, err := Join(t.Context(), JoinOptions{Source: src, Segments: tc.segments, Output: out})
		for _, says := range tc.says {
			if err == nil || !strings.Contains(err.Error(), says) {
				t.Errorf("Join %q: %v\nwant an error saying %q", tc.segments, err, says)
			}
		}
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
			t.Errorf("a refused join left %s", entries[0].Name())
		}
	}
	join(t, src, b)
}

// packetBytes returns the size and MD5 of each video packet of path.
func packetBytes(t *testing.T, path string) []string {
	t.Helper()
	lines := mediatest.Packets(t, path, "0:v")
	for i, l := range lines {
		f := strings.Split(l, ",")
		lines[i] = strings.TrimSpace(f[4]) + " " + strings.TrimSpace(f[5])
	}
	return lines
}

// copySegments copies segment files into a new directory and returns the copies' paths.
func copySegments(t *testing.T, segs []string) []string {
	t.Helper()
	dir := t.TempDir()
	var copies []string
	for _, s := range segs {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		c := filepath.Join(dir, filepath.Base(s))
		if err := os.WriteFile(c, b, 0o644); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, c)
	}
	return copies
}

// editFile rewrites the file at path with what edit makes of its bytes.
func editFile(t *testing.T, path string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// flipPayload inverts 200 bytes in the middle of the media data of the MP4 file at path,
// leaving its header, and so the frames and timestamps it says it has, intact.
func flipPayload(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	off, size, err := findBox(f, "mdat")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 200)
	at := off + size/2
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] ^= 0xff
	}
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
}

// A plan stopped at any moment fails with the stop's cause: the stop cuts the packet being
// read short, which FFmpeg marks corrupt, and a segment stopped 55 ms in once said its
// input "cannot be rendered in segments" (exit 1 for SIGTERM's 143).
func TestPlanStoppedAtAnyMoment(t *testing.T) {
	clip := clipWithAudio(t, "in.mp4")
	stopped := 0
	for i := range 200 {
		after := time.Duration(i%40) * 50 * time.Microsecond
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(after, func() { cancel(errStopped) })
		_, err := PlanSegment(ctx, Options{Input: clip, Output: "unused.mp4"}, 0, 2)
		switch {
		case err == nil:
		case errors.Is(err, errStopped):
			stopped++
		default:
			t.Fatalf("stopped after %v: %v, want the stop's cause", after, err)
		}
		cancel(nil)
	}
	t.Logf("%d of 200 plans stopped", stopped)
}
