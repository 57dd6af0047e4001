package cli

import (
	"fmt"
	"io"
	"slices"
	"trackink/internal/suggest"
	"trackink/options"

	"github.com/spf13/pflag"
)

const completionExamples = `Examples:
  # bash: for this shell, then for every new one:
  source <(trackink completion bash)
  trackink completion bash > ~/.local/share/bash-completion/completions/trackink

  # zsh (a directory on $fpath):
  trackink completion zsh > ~/.zfunc/_trackink

  # fish:
  trackink completion fish > ~/.config/fish/completions/trackink.fish`

// completionCommand writes a shell's completion script, made from the command and flag tables:
// commands, their flags, and the names flags take (--look, --backend, …).
func completionCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("completion", "bash|zsh|fish", completionExamples, stderr)
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.ParseWith(fs, args, 1, "the shell: bash, zsh or fish"); err != nil {
			return err
		}
		if !slices.Contains(options.Shells, fs.Arg(0)) {
			return options.UsageError{Err: fmt.Errorf("shell %q: want bash, zsh or fish%s", fs.Arg(0), suggest.DidYouMean(fs.Arg(0), options.Shells))}
		}
		return options.WriteCompletion(stdout, fs.Arg(0), commandDocs())
	}
}

// commandDocs returns every command with its visible flags, as its help, man page and
// completion show them, sorted by name.
func commandDocs() []options.Command {
	var all []options.Command
	for _, n := range commandNames() {
		fs, _ := commands[n].define(io.Discard)
		c := options.Command{Name: n, Summary: commands[n].summary, Help: options.HelpOf(fs)}
		if n == "completion" {
			c.Args = options.Shells
		}
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				c.Flags = append(c.Flags, f)
			}
		})
		all = append(all, c)
	}
	return all
}
