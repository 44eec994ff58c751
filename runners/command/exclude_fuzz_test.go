package command

import (
	"strings"
	"testing"
)

// FuzzExclude: any pattern either compiles or is refused with ErrBadSpec, and
// matching never panics; a compiled pattern with no wildcard excludes the path
// it names and, when it names a directory, everything below it.
func FuzzExclude(f *testing.F) {
	for _, s := range []string{"testdata/", "**/fixtures/*/tree/", "gen/*.py", "/build/", "a/[b", "", "**", "*/", "a//b"} {
		f.Add(s, "a/b/c.py")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		es, err := compileExclude([]string{pattern})
		if err != nil {
			return
		}
		excluded(es, path)
		plain := strings.Trim(pattern, "/")
		if strings.ContainsAny(plain, `*?[]{}\`) || plain == "" || strings.Contains(plain, "//") {
			return
		}
		if !excluded(es, plain) && !strings.HasSuffix(pattern, "/") {
			t.Errorf("%q does not exclude %q", pattern, plain)
		}
		if strings.HasSuffix(pattern, "/") && !excluded(es, plain+"/x") {
			t.Errorf("%q does not exclude %q", pattern, plain+"/x")
		}
	})
}
