package braces

import (
	"errors"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestExpand: each word expands as bash 5 expands it (the wants were
// printed by bash's own echo), and past the bound it is ErrTooMany.
func TestExpand(t *testing.T) {
	for src, want := range map[string]string{
		"a{b,c}d":      "abd acd",
		"{1..3}":       "1 2 3",
		"{01..03}":     "01 02 03",
		"{a..e..2}":    "a c e",
		"{3..1}":       "3 2 1",
		"{a..zz}":      "{a..zz}",
		"x{a,{b,c}}":   "xa xb xc",
		"'{a,b}'":      "'{a,b}'",
		"{a,b}{1,2}":   "a1 a2 b1 b2",
		"plain":        "plain",
		"{-01..1}":     "-01 000 001",
		"src/{a,../b}": "src/a src/../b",
	} {
		w := parse(t, src)
		words, err := Expand(w, 16, func() {})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		var got []string
		for _, x := range words {
			var b strings.Builder
			syntax.NewPrinter().Print(&b, x)
			got = append(got, b.String())
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: got %q, want %q", src, strings.Join(got, " "), want)
		}
	}
	for _, src := range []string{"{1..17}", "{a,b}{a,b}{a,b}{a,b}{a,b}", "{1..9223372036854775807}"} {
		if _, err := Expand(parse(t, src), 16, func() {}); !errors.Is(err, ErrTooMany) {
			t.Errorf("%s: err %v, want ErrTooMany", src, err)
		}
	}
}

func parse(t *testing.T, src string) *syntax.Word {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("echo "+src), "")
	if err != nil {
		t.Fatal(err)
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
}
