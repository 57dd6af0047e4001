package scene

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The YAML forms are those of Ultralytics' dataset files (ultralytics/cfg/datasets/*.yaml:
// a block mapping of numbers to names, as coco8.yaml) and of the data YAML files users write
// by hand (block or flow lists); the plain form is darknet's .names (one name a line).

func TestReadClassNames(t *testing.T) {
	names, err := ReadClassNames(filepath.Join("testdata", "formats", "coco8.yaml"))
	if want := []string{"person", "bicycle", "car", "", "", "", "", "", "", "traffic light"}; err != nil || !reflect.DeepEqual(names, want) {
		t.Fatalf("coco8.yaml: %q, %v; want %q", names, err, want)
	}
	tests := []struct {
		file, content string
		want          []string
	}{
		{"coco.names", "person\r\nbicycle\r\ntraffic light\r\n\r\n", []string{"person", "bicycle", "traffic light"}},
		{"classes.txt", "\uFEFFpéton  \n vélo", []string{"péton", "vélo"}},
		// Written by Windows PowerShell 5's >, as a tracks file may be (TestReadUTF16).
		{"utf16.names", utf16Text("person\r\nvélo\r\n", false), []string{"person", "vélo"}},
		{"data.yaml", "names:\n  - person\n  - 'bi''cycle'   # two wheels\n  -   \"car\\u00e9\"\nnc: 3\n", []string{"person", "bi'cycle", "caré"}},
		{"data.yml", "train: x\nnames: [person, 'traffic light', \"a, b\"] # flow\n", []string{"person", "traffic light", "a, b"}},
		{"data.yaml", "names: {0: person, 2: 'car: fast'}\n", []string{"person", "", "car: fast"}},
		{"data", "# a data file without the extension\nnames:\n\t1: person's bag\n\n\t0: cat # a comment\nval: y\n", []string{"cat", "person's bag"}},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		path := filepath.Join(dir, tc.file)
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		names, err := ReadClassNames(path)
		if err != nil || !reflect.DeepEqual(names, tc.want) {
			t.Errorf("%s %q: got %q, %v; want %q", tc.file, tc.content, names, err, tc.want)
		}
	}
}

func TestReadClassNamesErrors(t *testing.T) {
	tests := []struct {
		file, content, want string
	}{
		{"a.names", "person\n\ncar\n", "a.names:2: blank: class 1 needs a name (one name a line, the first is class 0)"},
		{"a.names", "per\tson\n", `a.names:1: "per\tson" contains the control character U+0009`},
		{"a.yaml", "nc: 3\n", "a.yaml: no names key (a line \"names:\" at the start)"},
		{"a.yaml", "names:\n  - a\n  0: b\n", "a.yaml:3: names mixes list items and numbered names"},
		{"a.yaml", "names:\n  0: a\n  0: b\n", "a.yaml:3: class 0 is named twice"},
		{"a.yaml", "names:\n  x: a\n", `a.yaml:2: class number: "x" is not a number`},
		{"a.yaml", "names:\n  70000: a\n", "a.yaml:2: class number 70000 is outside 0 to 65535"},
		{"a.yaml", "names: [a,\n  b]\n", `a.yaml:1: names: a flow list must close on its line with "]" (for longer lists, write one name a line)`},
		{"a.yaml", "names: person\n", `a.yaml:1: names: want a list or a mapping of class names, got "person"`},
		{"a.yaml", "names:\n  - 'a\n", "a.yaml:2: unterminated quoted name"},
		{"a.yaml", "names:\n  - &anchor a\n", `a.yaml:2: "&anchor a" starts with a character whose YAML meaning this reader does not handle; quote the name`},
		{"a.yaml", "names:\n  - ''\n", "a.yaml:2: empty class name"},
		{"a.yaml", "names:\n  person\n", `a.yaml:2: want "- name" or "number: name", got "person"`},
		{"a.yaml", "names:\nnc: 1\n", "a.yaml:1: names: no class names"},
		{"e.names", "", "e.names: no class names (one name a line, the first is class 0)"},
		{"e.names", "\uFEFF\r\n\n", "e.names: no class names (one name a line, the first is class 0)"},
	}
	for _, tc := range tests {
		_, err := parseClassNames(tc.file, []byte(tc.content))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %q: got %v\nwant %s", tc.file, tc.content, err, tc.want)
		}
	}
}
