package needs

import (
	"path/filepath"
	"testing"
)

// stopper records how Met stopped a test: Fatal and Skip end the call, as testing's do.
type stopper struct {
	testing.TB
	how string
}

type stopped struct{}

func (s *stopper) Helper()           {}
func (s *stopper) Fatal(args ...any) { s.how = "failed"; panic(stopped{}) }
func (s *stopper) Skip(args ...any)  { s.how = "skipped"; panic(stopped{}) }

func (s *stopper) file(path string) {
	defer func() {
		if r := recover(); r != nil && r != (stopped{}) {
			panic(r)
		}
	}()
	File(s, path, "made by the test")
}

// A met need lets the test go on; an unmet one skips it outside CI and fails it under CI.
func TestFile(t *testing.T) {
	absent := filepath.Join(t.TempDir(), "absent")
	for _, tc := range []struct {
		name, ci, path, want string
	}{
		{"present", "", t.TempDir(), ""},
		{"absent outside CI", "", absent, "skipped"},
		{"absent under CI", "true", absent, "failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			s := &stopper{TB: t}
			s.file(tc.path)
			if s.how != tc.want {
				t.Errorf("%q, want %q", s.how, tc.want)
			}
		})
	}
}
