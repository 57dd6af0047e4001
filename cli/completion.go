package cli

import (
	"fmt"
	"io"
	"strings"
	"trackink/internal/suggest"

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

// shells are the shells completion writes scripts for.
var shells = map[string]func(io.Writer, []cmdFlags){"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}

// argChoices are the names a command's argument takes, where it takes a fixed list.
var argChoices = map[string]func() []string{"completion": func() []string { return []string{"bash", "fish", "zsh"} }}

// completionCommand writes a shell's completion script, made from the command and flag tables:
// commands, their flags, and the names flags take (--look, --backend, …).
func completionCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := newFlagSet("completion", "bash|zsh|fish", completionExamples, stderr)
	return fs, func(args []string, stdout io.Writer) error {
		if err := parseWith(fs, args, 1, "the shell: bash, zsh or fish"); err != nil {
			return err
		}
		write, ok := shells[fs.Arg(0)]
		if !ok {
			return usageError{fmt.Errorf("shell %q: want bash, zsh or fish%s", fs.Arg(0), suggest.DidYouMean(fs.Arg(0), argChoices["completion"]()))}
		}
		write(stdout, allFlags())
		return nil
	}
}

// cmdFlags is a command and its flags, as the generated completions and man pages list them.
type cmdFlags struct {
	name, summary string
	help          helpText
	flags         []*pflag.Flag // visible ones, in --help's order
}

// allFlags returns every command with its visible flags, commands sorted by name.
func allFlags() []cmdFlags {
	var all []cmdFlags
	for _, n := range commandNames() {
		c := cmdFlags{name: n, summary: commands[n].summary}
		fs, h := helpOf(n)
		c.help = h
		if fs != nil {
			fs.VisitAll(func(f *pflag.Flag) {
				if !f.Hidden {
					c.flags = append(c.flags, f)
				}
			})
		}
		all = append(all, c)
	}
	return all
}

// takesValue reports whether a flag is given a value (--look hud) rather than being a switch.
func takesValue(f *pflag.Flag) bool { return f.NoOptDefVal == "" }

// isNumber reports whether a flag takes a number, which no file name completes.
func isNumber(f *pflag.Flag) bool {
	switch f.Value.Type() {
	case "int", "int64", "float32", "float64", "uint", "duration":
		return true
	}
	return false
}

// summaryOf returns a flag's usage up to its first colon or parenthesis, short enough for a
// completion menu.
func summaryOf(f *pflag.Flag) string {
	s := f.Usage
	if i := strings.IndexAny(s, ":(;"); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func bashCompletion(w io.Writer, all []cmdFlags) {
	var names []string
	for _, c := range all {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, `# bash completion for trackink, written by 'trackink completion bash'.
_trackink() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    local words
    case "${COMP_WORDS[1]} $prev" in
`, strings.Join(names, " "))
	for _, c := range all {
		for _, f := range c.flags {
			if ch := choicesOf(c.name, f.Name); ch != nil && takesValue(f) {
				fmt.Fprintf(w, "    %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", c.name+" --"+f.Name, strings.Join(ch, " "))
			}
		}
	}
	fmt.Fprintln(w, `    esac
    case ${COMP_WORDS[1]} in`)
	for _, c := range all {
		var fl []string
		for _, f := range c.flags {
			fl = append(fl, "--"+f.Name)
			if f.Shorthand != "" {
				fl = append(fl, "-"+f.Shorthand)
			}
		}
		args := ""
		if a, ok := argChoices[c.name]; ok {
			args = strings.Join(a(), " ")
		}
		fmt.Fprintf(w, "        %s) words=%q; [[ $cur == -* ]] || words=%q ;;\n", c.name, strings.Join(fl, " "), args)
	}
	fmt.Fprintln(w, `    esac
    [[ -n $words ]] && COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _trackink trackink`)
}

// zshQuote quotes s for a single-quoted zsh word inside an _arguments spec, whose
// brackets and colons are its own syntax.
func zshQuote(s string) string {
	r := strings.NewReplacer(`'`, `'\''`, `[`, `\[`, `]`, `\]`, `:`, `\:`)
	return r.Replace(s)
}

func zshCompletion(w io.Writer, all []cmdFlags) {
	fmt.Fprintln(w, `#compdef trackink
# zsh completion for trackink, written by 'trackink completion zsh'.
_trackink() {
    local -a commands
    commands=(`)
	for _, c := range all {
		fmt.Fprintf(w, "        '%s:%s'\n", c.name, strings.ReplaceAll(c.summary, "'", `'\''`))
	}
	fmt.Fprintln(w, `    )
    if (( CURRENT == 2 )); then
        _describe command commands
        return
    fi
    local cmd=$words[2]
    shift words
    (( CURRENT-- ))
    case $cmd in`)
	for _, c := range all {
		fmt.Fprintf(w, "        %s) _arguments -s", c.name)
		for _, f := range c.flags {
			names := "--" + f.Name
			if f.Shorthand != "" {
				names = fmt.Sprintf("(-%s --%s)'{-%s,--%s}'", f.Shorthand, f.Name, f.Shorthand, f.Name)
			}
			spec := fmt.Sprintf("'%s[%s]", names, zshQuote(summaryOf(f)))
			if takesValue(f) {
				action := "_files"
				switch ch := choicesOf(c.name, f.Name); {
				case ch != nil:
					action = "(" + strings.Join(ch, " ") + ")"
				case isNumber(f):
					action = " "
				}
				spec += ":" + f.Name + ":" + action
			}
			fmt.Fprintf(w, " \\\n            %s'", spec)
		}
		switch {
		case argChoices[c.name] != nil:
			fmt.Fprintf(w, " \\\n            '1:argument:(%s)'", strings.Join(argChoices[c.name](), " "))
		default:
			fmt.Fprint(w, " \\\n            '*:file:_files'")
		}
		fmt.Fprintln(w, " ;;")
	}
	fmt.Fprintln(w, `    esac
}
_trackink "$@"`)
}

func fishCompletion(w io.Writer, all []cmdFlags) {
	fmt.Fprintln(w, "# fish completion for trackink, written by 'trackink completion fish'.")
	q := func(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'" }
	for _, c := range all {
		fmt.Fprintf(w, "complete -c trackink -f -n __fish_use_subcommand -a %s -d %s\n", c.name, q(c.summary))
	}
	for _, c := range all {
		cond := "-n '__fish_seen_subcommand_from " + c.name + "'"
		if a, ok := argChoices[c.name]; ok {
			fmt.Fprintf(w, "complete -c trackink %s -f -a %s\n", cond, q(strings.Join(a(), " ")))
		}
		for _, f := range c.flags {
			line := "complete -c trackink " + cond
			if f.Shorthand != "" {
				line += " -s " + f.Shorthand
			}
			line += " -l " + f.Name
			if takesValue(f) {
				switch ch := choicesOf(c.name, f.Name); {
				case ch != nil:
					line += " -x -a " + q(strings.Join(ch, " "))
				case isNumber(f):
					line += " -x"
				default:
					line += " -r -F"
				}
			}
			fmt.Fprintf(w, "%s -d %s\n", line, q(summaryOf(f)))
		}
	}
}
