package pathpat

import (
	"slices"
	"testing"
)

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
		{"a/*", "a/b/c", false},    // whole paths: "*" never reaches below
		{"gen", "gen/x.py", false}, // a name matches files, "gen/" the directory
		{"*", "a/b/c", true},
		{"./src/", "src/x.go", true},
		{"vendor/**/*.go", "vendor/m/x.go", true},
		{"?.py", "a/b.py", true},
		{"?.py", "a/bb.py", false},
		{"CHANGELOG.md", "docs/CHANGELOG.md", true},
		// The repository-relative paths of a Windows checkout are
		// "/"-separated (engine.Relative), compared as written.
		{"src/", "src/a.py", true},
		{"src/", `src\a.py`, false},
		{"Src/", "src/a.py", false},
		{"a:b.py", "d/a:b.py", true}, // a colon inside a name is no drive
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
	for _, p := range []string{"", " ", "/", "a//b", `a\b`, "a/[b", "./", "{a,b}", "a]",
		// Windows paths: drive letters either case and either slash,
		// backslashes, UNC shares.
		"C:/repo/src/", "c:/x.py", "C:", `C:\repo\src\`, `src\gen\`, "//srv/share/x", `\\srv\share\x`} {
		if _, err := Compile(p); err == nil {
			t.Errorf("%q compiled", p)
		}
	}
}

func TestFromLegacy(t *testing.T) {
	cases := []struct {
		shape, in string
		want      []string
	}{
		{LegacyDirs, "tests/", []string{"**/tests/"}},
		{LegacyDirs, "./a/b", []string{"**/a/b/"}},
		{LegacyDirs, "**/x/", []string{"**/x/"}},
		{LegacyGitignore, "testdata/", []string{"**/testdata/"}},
		{LegacyGitignore, "**/fixtures/*/tree/", []string{"**/fixtures/*/tree/"}},
		{LegacyGitignore, "*.pyi", []string{"*.pyi", "**/*.pyi/"}},
		{LegacyGitignore, "gen/*.py", []string{"gen/*.py", "gen/*.py/"}},
		{LegacyGitignore, "**", []string{"**"}},
		{LegacyWholePath, ".clinerules", []string{"/.clinerules"}},
		{LegacyWholePath, ".cursor/rules/**", []string{".cursor/rules/**"}},
	}
	for _, c := range cases {
		if got := FromLegacy(c.shape, c.in); !slices.Equal(got, c.want) {
			t.Errorf("FromLegacy(%s, %q) = %q, want %q", c.shape, c.in, got, c.want)
		}
	}
	// The legacy meaning survives: a/tests/x.py was exempt by "tests/" and is by the new pattern.
	s, _ := CompileAll(FromLegacy(LegacyDirs, "tests/"))
	if !s.Match("a/tests/x.py") || s.Match("unittests/x.py") {
		t.Error("legacy dirs meaning lost")
	}
	// gitignore's "gen" left out a file named gen and a directory named gen, at any depth.
	s, _ = CompileAll(FromLegacy(LegacyGitignore, "gen"))
	if !s.Match("a/gen") || !s.Match("a/gen/x.py") || s.Match("a/generated.py") {
		t.Error("legacy gitignore meaning lost")
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
