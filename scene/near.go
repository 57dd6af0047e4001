package scene

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// extensionOf is the extension each format is read by without looking at the content, or
// the one whose content test picks it.
var extensionOf = map[Format]string{FormatMOT: ".txt", FormatJSONL: ".jsonl", FormatSupervision: ".csv",
	FormatKITTI: ".txt", FormatCVAT: ".xml", FormatYOLO: ".txt"}

// misnamed says that a file whose first line looks like format f has a name whose extension
// rules f out (JSON Lines in a .txt), and what to name it.
func misnamed(f Format, name string, candidates []Format) string {
	var words []string
	for _, c := range candidates {
		words = append(words, c.String())
	}
	return fmt.Sprintf("looks like %s, but a %s file is read as %s: name it %s", f, filepath.Ext(name),
		strings.Join(words, " or "), strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))+extensionOf[f])
}

// nearMiss says which format a first line that fits none nearly is, and how it misses:
// KITTI with the wrong number of fields, a CSV header that is not supervision's. "" when it
// is near none.
func nearMiss(line []byte) string {
	if bytes.IndexByte(line, ',') >= 0 {
		if c := line[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '"' {
			head, _, _ := strings.Cut(string(line), ",")
			if bytes.Contains(line, []byte("x_min")) {
				return fmt.Sprintf("looks like a supervision CSV header, but begins %q: CSVSink's begins x_min,y_min,x_max,y_max", head)
			}
			return fmt.Sprintf("a CSV header (beginning %q) that is not supervision's (x_min,y_min,x_max,y_max,…); "+
				"MOTChallenge text has no header line", head)
		}
		return ""
	}
	f := splitSpaces(string(line), nil)
	if n := len(f); n >= 10 && isNumber(f[0]) && isNumber(f[1]) && !isNumber(f[2]) {
		return fmt.Sprintf("looks like KITTI (the third field, %q, an object type) but has %d fields; KITTI has %d or %d",
			f[2], n, len(kittiFields)-1, len(kittiFields))
	}
	return ""
}

// csvHint adds to the MOTChallenge reader's field-count error, for a .csv, what the other
// CSV trackink reads needs.
func csvHint(file string) string {
	if strings.EqualFold(filepath.Ext(file), ".csv") {
		return "; supervision CSV begins with CSVSink's header line, x_min,y_min,x_max,y_max,…"
	}
	return ""
}
