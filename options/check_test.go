package options

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCheckTableFindsFaults: CheckTable reports a flag without an entry, a flag without
// help, a choice its flag refuses and an entry no command has, naming each; the table
// against trackink's own commands is cli's TestOptionTable.
func TestCheckTableFindsFaults(t *testing.T) {
	render := func() *pflag.FlagSet {
		var s Style
		fs := NewFlagSet("render", "", "", io.Discard)
		s.Register(fs, "knn", "default")
		fs.String("no-such-option", "", "a flag the table lacks")
		fs.Bool("yes", false, "")
		fs.Var(choiceValue{new(string), []string{"corners"}}, "anchor", "takes fewer names than its entry lists")
		return fs
	}
	problems := CheckTable([]string{"render"}, func(string) *pflag.FlagSet { return render() })
	var all []string
	for _, p := range problems {
		all = append(all, p.Error())
	}
	got := strings.Join(all, "\n")
	for _, want := range []string{
		"trackink render --no-such-option has no entry",
		"trackink render --yes has no help",
		"trackink render --anchor bottom, one of its choices",
		`the option table has "input", which no command has`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("CheckTable did not say %q; it said:\n%s", want, got)
		}
	}
}
