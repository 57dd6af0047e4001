package options

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Command is a command as its help, man page and completion show it.
type Command struct {
	Name, Summary string
	Help          HelpText
	Flags         []*pflag.Flag // the visible ones, in --help's order
	Args          []string      // the names its argument takes, where it takes a fixed list
}

// Shells are the shells WriteCompletion writes scripts for.
var Shells = []string{"bash", "fish", "zsh"}

// WriteCompletion writes shell's completion script for the commands: their names, their
// flags, and the names flags take (--look, --backend, …).
func WriteCompletion(w io.Writer, shell string, cmds []Command) error {
	switch shell {
	case "bash":
		bashCompletion(w, cmds)
	case "zsh":
		zshCompletion(w, cmds)
	case "fish":
		fishCompletion(w, cmds)
	default:
		return fmt.Errorf("no completion for shell %q", shell)
	}
	return nil
}

// takesValue reports whether a flag is given a value (--look hud) rather than being a switch.
func takesValue(f *pflag.Flag) bool { return f.NoOptDefVal == "" }

// fileFlags are the flags that take a file's or a directory's name, which completion
// completes; the other flags that take a value take numbers, times, sizes, labels or lists
// (--glow, --start, --segment, --label), where a file's name is no help.
var fileFlags = map[string]bool{
	"input": true, "output": true, "tracks": true, "gt": true, "style": true, "font": true,
	"label-words": true, "label-lines": true, "class-names": true, "model": true, "e2e": true,
	"stats-json": true, "save-tracks": true, "segments": true, "dir": true, "out": true,
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

func bashCompletion(w io.Writer, all []Command) {
	var names []string
	for _, c := range all {
		names = append(names, c.Name)
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
		for _, f := range c.Flags {
			switch ch := choicesOf(c.Name, f.Name); {
			case !takesValue(f) || fileFlags[f.Name]:
			case ch != nil:
				fmt.Fprintf(w, "    %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", c.Name+" --"+f.Name, strings.Join(ch, " "))
			default: // a number, a time, a label: no file's name
				fmt.Fprintf(w, "    %q) compopt +o default 2>/dev/null; COMPREPLY=(); return ;;\n", c.Name+" --"+f.Name)
			}
		}
	}
	fmt.Fprintln(w, `    esac
    case ${COMP_WORDS[1]} in`)
	for _, c := range all {
		var fl []string
		for _, f := range c.Flags {
			fl = append(fl, "--"+f.Name)
			if f.Shorthand != "" {
				fl = append(fl, "-"+f.Shorthand)
			}
		}
		args := ""
		if a := c.Args; a != nil {
			args = strings.Join(a, " ")
		}
		fmt.Fprintf(w, "        %s) words=%q; [[ $cur == -* ]] || words=%q ;;\n", c.Name, strings.Join(fl, " "), args)
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

func zshCompletion(w io.Writer, all []Command) {
	fmt.Fprintln(w, `#compdef trackink
# zsh completion for trackink, written by 'trackink completion zsh'.
_trackink() {
    local -a commands
    commands=(`)
	for _, c := range all {
		fmt.Fprintf(w, "        '%s:%s'\n", c.Name, strings.ReplaceAll(c.Summary, "'", `'\''`))
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
		fmt.Fprintf(w, "        %s) _arguments -s", c.Name)
		for _, f := range c.Flags {
			names := "--" + f.Name
			if f.Shorthand != "" {
				names = fmt.Sprintf("(-%s --%s)'{-%s,--%s}'", f.Shorthand, f.Name, f.Shorthand, f.Name)
			}
			spec := fmt.Sprintf("'%s[%s]", names, zshQuote(summaryOf(f)))
			if takesValue(f) {
				action := " "
				switch ch := choicesOf(c.Name, f.Name); {
				case ch != nil:
					action = "(" + strings.Join(ch, " ") + ")"
				case fileFlags[f.Name]:
					action = "_files"
				}
				spec += ":" + f.Name + ":" + action
			}
			fmt.Fprintf(w, " \\\n            %s'", spec)
		}
		switch {
		case c.Args != nil:
			fmt.Fprintf(w, " \\\n            '1:argument:(%s)'", strings.Join(c.Args, " "))
		default:
			fmt.Fprint(w, " \\\n            '*:file:_files'")
		}
		fmt.Fprintln(w, " ;;")
	}
	fmt.Fprintln(w, `    esac
}
_trackink "$@"`)
}

func fishCompletion(w io.Writer, all []Command) {
	fmt.Fprintln(w, "# fish completion for trackink, written by 'trackink completion fish'.")
	q := func(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'" }
	for _, c := range all {
		fmt.Fprintf(w, "complete -c trackink -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, q(c.Summary))
	}
	for _, c := range all {
		cond := "-n '__fish_seen_subcommand_from " + c.Name + "'"
		if a := c.Args; a != nil {
			fmt.Fprintf(w, "complete -c trackink %s -f -a %s\n", cond, q(strings.Join(a, " ")))
		}
		for _, f := range c.Flags {
			line := "complete -c trackink " + cond
			if f.Shorthand != "" {
				line += " -s " + f.Shorthand
			}
			line += " -l " + f.Name
			if takesValue(f) {
				switch ch := choicesOf(c.Name, f.Name); {
				case ch != nil:
					line += " -x -a " + q(strings.Join(ch, " "))
				case fileFlags[f.Name]:
					line += " -r -F"
				default:
					line += " -x"
				}
			}
			fmt.Fprintf(w, "%s -d %s\n", line, q(summaryOf(f)))
		}
	}
}
