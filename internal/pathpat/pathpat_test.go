package pathpat

import "testing"

func TestMatch(t *testing.T) {
	cases := []struct {
		pat, path string
		want      bool
	}{
		{"tests/", "tests/x.py", true},
		{"tests/", "tests/a/b.py", true},
		{"tests/", "a/tests/x.py", false}, // anchored: the root's tests only
		{"tests/", "tests", false},        // a directory pattern never matches a file
		{"**/tests/", "a/tests/x.py", true},
		{"**/tests/", "tests/x.py", true},
		{"**/tests/", "unittests/x.py", false},
		{"/x.py", "x.py", true},
		{"/x.py", "a/x.py", false},
		{"x.py", "a/b/x.py", true},
		{"*.py", "a/b/x.py", true},
		{"*.py", "a/b/x.go", false},
		{"a/*.py", "a/x.py", true},
		{"a/*.py", "a/b/x.py", false},
		{"a/**/*.py", "a/b/c/x.py", true},
		{"**", "a/b/c", true},
		{"*", "a/b/c", true},
		{"./src/", "src/x.go", true},
		{"vendor/**/*.go", "vendor/m/x.go", true},
		{"?.py", "a/b.py", true},
		{"?.py", "a/bb.py", false},
		{"CHANGELOG.md", "docs/CHANGELOG.md", true},
	}
	for _, c := range cases {
		p, err := Compile(c.pat)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		if got := p.Match(c.path); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, p := range []string{"", " ", "/", "a//b", `a\b`, "a/[b", "./"} {
		if _, err := Compile(p); err == nil {
			t.Errorf("%q compiled", p)
		}
	}
}

func TestFromLegacy(t *testing.T) {
	cases := []struct{ shape, in, want string }{
		{LegacyDirs, "tests/", "**/tests/"},
		{LegacyDirs, "./a/b", "**/a/b/"},
		{LegacyDirs, "**/x/", "**/x/"},
		{LegacyGitignore, "testdata/", "**/testdata/"},
		{LegacyGitignore, "**/fixtures/*/tree/", "**/fixtures/*/tree/"},
		{LegacyGitignore, "*.pyi", "*.pyi"},
		{LegacyWholePath, ".clinerules", "/.clinerules"},
		{LegacyWholePath, ".cursor/rules/**", ".cursor/rules/**"},
	}
	for _, c := range cases {
		if got := FromLegacy(c.shape, c.in); got != c.want {
			t.Errorf("FromLegacy(%s, %q) = %q, want %q", c.shape, c.in, got, c.want)
		}
	}
	// The legacy meaning survives: a/tests/x.py was exempt by "tests/" and is by the new pattern.
	if !Match(FromLegacy(LegacyDirs, "tests/"), "a/tests/x.py") || Match(FromLegacy(LegacyDirs, "tests/"), "unittests/x.py") {
		t.Error("legacy dirs meaning lost")
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{"tests/", "**/x", "*.py", "a/[b", "/x"} {
		f.Add(s, "a/tests/x.py")
	}
	f.Fuzz(func(t *testing.T, pat, path string) {
		if p, err := Compile(pat); err == nil {
			_ = p.Match(path)
		}
	})
}
