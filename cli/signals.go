package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (kill, a scheduler cancelling a
// job) and SIGHUP (the terminal went away). Each stops a render or a join the same way: the
// output is not written, the partial file is removed, and the exit status is 128 + the
// signal's number, 130, 143 and 129, which is also what a shell reports for a process the
// signal killed outright. So a signal that comes before the handler is in place (the first
// milliseconds of a run, while the command line is read) gives the same status as one that
// comes later, and a killed run has nothing to clean: it had not begun to write.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// caughtSignal is the cause of a context signalContext ended.
type caughtSignal struct{ sig syscall.Signal }

func (c caughtSignal) Error() string { return "interrupted by " + signalName(c.sig) }

// Unwrap makes the cause a cancellation for the libraries that report ctx's cause (video).
func (c caughtSignal) Unwrap() error { return context.Canceled }

// repeatWindow is how long after the first stop signal a repeat of one is taken as the
// same request. Tooling sends one stop twice within microseconds: timeout(1) signals its
// child and then its process group, which holds the child again; a terminal that closes
// sends SIGHUP to the session's leader and its group. A person's second Ctrl-C comes
// later than that.
const repeatWindow = time.Second

// repeatWindowClosed, if set, is called when repeatWindow has passed and a second signal
// would end the run: the test of that waits for it instead of for a time.
var repeatWindowClosed func()

// signalContext returns a context that ends at the first of stopSignals, with that signal
// as its cause (interrupted reads it), and the function that stops watching.
//
// A stop signal within repeatWindow of the first is dropped: it is the same request sent
// twice (timeout -s INT), and taking it as a second one aborted the cleanup the first had
// begun, leaving the partial files. After the window the handler lets go, so a second one
// (Ctrl-C pressed again while the first is being honoured, or while something the context
// cannot end holds the run) does what it does to a process without a handler: it ends the
// run at once, which a shell reports as the same 128 + the signal's number. It was
// swallowed, and a run that did not end at the first signal could then be ended only by
// SIGKILL. A partial file a second signal leaves is marked, and the next run into its
// directory removes it, as after SIGKILL.
//
// A signal the run was started with ignored stays ignored: SIGHUP under nohup (a render
// left running on a remote machine when its terminal closes), SIGINT for a job a
// non-interactive shell put in the background. Watching it would undo that (Go's handler
// replaces the ignoring), and the hang-up nohup was asked to shield would stop the render.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	caught := make(chan os.Signal, 1)
	var watched []os.Signal
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			watched = append(watched, s)
		}
	}
	if len(watched) > 0 {
		signal.Notify(caught, watched...)
	}
	done := make(chan struct{})
	go func() {
		var s os.Signal
		select {
		case s = <-caught:
		case <-done:
			return
		}
		cancel(caughtSignal{s.(syscall.Signal)})
		window := time.NewTimer(repeatWindow)
		defer window.Stop()
		for open := true; open; {
			select {
			case <-caught: // the first one again, from the same sender
			case <-window.C:
				open = false
			case <-done:
				return
			}
		}
		signal.Stop(caught)
		// A second signal that came before Stop waits in caught: it is raised again,
		// to meet the default action Stop restored.
		select {
		case again := <-caught:
			syscall.Kill(os.Getpid(), again.(syscall.Signal))
		default:
		}
		if repeatWindowClosed != nil {
			repeatWindowClosed()
		}
	}()
	return ctx, func() {
		signal.Stop(caught)
		close(done)
		cancel(nil)
	}
}

// interrupted is the error that ends a command a stop signal ended (ctx is signalContext's):
// the exit status 128 + the signal's number.
func interrupted(ctx context.Context) error {
	sig := syscall.SIGINT
	var c caughtSignal
	if errors.As(context.Cause(ctx), &c) {
		sig = c.sig
	}
	return exitError{128 + int(sig), fmt.Errorf("%s; no output written", caughtSignal{sig})}
}

// signalName is the name a signal goes by on the command line.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
