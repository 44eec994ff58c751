package scripts

import (
	"fmt"
	"strings"
	"testing"
)

// TestSedScript: the files a script's w and W commands and s///w flags
// write, and the scripts that run commands (e, s///e) or cannot be read.
func TestSedScript(t *testing.T) {
	for script, want := range map[string]string{
		"s/a/b/":             "[] false",
		"s/a/b/w out":        "[out] false",
		"1,3w out\n$W two":   "[out two] false",
		"/x/{s|a|b|gw f\n}":  "[f] false",
		"e touch x":          "[] true",
		"s/a/touch x/e":      "[] true",
		"y/abc/xyz/;p":       "[] false",
		"s/a":                "[] true",
		"a\\\nw not a file":  "[] false",
		"s/w out/x/":         "[] false",
		"2{w a\n};3w b":      "[a b] false",
		"#n\ns/x/y/w /dev/x": "[/dev/x] false",
	} {
		files, runs := SedScript(script)
		if got := fmt.Sprint(files, " ", runs); got != want {
			t.Errorf("%q: got %s, want %s", script, got, want)
		}
	}
}

// TestDiffFiles: both names of each header pair and diff --git line, the
// names of a rename and a copy's target, /dev/null and a copy's source
// left out.
func TestDiffFiles(t *testing.T) {
	for text, want := range map[string]string{
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-o\n+n\n":                                 "{a/x false} {b/x false}",
		"--- /dev/null\n+++ b/new\n":                                              "{b/new false}",
		"diff --git a/o b/n\nsimilarity index 100%\nrename from o\nrename to n\n": "{a/o false} {b/n false} {o true} {n true}",
		"diff --git a/s b/c\ncopy from s\ncopy to c\n":                            "{b/c false} {c true}",
		"diff --git \"a/x y\" \"b/x y\"\n":                                        "{a/x y false} {b/x y false}",
		"*** a/x\tdate\n--- b/x\tdate\n":                                          "{a/x false} {b/x false}",
		"@@ -1,2 +1 @@\n--- x\n-y\n":                                              "",
	} {
		var got []string
		for _, f := range DiffFiles(text) {
			got = append(got, fmt.Sprint(f))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: got %q, want %q", text, strings.Join(got, " "), want)
		}
	}
}
