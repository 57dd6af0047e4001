package job

import "errors"

// ErrOption marks an error in a job's options that is found before any work: a frame range
// with no frame in it, too many segments, a backend this machine lacks. trackink exits 2 on
// it. Messages name the options by trackink's command-line flags (--start, --segment), which
// are the options' names in the user's words.
var ErrOption = errors.New("a mistake in the options")

// optionError is an error that is an ErrOption.
type optionError struct{ error }

func (e optionError) Is(target error) bool { return target == ErrOption }
func (e optionError) Unwrap() error        { return e.error }

// badOption marks err as an ErrOption, keeping its message.
func badOption(err error) error { return optionError{err} }
