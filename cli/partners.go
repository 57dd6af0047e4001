package cli

import (
	"context"
	"io"
	"path/filepath"

	"trackink/job"
	"trackink/outfile"
)

// partners are the files a run writes beside its main output (outfile.Partner: created
// before any work, moved into place with the output), and the report of the render they are
// written from once the video is complete.
type partners struct {
	files  []outfile.Partner
	report job.Report
}

// add adds the file path that flag names (target, as Run.Output returned it), written by
// write from the render's report.
func (p *partners) add(flag, path, target string, write func(io.Writer, job.Report) error) {
	p.files = append(p.files, outfile.Partner{Name: flag + " " + path, Target: target,
		Write: func(w io.Writer) error { return write(w, p.report) }})
}

// create sweeps the partial files killed runs left in the partners' directories and creates
// the partners' own.
func (p *partners) create(stderr io.Writer) error {
	swept := map[string]bool{}
	for _, f := range p.files {
		if dir := filepath.Dir(f.Target); !swept[dir] {
			swept[dir] = true
			removeStalePartials(f.Target, stderr)
		}
	}
	return outfile.CreatePartners(p.files)
}

// discard deletes the partners' partial files that were not moved into place.
func (p *partners) discard() { outfile.DiscardPartners(p.files) }

// hook is job.Options.Partners: once the video is complete, it writes each partner from the
// render's report and hands their partial files over to be moved into place with it.
func (p *partners) hook() func(job.Report) ([]*outfile.PartialFile, error) {
	if len(p.files) == 0 {
		return nil
	}
	return func(r job.Report) ([]*outfile.PartialFile, error) {
		p.report = r
		return outfile.FillPartners(context.Background(), p.files)
	}
}

// commit writes the partners and moves them into place together (outfile.CommitAll), the
// first as the main output: for a run whose outputs are all written at the end (track's
// tracks and class names). A stop signal (ctx) ends the writing: nothing is moved.
func (p *partners) commit(ctx context.Context, overwrite bool) error {
	partials, err := outfile.FillPartners(ctx, p.files)
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	if err != nil {
		return err
	}
	return outfile.CommitAll(overwrite, partials...)
}
