package video

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/asticode/go-astiav"
	"golang.org/x/sys/unix"
)

// pipeInput is an input read by Go rather than by FFmpeg's file protocol: a pipe (a named
// FIFO, standard input as /dev/stdin, a shell's <(…)) or a terminal. FFmpeg opens and reads
// such a file with blocking system calls that its interrupt callback cannot end: a FIFO
// nobody writes to held avformat_open_input in open(2), a stalled writer held it in
// read(2), and a stop signal could not end the run (it hung until SIGKILL). Here the file is
// opened without blocking and read through Go's poller, so cancel ends a wait at once, and
// FFmpeg reads it through an AVIOContext (io) that calls read.
type pipeInput struct {
	f  *os.File
	io *astiav.IOContext
}

// pipeBuffer is the AVIOContext's buffer: what FFmpeg asks of each read.
const pipeBuffer = 1 << 16

// openPipe opens path if it is a file FFmpeg would block on (see pipeInput) and waits, as
// FFmpeg's blocking open does, until a writer has written something or come and gone; ok is
// false, with no error, for any other file (a regular file, a device without a poller), which
// FFmpeg opens itself. A ctx that ends first ends the wait with its cause.
func openPipe(ctx context.Context, path string) (p *pipeInput, ok bool, err error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) == 0 {
		return nil, false, nil
	}
	// Not blocking: an open for reading of a FIFO nobody writes to returns at once.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, nil // FFmpeg's own open says what is wrong, as for any file
	}
	// A non-blocking descriptor makes a File that Go's poller waits on, where the kernel
	// lets it (pipes, terminals; not /dev/zero, which never blocks anyway).
	f := os.NewFile(uintptr(fd), path)
	if f.SetReadDeadline(time.Time{}) != nil {
		f.Close()
		return nil, false, nil
	}
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Unix(1, 0)) })
	err = waitReadable(f)
	stop()
	if ctx.Err() != nil {
		f.Close()
		return nil, true, context.Cause(ctx)
	}
	if err != nil {
		f.Close()
		return nil, true, fmt.Errorf("video: input: %w", err)
	}
	p = &pipeInput{f: f}
	if p.io, err = astiav.AllocIOContext(pipeBuffer, false, p.read, nil, nil); err != nil {
		f.Close()
		return nil, true, fmt.Errorf("video: input %s: %w", path, err)
	}
	return p, true, nil
}

// waitReadable waits until f has something to read or its writers have gone (poll's POLLIN
// or POLLHUP). A read of a FIFO whose writer has not come yet would say end of file; the
// kernel reports POLLHUP on a FIFO opened without blocking only once a writer has come and
// gone, so this waits for the writer as a blocking open does.
func waitReadable(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var perr error
	err = rc.Read(func(fd uintptr) bool {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		switch {
		case errors.Is(err, unix.EINTR):
			return false
		case err != nil:
			perr = err
			return true
		}
		return n > 0
	})
	if err != nil {
		return err
	}
	return perr
}

// read is the AVIOContext's read: what the pipe holds, FFmpeg's end of file at its end, and
// AVERROR_EXIT once cancel has run.
func (p *pipeInput) read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	switch {
	case n > 0:
		return n, nil
	case err == nil, errors.Is(err, io.EOF):
		return 0, astiav.ErrEof
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, os.ErrClosed):
		return 0, astiav.ErrExit
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return 0, astiav.Error(-int(errno))
	}
	return 0, astiav.ErrEio
}

// cancel makes a read that waits, and every read after it, return at once.
func (p *pipeInput) cancel() { p.f.SetReadDeadline(time.Unix(1, 0)) }

// close frees the AVIOContext (FFmpeg leaves a caller's own to the caller) and closes the file.
func (p *pipeInput) close() {
	p.io.Free()
	p.f.Close()
}
