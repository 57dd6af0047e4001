package cli

import (
	"testing"
	"trackink/options"
)

// TestOptionTable checks the one table of flags against every command's flags and the
// libraries (options.CheckTable).
func TestOptionTable(t *testing.T) {
	var names []string
	for _, c := range commandList {
		names = append(names, c.name)
	}
	for _, err := range options.CheckTable(names, flagSetOf) {
		t.Error(err)
	}
}
