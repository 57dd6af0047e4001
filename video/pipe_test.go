package video

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Open of a FIFO waits for its writer, as FFmpeg's own open did, and reads what it sends;
// a ctx that ends while it waits, for the writer or for more than it sent, ends the open
// with ctx's cause within a moment. FFmpeg's open(2) and read(2) could not be ended: a
// stop signal left the render hanging (cli's TestStoppedWhileInputPipeWaits).
func TestOpenPipe(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "clip.ts")
	if err := Synthesize(clip, 160, 120, 50, 25); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	stopped := errors.New("stopped")
	for _, tc := range []struct {
		name  string
		feed  []byte // what the writer sends; nil: no writer comes
		close bool   // the writer then closes the pipe; else it keeps it open, silent
	}{
		{"no writer", nil, false},
		{"the writer stalls", whole[:2048], false},
		{"the whole clip", whole, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "in.ts")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancelCause(t.Context())
			defer cancel(nil)
			type result struct {
				info Info
				err  error
			}
			done := make(chan result, 1)
			go func() {
				s, err := Open(ctx, fifo, 0)
				if err != nil {
					done <- result{err: err}
					return
				}
				defer s.Close()
				done <- result{info: s.Info()}
			}()
			if tc.feed != nil {
				// Once Open has read what it needs, the rest may find the pipe closed.
				go func() {
					w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
					if err != nil {
						return
					}
					w.Write(tc.feed)
					if !tc.close {
						<-ctx.Done()
					}
					w.Close()
				}()
			}
			if !tc.close {
				time.Sleep(200 * time.Millisecond) // Open waits by now
				cancel(stopped)
			}
			select {
			case r := <-done:
				switch {
				case tc.close && (r.err != nil || r.info.Width != 160):
					t.Errorf("Open = %+v, %v; want the 160×120 clip", r.info, r.err)
				case !tc.close && !errors.Is(r.err, stopped):
					t.Errorf("Open = %v; want ctx's cause", r.err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Open still waits 10 s after its context ended")
			}
		})
	}
}

// An open stopped at any moment fails with the stop's cause, never with what an interrupted
// probe leaves: a stream without a picture size ("the video stream gives no picture"), which
// a join stopped 46 ms in once reported (exit 1 for SIGTERM's 143).
func TestOpenStoppedAtAnyMoment(t *testing.T) {
	clip := clipWithAudio(t, "in.mp4")
	stopped := 0
	for i := range 200 {
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(time.Duration(i%40)*50*time.Microsecond, func() { cancel(errStopped) })
		in, err := openInput(ctx, clip, 0)
		switch {
		case err == nil:
			in.close()
		case errors.Is(err, errStopped):
			stopped++
		default:
			t.Fatalf("stopped after %v: %v, want the stop's cause", time.Duration(i%40)*50*time.Microsecond, err)
		}
		cancel(nil)
	}
	t.Logf("%d of 200 opens stopped", stopped)
}

var errStopped = errors.New("stopped")
