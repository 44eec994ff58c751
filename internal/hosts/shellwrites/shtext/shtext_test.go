package shtext

import "testing"

func TestUnescape(t *testing.T) {
	for _, c := range []struct {
		in     string
		quoted bool
		want   string
	}{
		{`a\ b`, false, `a b`},
		{`a\\b`, false, `a\b`},
		{"a\\\nb", false, "ab"},
		{`a\$b`, true, `a$b`},
		{`a\nb`, true, `a\nb`},
		{`a\nb`, false, `anb`},
		{`end\`, false, `end\`},
	} {
		if got := Unescape(c.in, c.quoted); got != c.want {
			t.Errorf("Unescape(%q, %v) = %q, want %q", c.in, c.quoted, got, c.want)
		}
	}
}

func TestProgramsThatOnlyEditText(t *testing.T) {
	for prog, writes := range map[string]bool{`{print $1}`: false, `{print > "f"}`: true, `{system("x")}`: true, `{print | "sh"}`: true, `@load "x"`: true} {
		if AwkWrites(prog) != writes {
			t.Errorf("AwkWrites(%q) = %v", prog, !writes)
		}
	}
	for code, edits := range map[string]bool{`s/a/b/g`: true, `s/a/b/; y/x/y/`: true, `s/a/b/e`: false, `s/(?{x})/b/`: false, `print 1`: false, ``: true} {
		if PerlSubstitutes([]string{code}) != edits {
			t.Errorf("PerlSubstitutes(%q) = %v", code, !edits)
		}
	}
	if PerlSubstitutes(nil) {
		t.Error("no code at all counts as an edit")
	}
}
