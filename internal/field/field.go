// Package field is the error that trackink's option structs return from Validate: it names
// the field that is wrong, so that each front end can name it in its own words (the command
// line maps a field to its flag in one table, options/options.go) and the libraries need not know
// how they are driven.
package field

import "fmt"

// Error reports an invalid option value.
type Error struct {
	// Field is the option's Go name, qualified by its package and struct:
	// "knn.Options.K", "overlay.Style.LineWidth".
	Field string
	// Value is the rejected value, as given; nil where the fault is no one value's (a
	// file's words missing, one list longer than another).
	Value any
	// Msg says what is wrong, starting lower-case: "must be at least 1".
	Msg string
}

// Errorf returns an *Error for field with value and the formatted message.
func Errorf(field string, value any, format string, args ...any) error {
	return &Error{Field: field, Value: value, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	if e.Value == nil {
		return e.Field + ": " + e.Msg
	}
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("%s %q: %s", e.Field, s, e.Msg)
	}
	return fmt.Sprintf("%s %v: %s", e.Field, e.Value, e.Msg)
}
