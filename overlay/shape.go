package overlay

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
)

// Shaping, the little of it labels need: a label's text, in logical order (as typed), becomes
// the runes drawn from left to right. Two steps, both on the runes alone, before any glyph is
// looked up:
//
//   - Arabic contextual forms. Each Arabic letter takes its isolated, final, initial or medial
//     form from its neighbours' joining types (Unicode's ArabicShaping: dual-joining letters
//     join on both sides, right-joining ones such as alef, dal, reh and waw only to the letter
//     before them; marks are transparent; tatweel and ZWJ join, ZWNJ breaks), and is replaced
//     by that form's code point in Arabic Presentation Forms-A/B, which fonts such as DejaVu
//     Sans draw. Lam followed by alef becomes the lam-alef ligature. This is what shaping
//     engines did before OpenType's GSUB, and it covers Arabic, Persian and Urdu letters;
//     it does no mark positioning, no other ligatures, and no shaping of other joining
//     scripts (Syriac, N'Ko) or of Indic scripts, whose letters are drawn unjoined in
//     logical order.
//   - Bidirectional order: the Unicode Bidirectional Algorithm (UAX #9) for one line without
//     explicit embeddings. The paragraph's direction is that of its first strong letter
//     (left to right when none); weak and neutral types are resolved (rules W1–W7, N1–N2),
//     levels set (I1–I2), trailing white space reset (L1), runs reversed (L2), marks kept
//     after their base (L3) and brackets mirrored at right-to-left levels (L4, for the
//     ASCII brackets and guillemets). Explicit embedding, override and isolate controls are
//     not honoured: like every other invisible format character (ZWJ, ZWNJ, marks of
//     direction, variation selectors) they are dropped once the letters are joined.
//
// Text that is all ASCII skips both (it is drawn as it is), so labels in Latin letters cost
// nothing more.

// shaper holds the scratch space of shape, reused label after label.
type shaper struct {
	runes  []rune
	logic  []rune       // the text's runes, in logical order
	class  []bidi.Class // each rune's bidirectional class, then its resolved one
	orig   []bidi.Class // each rune's bidirectional class as looked up
	levels []int8
}

// shape returns text's runes in the order they are drawn, left to right, Arabic letters in
// their contextual forms; the slice is the shaper's, valid until the next call.
func (s *shaper) shape(text []byte) []rune {
	s.logic = s.logic[:0]
	for len(text) > 0 { // not range string(text), which copies text longer than 32 bytes
		r, n := utf8.DecodeRune(text)
		s.logic = append(s.logic, r)
		text = text[n:]
	}
	s.runes = joinArabic(s.runes[:0], s.logic)
	s.runes = slices.DeleteFunc(s.runes, invisible)
	s.resolve()
	s.reorder()
	return s.runes
}

// invisible reports whether r is a format character or variation selector: it has no glyph
// of its own, and is not drawn.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)
}

// Joining types (ArabicShaping.txt).
const (
	joinNone  = iota // U: joins neither side
	joinRight        // R: joins the letter before it (on its right)
	joinDual         // D: joins both sides
	joinCause        // C: tatweel, ZWJ: join both sides, have no forms
	joinClear        // T: marks, format characters: transparent
)

// arabicForms lists, for each Arabic letter with presentation forms, the code point of its
// isolated form and how many forms it has: 1 (isolated only), 2 (isolated, final: a
// right-joining letter) or 4 (isolated, final, initial, medial: dual-joining), consecutive
// in Arabic Presentation Forms-A or B. Alef maksura (U+0649), dual-joining in Unicode, has
// only its isolated and final forms in Forms-B, and is treated as right-joining.
var arabicForms = map[rune]struct {
	isolated rune
	n        int8
}{
	0x0621: {0xFE80, 1}, 0x0622: {0xFE81, 2}, 0x0623: {0xFE83, 2}, 0x0624: {0xFE85, 2},
	0x0625: {0xFE87, 2}, 0x0626: {0xFE89, 4}, 0x0627: {0xFE8D, 2}, 0x0628: {0xFE8F, 4},
	0x0629: {0xFE93, 2}, 0x062A: {0xFE95, 4}, 0x062B: {0xFE99, 4}, 0x062C: {0xFE9D, 4},
	0x062D: {0xFEA1, 4}, 0x062E: {0xFEA5, 4}, 0x062F: {0xFEA9, 2}, 0x0630: {0xFEAB, 2},
	0x0631: {0xFEAD, 2}, 0x0632: {0xFEAF, 2}, 0x0633: {0xFEB1, 4}, 0x0634: {0xFEB5, 4},
	0x0635: {0xFEB9, 4}, 0x0636: {0xFEBD, 4}, 0x0637: {0xFEC1, 4}, 0x0638: {0xFEC5, 4},
	0x0639: {0xFEC9, 4}, 0x063A: {0xFECD, 4}, 0x0641: {0xFED1, 4}, 0x0642: {0xFED5, 4},
	0x0643: {0xFED9, 4}, 0x0644: {0xFEDD, 4}, 0x0645: {0xFEE1, 4}, 0x0646: {0xFEE5, 4},
	0x0647: {0xFEE9, 4}, 0x0648: {0xFEED, 2}, 0x0649: {0xFEEF, 2}, 0x064A: {0xFEF1, 4},
	0x0671: {0xFB50, 2}, 0x0677: {0xFBDD, 1}, 0x0679: {0xFB66, 4}, 0x067A: {0xFB5E, 4},
	0x067B: {0xFB52, 4}, 0x067E: {0xFB56, 4}, 0x067F: {0xFB62, 4}, 0x0680: {0xFB5A, 4},
	0x0683: {0xFB76, 4}, 0x0684: {0xFB72, 4}, 0x0686: {0xFB7A, 4}, 0x0687: {0xFB7E, 4},
	0x0688: {0xFB88, 2}, 0x068C: {0xFB84, 2}, 0x068D: {0xFB82, 2}, 0x068E: {0xFB86, 2},
	0x0691: {0xFB8C, 2}, 0x0698: {0xFB8A, 2}, 0x06A4: {0xFB6A, 4}, 0x06A6: {0xFB6E, 4},
	0x06A9: {0xFB8E, 4}, 0x06AD: {0xFBD3, 4}, 0x06AF: {0xFB92, 4}, 0x06B1: {0xFB9A, 4},
	0x06B3: {0xFB96, 4}, 0x06BA: {0xFB9E, 2}, 0x06BB: {0xFBA0, 4}, 0x06BE: {0xFBAA, 4},
	0x06C0: {0xFBA4, 2}, 0x06C1: {0xFBA6, 4}, 0x06C5: {0xFBE0, 2}, 0x06C6: {0xFBD9, 2},
	0x06C7: {0xFBD7, 2}, 0x06C8: {0xFBDB, 2}, 0x06C9: {0xFBE2, 2}, 0x06CB: {0xFBDE, 2},
	0x06CC: {0xFBFC, 4}, 0x06D0: {0xFBE4, 4}, 0x06D2: {0xFBAE, 2}, 0x06D3: {0xFBB0, 2},
}

// lamAlef maps the alef after a lam to the isolated form of their ligature (the final form
// follows it).
var lamAlef = map[rune]rune{0x0622: 0xFEF5, 0x0623: 0xFEF7, 0x0625: 0xFEF9, 0x0627: 0xFEFB}

const lam, zwj, zwnj, tatweel = 0x0644, 0x200D, 0x200C, 0x0640

// Form offsets from the isolated form.
const (
	formIsolated = iota
	formFinal
	formInitial
	formMedial
)

func joiningType(r rune) int {
	if f, ok := arabicForms[r]; ok {
		switch f.n {
		case 2:
			return joinRight
		case 4:
			return joinDual
		}
		return joinNone
	}
	switch {
	case r == zwj || r == tatweel:
		return joinCause
	case r == zwnj:
		return joinNone
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return joinClear
	}
	return joinNone
}

// joinArabic appends rs, in logical order, to dst with its Arabic letters in their
// contextual forms and lam-alef as its ligature.
func joinArabic(dst, rs []rune) []rune {
	if !slices.ContainsFunc(rs, func(r rune) bool { return r >= 0x0600 && r <= 0x06FF }) {
		return append(dst, rs...)
	}
	// joinsBefore reports whether the letter at i joins the one before it.
	joinsBefore := func(i int) bool {
		jt := joiningType(rs[i])
		if jt != joinRight && jt != joinDual && jt != joinCause {
			return false
		}
		for j := i - 1; j >= 0; j-- {
			if t := joiningType(rs[j]); t != joinClear {
				return t == joinDual || t == joinCause
			}
		}
		return false
	}
	// joinsAfter reports whether the letter at i joins the one after it.
	joinsAfter := func(i int) bool {
		jt := joiningType(rs[i])
		if jt != joinDual && jt != joinCause {
			return false
		}
		for j := i + 1; j < len(rs); j++ {
			if joiningType(rs[j]) != joinClear {
				return joinsBefore(j)
			}
		}
		return false
	}
	out := dst
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		f, ok := arabicForms[r]
		if !ok {
			out = append(out, r)
			continue
		}
		before := joinsBefore(i)
		if lig, isLig := lamAlef[at(rs, i+1)]; r == lam && isLig {
			if before {
				lig++ // the final form
			}
			out = append(out, lig)
			i++
			continue
		}
		form := formIsolated
		switch after := joinsAfter(i); {
		case before && after:
			form = formMedial
		case before:
			form = formFinal
		case after:
			form = formInitial
		}
		out = append(out, f.isolated+rune(form))
	}
	return out
}

// at returns rs[i], or -1 past its end.
func at(rs []rune, i int) rune {
	if i < len(rs) {
		return rs[i]
	}
	return -1
}

// resolve sets the bidirectional level of each rune (rules P2–P3, W1–W7, N1–N2, I1–I2, L1),
// in the rules' steps.
func (s *shaper) resolve() {
	para := s.classify()
	sos := bidi.L
	if para == 1 {
		sos = bidi.R
	}
	s.resolveWeak(sos)
	s.resolveNeutral(sos)
	s.resolveLevels(para)
}

// classify sets each rune's bidirectional class, and returns the paragraph's level (P2–P3):
// 1 when its first strong letter is right-to-left, else 0.
func (s *shaper) classify() (para int8) {
	s.class, s.orig, s.levels = s.class[:0], s.orig[:0], s.levels[:0]
	para = -1
	for _, r := range s.runes {
		p, _ := bidi.LookupRune(r)
		c := p.Class()
		if c >= bidi.Control {
			c = bidi.ON // explicit controls are dropped before this; the rest is neutral
		}
		if para < 0 && (c == bidi.L || c == bidi.R || c == bidi.AL) {
			para = int8(min(1, int(c)))
		}
		s.class, s.orig, s.levels = append(s.class, c), append(s.orig, c), append(s.levels, 0)
	}
	return max(0, para)
}

// resolveWeak applies the weak types' rules (W1–W7), sos being the type before the text.
func (s *shaper) resolveWeak(sos bidi.Class) {
	cl, n := s.class, len(s.class)
	// W1–W3: marks take the type before them; European numbers after an Arabic letter are
	// Arabic numbers; Arabic letters are right-to-left.
	strong := sos
	for i, c := range cl {
		if c == bidi.NSM {
			c = sos
			if i > 0 {
				c = cl[i-1]
			}
			cl[i] = c
		}
		switch c {
		case bidi.L, bidi.R, bidi.AL:
			strong = c
		case bidi.EN:
			if strong == bidi.AL {
				cl[i] = bidi.AN
			}
		}
	}
	for i, c := range cl {
		if c == bidi.AL {
			cl[i] = bidi.R
		}
	}
	// W4: a single separator between two numbers of a kind joins them.
	for i := 1; i+1 < n; i++ {
		if a, b := cl[i-1], cl[i+1]; a == b && (a == bidi.EN && (cl[i] == bidi.ES || cl[i] == bidi.CS) || a == bidi.AN && cl[i] == bidi.CS) {
			cl[i] = a
		}
	}
	// W5: terminators next to European numbers are numbers.
	for i := 0; i < n; {
		if cl[i] != bidi.ET {
			i++
			continue
		}
		j := i
		for j < n && cl[j] == bidi.ET {
			j++
		}
		if (i > 0 && cl[i-1] == bidi.EN) || (j < n && cl[j] == bidi.EN) {
			for k := i; k < j; k++ {
				cl[k] = bidi.EN
			}
		}
		i = j
	}
	// W6, W7: remaining separators are neutral; European numbers after a left-to-right
	// letter are left-to-right.
	strong = sos
	for i, c := range cl {
		switch c {
		case bidi.ES, bidi.ET, bidi.CS:
			cl[i] = bidi.ON
		case bidi.L, bidi.R:
			strong = c
		case bidi.EN:
			if strong == bidi.L {
				cl[i] = bidi.L
			}
		}
	}
}

// resolveNeutral applies N1 and N2: a run of neutrals between two of one direction takes
// it (numbers count as right-to-left); otherwise the paragraph's, sos.
func (s *shaper) resolveNeutral(sos bidi.Class) {
	cl, n := s.class, len(s.class)
	dir := func(c bidi.Class) bidi.Class {
		if c == bidi.EN || c == bidi.AN {
			return bidi.R
		}
		return c
	}
	for i := 0; i < n; {
		if !neutral(cl[i]) {
			i++
			continue
		}
		j := i
		for j < n && neutral(cl[j]) {
			j++
		}
		before, after := sos, sos
		if i > 0 {
			before = dir(cl[i-1])
		}
		if j < n {
			after = dir(cl[j])
		}
		c := sos
		if before == after {
			c = before
		}
		for k := i; k < j; k++ {
			cl[k] = c
		}
		i = j
	}
}

// resolveLevels sets the levels from the resolved classes in a paragraph of level para
// (I1, I2), and white space at the end of the line to the paragraph's (L1).
func (s *shaper) resolveLevels(para int8) {
	for i, c := range s.class {
		lv := para
		switch {
		case para == 0 && c == bidi.R:
			lv = 1
		case para == 0 && (c == bidi.AN || c == bidi.EN):
			lv = 2
		case para == 1 && (c == bidi.L || c == bidi.AN || c == bidi.EN):
			lv = 2
		}
		s.levels[i] = lv
	}
	for i := len(s.class) - 1; i >= 0 && (s.orig[i] == bidi.WS || s.orig[i] == bidi.S || s.orig[i] == bidi.B); i-- {
		s.levels[i] = para
	}
}

func neutral(c bidi.Class) bool {
	return c == bidi.ON || c == bidi.WS || c == bidi.S || c == bidi.B || c == bidi.BN
}

// reorder puts the runes in display order by their levels (L2), keeps marks after their
// base in reversed runs (L3) and mirrors brackets at odd levels (L4).
func (s *shaper) reorder() {
	top, lowOdd := int8(0), int8(127)
	for _, lv := range s.levels {
		top = max(top, lv)
		if lv%2 == 1 {
			lowOdd = min(lowOdd, lv)
		}
	}
	for lv := top; lv >= lowOdd && lv > 0; lv-- {
		for i := 0; i < len(s.levels); {
			if s.levels[i] < lv {
				i++
				continue
			}
			j := i
			for j < len(s.levels) && s.levels[j] >= lv {
				j++
			}
			slices.Reverse(s.runes[i:j])
			slices.Reverse(s.levels[i:j])
			slices.Reverse(s.orig[i:j])
			i = j
		}
	}
	for i := 0; i < len(s.runes); i++ {
		if s.levels[i]%2 == 0 {
			continue
		}
		if m, ok := mirrored[s.runes[i]]; ok {
			s.runes[i] = m
		}
		if s.orig[i] != bidi.NSM {
			continue
		}
		j := i // marks s.runes[i:j] precede their base, s.runes[j]
		for j < len(s.runes) && s.orig[j] == bidi.NSM && s.levels[j]%2 == 1 {
			j++
		}
		if j < len(s.runes) {
			base := s.runes[j]
			copy(s.runes[i+1:j+1], s.runes[i:j])
			s.runes[i] = base
		}
		i = j
	}
}

// mirrored maps each bracket to its mirror image (BidiMirroring.txt, the brackets labels
// are likely to hold).
var mirrored = map[rune]rune{'(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<',
	'«': '»', '»': '«', '‹': '›', '›': '‹'}
