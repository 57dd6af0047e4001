package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"trackink/job"
	"trackink/options"
	"trackink/outfile"
	"trackink/scene"
)

// partners are the files a run writes beside its main output (outfile.Partner: created
// before any work, moved into place with the output), and the report of the render they are
// written from once the video is complete.
type partners struct {
	files  []outfile.Partner
	report job.Report
	// stale are files the run replaces with nothing (dropStale), and removed those of them
	// that existed and were removed.
	stale, removed []string
}

// add adds the file path that flag names (target, as Run.Output returned it), written by
// write from the render's report.
func (p *partners) add(flag, path, target string, write func(io.Writer, job.Report) error) {
	p.files = append(p.files, outfile.Partner{Name: flag + " " + path, Target: target,
		Write: func(w io.Writer) error { return write(w, p.report) }})
}

// staleNames checks, for MOTChallenge tracks at path written without class names, the file
// that names classes beside them (options.NamesBeside) as an output of the run (flag's
// class names): not an input, not replaced without -y. A later read takes that file as
// naming the new file's class numbers, so with -y an old one is removed as the tracks land
// (dropStale), as a partner would be replaced; without -y one there refuses the run, as it
// refuses the tracks' own file. "" when format is not MOTChallenge text.
func staleNames(files *runFiles, flag, path string, format scene.Format) (string, error) {
	if format != scene.FormatMOT {
		return "", nil
	}
	names := options.NamesBeside(path)
	if _, err := files.Output(flag+" (its class names)", names); err != nil {
		return "", err
	}
	return names, nil
}

// dropStale adds a file the run's main output makes stale and writes no new one of
// (staleNames), removed before the main output takes its place, with -y (overwrite);
// without, nothing is there (the run was refused otherwise).
func (p *partners) dropStale(path string, overwrite bool) {
	if path != "" && overwrite {
		p.stale = append(p.stale, path)
	}
}

// removeStale removes the stale files, before the main output takes its place: a kill
// after it leaves the old main output without them, as CommitAll leaves it without its old
// partners.
func (p *partners) removeStale() error {
	var err error
	p.removed, err = outfile.RemoveOld(p.stale...)
	return err
}

// noteRemoved says which stale files were removed, for what.
func (p *partners) noteRemoved(stderr io.Writer, cmd, what string) {
	for _, r := range p.removed {
		fmt.Fprintf(stderr, "trackink %s: note: removed the old %s: %s has no classes for it to name\n", cmd, r, what)
	}
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
		partials, err := outfile.FillPartners(context.Background(), p.files)
		if err == nil {
			err = p.removeStale()
		}
		return partials, err
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
	if err := p.removeStale(); err != nil {
		return err
	}
	return outfile.CommitAll(overwrite, partials...)
}
