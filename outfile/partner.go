package outfile

import (
	"context"
	"fmt"
	"io"
)

// Partner is a file that describes another output (a video's tracks, its statistics), so it
// lands with it or not at all: its partial file is created before any work
// (CreatePartners), so that a directory that cannot take it is found then, not after the
// work; it is written once the output is complete (FillPartners) and moved into place
// together with it (CommitAll).
type Partner struct {
	Name    string // how messages name it: the flag and the path as given
	Target  string // the file to write (Run.Output)
	Write   func(io.Writer) error
	partial *PartialFile
}

// CreatePartners creates the partners' partial files. On an error the ones created are
// discarded.
func CreatePartners(ps []Partner) error {
	for i := range ps {
		p := &ps[i]
		var err error
		if p.partial, err = CreatePartial(p.Target); err != nil {
			DiscardPartners(ps)
			return fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	return nil
}

// DiscardPartners deletes the partners' partial files that were not moved into place.
func DiscardPartners(ps []Partner) {
	for _, p := range ps {
		if p.partial != nil {
			p.partial.Discard()
		}
	}
}

// FillPartners writes each partner into its partial file and returns the partial files, to
// be moved into place together (CommitAll). When ctx ends, the writing stops at its next
// write and the error is ctx's.
func FillPartners(ctx context.Context, ps []Partner) ([]*PartialFile, error) {
	partials := make([]*PartialFile, len(ps))
	for i, p := range ps {
		err := p.Write(ctxWriter{ctx, p.partial})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		partials[i] = p.partial
	}
	return partials, nil
}

// Write writes the file path through a partial file beside it, moved into place only when
// write succeeded, so that a failure leaves nothing behind. Without overwrite, a file that
// appeared at path meanwhile is not replaced (ErrExists). When ctx ends the writing stops at
// its next write, nothing is moved into place, and the error is ctx's.
func Write(ctx context.Context, path string, overwrite bool, write func(io.Writer) error) error {
	p, err := CreatePartial(path)
	if err != nil {
		return err
	}
	defer p.Discard()
	err = write(ctxWriter{ctx, p})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	return p.Commit(overwrite)
}

// ctxWriter fails every write once ctx has ended, so that a long write stops at a signal.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}
