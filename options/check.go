package options

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trackink/knn"
	"trackink/overlay"
	"trackink/tracker"
	"trackink/video"
)

// CheckTable checks the option table against the commands that use it, as testing/fstest
// checks a file system: every visible flag of every command has an entry (a heading in
// --help) and help, and every entry is some command's flag; every name in a flag's choices is taken by
// the flag and, for a flag that checks its names itself, nothing else is; every field an
// entry names is a field of the libraries' options; every style key is a flag of render.
// flagSet returns a fresh flag set of the named command. It returns every problem found.
func CheckTable(commands []string, flagSet func(command string) *pflag.FlagSet) []error {
	var problems []error
	bad := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	used := map[string]bool{}
	for _, c := range commands {
		flagSet(c).VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			key := f.Name
			if _, own := table[c+" "+f.Name]; own {
				key = c + " " + f.Name
			}
			o, ok := table[key]
			if !ok {
				bad("trackink %s --%s has no entry in the option table (options/options.go)", c, f.Name)
			}
			if strings.TrimSpace(f.Usage) == "" {
				bad("trackink %s --%s has no help", c, f.Name)
			}
			used[key] = true
			if o.choices == nil {
				return
			}
			for _, choice := range o.choices() {
				if err := flagSet(c).Set(f.Name, choice); err != nil {
					bad("trackink %s --%s %s, one of its choices: %v", c, f.Name, choice, err)
				}
			}
			switch f.Value.(type) {
			case choiceValue, blendValue:
				if err := flagSet(c).Set(f.Name, "no-such-name"); err == nil {
					bad("trackink %s --%s takes a name its choices lack", c, f.Name)
				}
			}
		})
	}
	for key := range table {
		if !used[key] {
			bad("the option table has %q, which no command has", key)
		}
	}
	types := map[string]reflect.Type{
		"overlay.Style": reflect.TypeFor[overlay.Style](), "overlay.BackendOptions": reflect.TypeFor[overlay.BackendOptions](),
		"knn.Options": reflect.TypeFor[knn.Options](), "video.Options": reflect.TypeFor[video.Options](),
		"tracker.Options": reflect.TypeFor[tracker.Options](),
	}
	render := flagSet("render")
	for key, o := range table {
		for _, f := range o.fields {
			if !isOptionField(types, f) {
				bad("%s sets %s, which is no field of the libraries' options", key, f)
			}
		}
		if o.style && render.Lookup(key) == nil {
			bad("style key %s is not a flag of render", key)
		}
	}
	if keys := styleKeys(render); !slices.Contains(keys, "box-stroke") || slices.Contains(keys, "look") || slices.Contains(keys, "output") {
		bad("render's style keys %v: want the look's flags, not --look or -o", keys)
	}
	return problems
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
