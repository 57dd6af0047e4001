package job

import (
	"slices"
	"testing"
)

// {source} shows a file's name without its directory and extension, unless two files
// share it.
func TestSourceNames(t *testing.T) {
	for _, tc := range []struct{ paths, want []string }{
		{nil, nil},
		{[]string{"data/gt.txt", "runs/tracker.jsonl"}, []string{"gt", "tracker"}},
		{[]string{"stdin", "labels"}, []string{"stdin", "labels"}},
		{[]string{"a/t.txt", "b/t.txt"}, []string{"a/t.txt", "b/t.txt"}},
		{[]string{"t.txt", "t.jsonl"}, []string{"t.txt", "t.jsonl"}},
		{[]string{".hidden"}, []string{".hidden"}},
	} {
		if got := SourceNames(tc.paths); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.paths, got, tc.want)
		}
	}
}
