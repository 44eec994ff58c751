package surface

import "testing"

// TestGlobMatcherIsTheExpression: the literal-run prefilter only ever
// skips a path the expression would not match.
func TestGlobMatcherIsTheExpression(t *testing.T) {
	globs := []string{"testdata/**", "**/testdata/**", "**/fixtures/*/tree/**", "vendor/**/*.go", "*.py", "a/?.py",
		"a.py", "é/*.py", "**", "*", "?", "a**b", "ab*", "*ab", "**/x", "x/**", "\ufffd/*", "a\ufffdb"}
	paths := []string{"", "testdata/a.py", "a/testdata/b.py", "testdata", "p/fixtures/x/tree/a.py", "fixtures/x/tree/a.py",
		"vendor/m/x.go", "vendor/x.go", "vendorx/y.go", "a.py", "a/b.py", "a//.py", "axpy", "é/x.py", "ab", "abab", "a/b",
		"x", "x/", "/x", "a\nb", "testdata/\n", "\xff/a", "a\xffb", "a\ufffdb", "a/b/testdata/c"}
	matched := 0
	for _, g := range globs {
		re, ok := compileGlob(g)
		if !ok {
			t.Fatalf("%q did not compile", g)
		}
		m := globMatcher(g, re)
		for _, p := range paths {
			want := re.MatchString(p)
			if got := m(p); got != want {
				t.Errorf("glob %q on %q: matcher %v, expression %v", g, p, got, want)
			}
			if want {
				matched++
			}
		}
	}
	if matched < 20 {
		t.Errorf("only %d pairs matched: the table tests the skipping alone", matched)
	}
}

func FuzzGlobMatcher(f *testing.F) {
	f.Add("**/fixtures/*/tree/**", "p/fixtures/x/tree/a.py")
	f.Add("a\ufffd*", "a\xff/b")
	f.Fuzz(func(t *testing.T, g, p string) {
		re, ok := compileGlob(g)
		if !ok {
			return
		}
		if got, want := globMatcher(g, re)(p), re.MatchString(p); got != want {
			t.Errorf("glob %q on %q: matcher %v, expression %v", g, p, got, want)
		}
	})
}
