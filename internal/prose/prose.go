// Package prose words counts and lists for trackink's messages.
package prose

import (
	"fmt"
	"strings"
)

// Plural is n things: "1 frame", "2 frames", "3 boxes".
func Plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "x") {
		return fmt.Sprintf("%d %ses", n, thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// List joins words as prose does, with last before the last word and commas before the
// others: List(["a", "b", "c"], " and ") is "a, b and c"; a list whose items hold commas
// reads better with ", or ".
func List(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}
