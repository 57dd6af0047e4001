package cli

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"trackink/knn"
	"trackink/overlay"
	"trackink/tracker"
	"trackink/video"
)

// TestOptionTable checks the one table of flags against the commands and the libraries:
// every visible flag of every command has an entry (a heading in --help), and every entry
// is some command's flag; every name a flag's choices list is taken by the flag and, for a
// flag that checks its names itself, nothing else is; every field an entry names is a field
// of the library's options; every style key is a flag of render.
func TestOptionTable(t *testing.T) {
	used := map[string]bool{}
	for _, c := range commandList {
		fs := flagSetOf(c.name)
		if fs == nil {
			t.Errorf("%s: its flag set was not caught by --help", c.name)
			continue
		}
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			key := f.Name
			if _, own := options[c.name+" "+f.Name]; own {
				key = c.name + " " + f.Name
			}
			if _, ok := options[key]; !ok {
				t.Errorf("trackink %s --%s has no entry in options (cli/options.go)", c.name, f.Name)
			}
			used[key] = true
			o := options[key]
			if o.choices == nil {
				return
			}
			for _, choice := range o.choices() {
				if err := flagSetOf(c.name).Set(f.Name, choice); err != nil {
					t.Errorf("trackink %s --%s %s, one of its choices: %v", c.name, f.Name, choice, err)
				}
			}
			if _, checks := f.Value.(choiceValue); checks {
				if err := flagSetOf(c.name).Set(f.Name, "no-such-name"); err == nil {
					t.Errorf("trackink %s --%s takes a name its choices lack", c.name, f.Name)
				}
			}
		})
	}
	for key := range options {
		if !used[key] {
			t.Errorf("options has %q, which no command has", key)
		}
	}
	types := map[string]reflect.Type{
		"overlay.Style": reflect.TypeFor[overlay.Style](), "overlay.BackendOptions": reflect.TypeFor[overlay.BackendOptions](),
		"knn.Options": reflect.TypeFor[knn.Options](), "video.Options": reflect.TypeFor[video.Options](),
		"tracker.Options": reflect.TypeFor[tracker.Options](),
	}
	render := flagSetOf("render")
	for key, o := range options {
		for _, f := range o.fields {
			if !isOptionField(types, f) {
				t.Errorf("%s sets %s, which is no field of the libraries' options", key, f)
			}
		}
		if o.style && render.Lookup(key) == nil {
			t.Errorf("style key %s is not a flag of render", key)
		}
	}
	if keys := styleKeys(render); !slices.Contains(keys, "box-stroke") || slices.Contains(keys, "look") || slices.Contains(keys, "output") {
		t.Errorf("render's style keys %v: want the look's flags, not --look or -o", keys)
	}
}

// isOptionField reports whether field, "pkg.Type.Field" or "pkg.Type.Field.Inner", names a
// field of one of types (by "pkg.Type").
func isOptionField(types map[string]reflect.Type, field string) bool {
	parts := strings.Split(field, ".")
	if len(parts) < 3 {
		return false
	}
	typ, ok := types[parts[0]+"."+parts[1]]
	for _, name := range parts[2:] {
		if !ok {
			return false
		}
		var sf reflect.StructField
		if sf, ok = typ.FieldByName(name); ok {
			typ = sf.Type
		}
	}
	return ok
}
