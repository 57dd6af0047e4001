package overlay

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestShape(t *testing.T) {
	// سيارة (car): seen initial, yeh medial, alef final; reh and teh marbuta do not join
	// the alef before them, so they are isolated.
	const car = "\uFE93\uFEAD\uFE8E\uFEF4\uFEB3"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"ascii", "#7 car 0.88", "#7 car 0.88"},
		{"latin", "café Ünï", "café Ünï"},
		{"arabic word", "سيارة", car},
		{"lam-alef alone", "لا", "\uFEFB"},
		{"lam-alef after a joining letter", "سلا", "\uFEFC\uFEB3"},
		{"right-to-left label with numbers", "#5 سيارة 0.62", "0.62 " + car + " #5"},
		{"arabic then digits", "سيارة 12", "12 " + car},
		{"left-to-right label with arabic", "car سيارة", "car " + car},
		// A number after a right-to-left word joins its run (rules W7, N1), as browsers show it.
		{"number after arabic in left-to-right", "car سيارة 3", "car 3 " + car},
		{"hebrew", "שלום", "םולש"},
		{"brackets mirrored", "(سيارة)", "(" + car + ")"},
		{"mark after its base", "بَ", "\uFE8F\u064E"},
		{"marks are transparent to joining", "بَب", "\uFE90\uFE91\u064E"},
		{"zwnj breaks joining and is not drawn", "ب\u200cب", "\uFE8F\uFE8F"},
		{"tatweel joins", "بـ", "\u0640\uFE91"},
		{"persian peh", "پپپ", "\uFB57\uFB59\uFB58"},
		{"format characters dropped", "a\u200db\u200e", "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s shaper
			if got := string(s.shape([]byte(tc.in))); got != tc.want {
				t.Errorf("shape(%q) = %q %U, want %q %U", tc.in, got, []rune(got), tc.want, []rune(tc.want))
			}
		})
	}
}

// TestArabicFormsAreUnicodes checks the presentation forms tables against Unicode's
// compatibility decompositions: each form is its letter, each ligature lam and its alef,
// under NFKC.
func TestArabicFormsAreUnicodes(t *testing.T) {
	for base, f := range arabicForms {
		for k := range rune(f.n) {
			if d := norm.NFKC.String(string(f.isolated + k)); d != norm.NFKC.String(string(base)) {
				t.Errorf("form %d of %U is %U, which is %U", k, base, f.isolated+k, []rune(d))
			}
		}
	}
	for alef, lig := range lamAlef {
		for k := range rune(2) {
			if d := norm.NFKC.String(string(lig + k)); d != string([]rune{lam, alef}) {
				t.Errorf("lam-alef %U is %U, want lam and %U", lig+k, []rune(d), alef)
			}
		}
	}
}

func FuzzShape(f *testing.F) {
	for _, s := range []string{"#7 car 0.88", "#5 سيارة 0.62", "(שלום) 12", "لا بَ ب\u200cب", "行人 \u202eabc", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var s shaper
		out := s.shape([]byte(in))
		if n := utf8.RuneCountInString(in); len(out) > n {
			t.Fatalf("shape(%q) has %d runes, more than the text's %d", in, len(out), n)
		}
		ltr := !strings.ContainsFunc(in, func(r rune) bool {
			return r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFEFF || r >= 0x10800 || invisible(r) || r == utf8.RuneError
		})
		if ltr && string(out) != in {
			t.Fatalf("left-to-right text %q came out as %q", in, string(out))
		}
	})
}
