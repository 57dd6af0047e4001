package scene

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeLongFile writes a generated tracking file of frames × ids boxes in the given format to
// dir and returns its path (a directory for YOLO) and the number of boxes it holds. Boxes move
// a little every frame; rows come frame by frame or, with trackMajor, track by track, as
// trackers that write each track out when it ends do (CVAT always writes a track at a time,
// with a keyframe every 10 frames and the frames between interpolated). The video is
// 1920×1080 (for YOLO).
func writeLongFile(tb testing.TB, dir string, format Format, frames, ids int, trackMajor bool) (string, int) {
	tb.Helper()
	name := map[Format]string{FormatMOT: "long.txt", FormatJSONL: "long.jsonl", FormatSupervision: "long.csv",
		FormatKITTI: "long_kitti.txt", FormatCVAT: "long.xml", FormatYOLO: "labels"}[format]
	path := filepath.Join(dir, name)
	box := func(frame, id int) (x, y, w, h float64) {
		return float64(id*37%1800) + float64(frame%100)/7, float64(id*53%900) + float64(frame%50)/3, 40.5, 90.25
	}
	score := func(id int) float64 { return float64(id%100)/100 + 0.005 }
	// Each format's writer of one box, and what comes before and after a frame or the file.
	var row func(w io.Writer, frame, id int)
	var open, close func(w io.Writer, frame int)
	switch format {
	case FormatMOT:
		row = func(w io.Writer, frame, id int) {
			x, y, bw, bh := box(frame, id)
			fmt.Fprintf(w, "%d,%d,%.2f,%.2f,%.2f,%.2f,%.4f,-1,-1,-1\n", frame, id, x, y, bw, bh, score(id))
		}
	case FormatJSONL:
		open = func(w io.Writer, frame int) { fmt.Fprintf(w, `{"frame":%d,"boxes":[`, frame) }
		row = func(w io.Writer, frame, id int) {
			x, y, bw, bh := box(frame, id)
			if id > 1 {
				io.WriteString(w, ",")
			}
			fmt.Fprintf(w, `{"id":%d,"x":%.2f,"y":%.2f,"w":%g,"h":%g,"label":"person","score":%.4f}`, id, x, y, bw, bh, score(id))
		}
		close = func(w io.Writer, frame int) { io.WriteString(w, "]}\n") }
	case FormatSupervision:
		row = func(w io.Writer, frame, id int) {
			x, y, bw, bh := box(frame, id)
			fmt.Fprintf(w, "%.2f,%.2f,%.2f,%.2f,0,%.4f,%d,person,%d\r\n", x, y, x+bw, y+bh, score(id), id, frame-1)
		}
	case FormatKITTI:
		row = func(w io.Writer, frame, id int) {
			x, y, bw, bh := box(frame, id)
			fmt.Fprintf(w, "%d %d Pedestrian 0 0 -10 %.2f %.2f %.2f %.2f -1 -1 -1 -1000 -1000 -1000 -10 %.4f\n",
				frame-1, id, x, y, x+bw, y+bh, score(id))
		}
	case FormatYOLO:
		row = func(w io.Writer, frame, id int) {
			x, y, bw, bh := box(frame, id)
			fmt.Fprintf(w, "0 %g %g %g %g %.4f %d\n", (x+bw/2)/1920, (y+bh/2)/1080, bw/1920, bh/1080, score(id), id)
		}
	case FormatCVAT:
		trackMajor = true
		row = func(w io.Writer, frame, id int) {
			if (frame-1)%10 != 0 && frame != frames {
				return
			}
			x, y, bw, bh := box(frame, id)
			if frame == 1 {
				fmt.Fprintf(w, "  <track id=\"%d\" label=\"person\" source=\"manual\">\n", id)
			}
			fmt.Fprintf(w, "    <box frame=\"%d\" outside=\"0\" occluded=\"0\" keyframe=\"1\" xtl=\"%.2f\" ytl=\"%.2f\" xbr=\"%.2f\" ybr=\"%.2f\" z_order=\"0\">\n"+
				"      <attribute name=\"walking\">true</attribute>\n    </box>\n", frame-1, x, y, x+bw, y+bh)
			if frame == frames {
				fmt.Fprintf(w, "    <box frame=\"%d\" outside=\"1\" occluded=\"0\" keyframe=\"1\" xtl=\"%.2f\" ytl=\"%.2f\" xbr=\"%.2f\" ybr=\"%.2f\" z_order=\"0\">\n"+
					"    </box>\n  </track>\n", frame, x, y, x+bw, y+bh)
			}
		}
	}

	create := func(path string) (*bufio.Writer, func()) {
		f, err := os.Create(path)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriter(f)
		return w, func() {
			if err := w.Flush(); err != nil {
				tb.Fatal(err)
			}
			if err := f.Close(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if format == FormatYOLO {
		if err := os.Mkdir(path, 0o755); err != nil {
			tb.Fatal(err)
		}
		for frame := 1; frame <= frames; frame++ {
			w, done := create(filepath.Join(path, fmt.Sprintf("clip_%d.txt", frame)))
			for id := 1; id <= ids; id++ {
				row(w, frame, id)
			}
			done()
		}
		return path, frames * ids
	}
	w, done := create(path)
	defer done()
	switch format {
	case FormatSupervision:
		io.WriteString(w, "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name,frame_index\r\n")
	case FormatCVAT:
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<annotations>\n  <version>1.1</version>\n"+
			"  <meta><task><size>%d</size><start_frame>0</start_frame><stop_frame>%d</stop_frame></task></meta>\n", frames, frames-1)
		defer io.WriteString(w, "</annotations>\n")
	}
	if trackMajor {
		for id := 1; id <= ids; id++ {
			for frame := 1; frame <= frames; frame++ {
				row(w, frame, id)
			}
		}
		return path, frames * ids
	}
	for frame := 1; frame <= frames; frame++ {
		if open != nil {
			open(w, frame)
		}
		for id := 1; id <= ids; id++ {
			row(w, frame, id)
		}
		if close != nil {
			close(w, frame)
		}
	}
	return path, frames * ids
}

// longFiles are the generated files of the memory test and the load benchmark.
var longFiles = []struct {
	name       string
	format     Format
	trackMajor bool
}{
	{"MOT", FormatMOT, false},
	{"MOT/track-major", FormatMOT, true},
	{"JSONL", FormatJSONL, false},
	{"supervision", FormatSupervision, false},
	{"KITTI", FormatKITTI, false},
	{"CVAT", FormatCVAT, true},
	{"YOLO", FormatYOLO, false},
}

// longOptions are the options a long file is read with: YOLO needs the video's size.
var longOptions = Options{Width: 1920, Height: 1080}

// heapPerBox loads path and returns the heap its Tracks keep, per box, and the Tracks.
func heapPerBox(tb testing.TB, path string, boxes int) (float64, *Tracks) {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := Load(path, longOptions)
	if err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	return (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(boxes), tr
}

// TestLongFilesTakeLittleMemory reads a long generated file of each format and checks the
// heap that its Tracks keep: at most 48 bytes a box, the bound issue #13 sets (an hour of 100
// boxes a frame at 30 fps then takes under 520 MB).
func TestLongFilesTakeLittleMemory(t *testing.T) {
	const frames, ids = 2000, 100
	dir := t.TempDir()
	for _, lf := range longFiles {
		t.Run(lf.name, func(t *testing.T) {
			path, boxes := writeLongFile(t, dir, lf.format, frames, ids, lf.trackMajor)
			perBox, tr := heapPerBox(t, path, boxes)
			if n := countBoxes(tr); n != boxes || tr.Len() != frames || tr.Format() != lf.format {
				t.Fatalf("read %d boxes in %d frames as %s; want %d, %d, %s", n, tr.Len(), tr.Format(), boxes, frames, lf.format)
			}
			t.Logf("%.1f bytes a box", perBox)
			if perBox > 48 {
				t.Errorf("the tracks keep %.1f bytes a box; the bound is 48", perBox)
			}
		})
	}
}

// BenchmarkLoad loads files of 200,000 boxes, 2,000 frames of 100 tracks, and reports the
// heap kept per box.
func BenchmarkLoad(b *testing.B) {
	for _, lf := range longFiles {
		b.Run(lf.name, func(b *testing.B) {
			path, boxes := writeLongFile(b, b.TempDir(), lf.format, 2000, 100, lf.trackMajor)
			if info, err := os.Stat(path); err == nil && !info.IsDir() {
				b.SetBytes(info.Size())
			}
			perBox, _ := heapPerBox(b, path, boxes)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(path, longOptions); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(perBox, "B/box")
		})
	}
}
