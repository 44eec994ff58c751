package command

import (
	"testing"

	"github.com/tausik/tausik/facts"
)

// shellcheckRun and yamllintRun are the real tools' output (shellcheck
// 0.9.0 -f json1, yamllint 1.29.0 -f parsable), recorded from runs on the
// shellcheck and yamllint gates' red fixture trees and a script that does
// not parse.
const (
	shellcheckRun = `{"comments":[{"file":"run.sh","line":3,"endLine":3,"column":1,"endColumn":5,"level":"warning","code":2034,"message":"name appears unused. Verify use (or export if used externally).","fix":null},` +
		`{"file":"/work/proj/scripts/bad.sh","line":1,"endLine":1,"column":8,"endColumn":8,"level":"error","code":1072,"message":"Unexpected keyword/token. Fix any mentioned problems and try again.","fix":null}]}`
	yamllintRun = `app.yaml:2:1: [error] duplication of key "key" in mapping (key-duplicates)
app.yaml:4:41: [warning] line too long (56 > 40 characters) (line-length)
sub/broken.yml:2:4: [error] syntax error: mapping values are not allowed here (syntax)
`
)

// TestParseShellcheck: each comment is a diagnostic with shellcheck's level
// and code (SC and the number), its path made relative to the root; a clean
// run is none; output that is not json1's object is an error.
func TestParseShellcheck(t *testing.T) {
	t.Parallel()
	diags, err := ParseShellcheck([]byte(shellcheckRun), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Diagnostic{
		{File: "run.sh", Line: 3, Column: 1, Severity: "warning", Code: "SC2034", Message: "name appears unused. Verify use (or export if used externally)."},
		{File: "scripts/bad.sh", Line: 1, Column: 8, Severity: "error", Code: "SC1072", Message: "Unexpected keyword/token. Fix any mentioned problems and try again."},
	}
	if len(diags) != 2 || diags[0] != want[0] || diags[1] != want[1] {
		t.Fatalf("shellcheck %s", dump(diags))
	}
	if diags, err := ParseShellcheck([]byte(`{"comments":[]}`+"\n"), "/p"); err != nil || len(diags) != 0 {
		t.Fatalf("a clean shellcheck run: %v %s", err, dump(diags))
	}
	for _, bad := range []string{"", "In run.sh line 3:", `{"comments":[]} {}`, `{"other":1}`, `{"comments":[{"line":1}]}`} {
		if _, err := ParseShellcheck([]byte(bad), "/p"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestParseYamllint: each problem line is a diagnostic with its level and
// rule; a line in another form is an error, never skipped.
func TestParseYamllint(t *testing.T) {
	t.Parallel()
	diags, err := ParseYamllint([]byte(yamllintRun), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.Diagnostic{
		{File: "app.yaml", Line: 2, Column: 1, Severity: "error", Code: "key-duplicates", Message: `duplication of key "key" in mapping`},
		{File: "app.yaml", Line: 4, Column: 41, Severity: "warning", Code: "line-length", Message: "line too long (56 > 40 characters)"},
		{File: "sub/broken.yml", Line: 2, Column: 4, Severity: "error", Code: "syntax", Message: "syntax error: mapping values are not allowed here"},
	}
	if len(diags) != 3 || diags[0] != want[0] || diags[1] != want[1] || diags[2] != want[2] {
		t.Fatalf("yamllint %s", dump(diags))
	}
	if diags, err := ParseYamllint(nil, "/p"); err != nil || len(diags) != 0 {
		t.Fatalf("a clean yamllint run: %v %s", err, dump(diags))
	}
	if _, err := ParseYamllint([]byte("invalid config: while parsing a flow node\n"), "/p"); err == nil {
		t.Error("a line that is no problem: no error")
	}
}
