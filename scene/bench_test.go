package scene

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// writeBenchFile writes a tracking file of frames×ids rows to dir and returns its path and
// size. MOT rows come frame by frame, or track by track when trackMajor is set, as trackers
// that write each track out when it ends do; JSON Lines has one line per frame.
func writeBenchFile(b *testing.B, dir, name string, frames, ids int, trackMajor bool) (string, int64) {
	b.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	row := func(frame, id int) {
		x, y := float64(id*37%1900)+float64(frame%100)/7, float64(id*53%1000)+float64(frame%50)/3
		if filepath.Ext(name) == ".txt" {
			fmt.Fprintf(w, "%d,%d,%.2f,%.2f,%.2f,%.2f,%.4f,-1,-1,-1\n", frame, id, x, y, 40.5, 90.25, float64(id%100)/100)
		} else {
			if id > 1 {
				w.WriteByte(',')
			}
			fmt.Fprintf(w, `{"id":%d,"x":%.2f,"y":%.2f,"w":40.5,"h":90.25,"label":"person","score":%.4f}`, id, x, y, float64(id%100)/100)
		}
	}
	switch {
	case filepath.Ext(name) == ".jsonl":
		for frame := 1; frame <= frames; frame++ {
			fmt.Fprintf(w, `{"frame":%d,"boxes":[`, frame)
			for id := 1; id <= ids; id++ {
				row(frame, id)
			}
			w.WriteString("]}\n")
		}
	case trackMajor:
		for id := 1; id <= ids; id++ {
			for frame := 1; frame <= frames; frame++ {
				row(frame, id)
			}
		}
	default:
		for frame := 1; frame <= frames; frame++ {
			for id := 1; id <= ids; id++ {
				row(frame, id)
			}
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, info.Size()
}

// BenchmarkLoad loads files of a million boxes: 20,000 frames of 50 tracks.
func BenchmarkLoad(b *testing.B) {
	for _, bc := range []struct {
		name, file string
		trackMajor bool
	}{
		{"MOT/frame-major", "tracks.txt", false},
		{"MOT/track-major", "tracks.txt", true},
		{"JSONL", "tracks.jsonl", false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			path, size := writeBenchFile(b, b.TempDir(), bc.file, 20_000, 50, bc.trackMajor)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				tr, err := Load(path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if len(tr.Frames) != 20_000 {
					b.Fatalf("%d frames", len(tr.Frames))
				}
			}
		})
	}
}
