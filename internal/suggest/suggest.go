// Package suggest finds the name a user probably meant: a flag, a value, a class, a
// letter or two away from what was typed.
package suggest

import (
	"fmt"
	"strings"
)

// DidYouMean returns " (did you mean NAME?)" for the name of names Closest to what was
// typed, or "" when none is close.
func DidYouMean(typed string, names []string) string {
	if n := Closest(typed, names); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

// Closest returns the one name of names close to what was typed (a letter or two away:
// rendr, --colour-by, --look plexis), or "" when none is, or two are equally close: a
// guess that far off would mislead more than help.
func Closest(typed string, names []string) string {
	if typed == "" {
		return ""
	}
	best, bestD, tie := "", 0, false
	for _, n := range names {
		if n == typed {
			return "" // not a typo
		}
		// Letters in another case are no edit: HUD is hud, the closest of all.
		d := editDistance(strings.ToLower(typed), strings.ToLower(n))
		switch {
		case best == "" || d < bestD:
			best, bestD, tie = n, d, false
		case d == bestD:
			tie = true
		}
	}
	if best == "" || tie || bestD > closeEnough(typed) {
		return ""
	}
	return best
}

// closeEnough is how many edits a name of typed's length may be away to be suggested:
// one in a short name, where two edits make another word, up to three in a long one.
func closeEnough(typed string) int {
	switch n := len(typed); {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// editDistance is the optimal-string-alignment distance between a and b: insertions,
// deletions, substitutions and swaps of two neighbouring letters, one edit each.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
