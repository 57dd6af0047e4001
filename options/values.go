package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/internal/suggest"
)

// choicesOf returns the names command's flag takes, nil where it takes any value.
func choicesOf(command, flag string) []string {
	if o, ok := optionOf(command, flag); ok && o.choices != nil {
		return o.choices()
	}
	return nil
}

// ValueHint returns " (did you mean NAME?)" for a mistyped value of a flag that takes
// names, "" otherwise.
func ValueHint(flag, value string) string {
	if o, ok := table[flag]; ok && o.choices != nil {
		return suggest.DidYouMean(value, o.choices())
	}
	return ""
}

// badValue words pflag's "invalid argument" error as FlagError words the library's:
// `--point-radius "big": is not a number`, with the name meant if one is close.
func badValue(err error) error {
	var ie *pflag.InvalidValueError
	if errors.As(err, &ie) {
		return fmt.Errorf("--%s %q: %s", ie.GetFlag().Name, ie.GetValue(), valueProblem(ie))
	}
	return err
}

// valueProblem says in words what is wrong with the value a flag was given, without the
// value, and the name meant if one is close: pflag's message carries Go's
// (strconv.ParseFloat: parsing "big": invalid syntax).
func valueProblem(ie *pflag.InvalidValueError) string {
	f, v := ie.GetFlag(), ie.GetValue()
	var msg string
	switch f.Value.Type() {
	case "float32", "float64":
		msg = "is not a number"
		if errors.Is(ie, strconv.ErrRange) {
			msg = "is out of range for this flag"
		}
	case "int", "int64", "uint":
		msg = "is not a whole number"
	case "bool":
		msg = "is not true or false"
	default:
		// Our own values' messages begin with the value: "\"wavy\": want …", "\"red\" is not
		// a color".
		msg = ie.Unwrap().Error()
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, strconv.Quote(v)+": "), strconv.Quote(v)+" ")
	}
	if strings.Contains(msg, "(did you mean") { // the value's own parser suggested (a colour name)
		return msg
	}
	return msg + ValueHint(f.Name, v)
}
