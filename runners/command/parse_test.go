package command

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// junitSeeds are reports pytest 7.2 wrote for the samples under
// testdata/pytest (junit_family=xunit1), plus shapes other tools write.
var junitSeeds = []string{
	`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="2" time="0.020"><testcase classname="tests.test_broken_math" name="test_double_passes_for_zero" file="tests/test_broken_math.py" line="4" time="0.000" /><testcase classname="tests.test_broken_math" name="test_double" file="tests/test_broken_math.py" line="8" time="0.000"><failure message="assert 6 == 4&#10; +  where 6 = double(2)">def test_double():
&gt;       assert double(2) == 4
E       assert 6 == 4

tests/test_broken_math.py:10: AssertionError</failure></testcase></testsuite></testsuites>`,
	`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="0" time="0.007" /></testsuites>`,
	`<testsuites><testsuite errors="1" tests="1"><testcase classname="" name="tests.test_import_error" file="tests/test_import_error.py" time="0.000"><error message="collection failure">ImportError while importing test module.
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
tests/test_import_error.py:1: in &lt;module&gt;
E   ModuleNotFoundError</error></testcase></testsuite></testsuites>`,
	`<testsuite tests="1"><testsuite><testcase name="nested" time="1.5"><skipped/></testcase></testsuite></testsuite>`,
	`<testsuites><testcase name="x" line="-3" time="NaN"/></testsuites>`,
	`<html/>`, `<testsuites>`, ``, `<!DOCTYPE x [<!ENTITY e "boom">]><testsuites>&e;</testsuites>`,
}

func TestParseJUnit(t *testing.T) {
	t.Parallel()
	rep, err := ParseJUnit([]byte(junitSeeds[0]), "/project")
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Cases[1]
	if rep.Tests != 2 || rep.Failures != 1 || rep.Passed != 1 || f.Line != 9 || f.FailFile != "tests/test_broken_math.py" || f.FailLine != 10 ||
		f.Message != "assert 6 == 4\n +  where 6 = double(2)" {
		t.Fatalf("report %s", dump(rep))
	}
	rep, err = ParseJUnit([]byte(junitSeeds[3]), "/project")
	if err != nil || rep.Tests != 1 || rep.Skipped != 1 || rep.Cases[0].DurationMS != 1500 {
		t.Fatalf("nested suites: %s %v", dump(rep), err)
	}
	rep, err = ParseJUnit([]byte(junitSeeds[4]), "/project")
	if err != nil || rep.Cases[0].Line != 0 || rep.Cases[0].DurationMS != 0 {
		t.Fatalf("bad numbers: %s %v", dump(rep), err)
	}
	for _, bad := range junitSeeds[5:] {
		if _, err := ParseJUnit([]byte(bad), "/project"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzParseJUnit(f *testing.F) {
	for _, s := range junitSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := ParseJUnit(data, "/project")
		if err != nil {
			return
		}
		if rep.Tests != int64(len(rep.Cases)) || rep.Passed+rep.Failures+rep.Errors+rep.Skipped != rep.Tests {
			t.Fatalf("totals disagree with cases: %+v", rep)
		}
		for _, c := range rep.Cases {
			if c.Line < 0 || c.FailLine < 0 || c.DurationMS < 0 || len(c.Message) > maxMessage+len("…") {
				t.Fatalf("bad case %+v", c)
			}
		}
	})
}

func TestParseRuffRejectsWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "null", "{}", "[", `[{"code":"F401"}]`, "[] []", "All checks passed!"} {
		if _, err := ParseRuff([]byte(bad), "/p"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	d, err := ParseRuff([]byte(`[{"code":null,"filename":"/p/a.py","location":null,"fix":null,"message":"SyntaxError: x"}]`), "/p")
	if err != nil || len(d) != 1 || d[0].File != "a.py" || d[0].Code != "" || d[0].Fixable {
		t.Fatalf("%+v %v", d, err)
	}
	d, err = ParseRuff([]byte(`[{"code":"E1","filename":"/elsewhere/a.py","fix":{"edits":[]},"message":"m"}]`), "/p")
	if err != nil || d[0].File != "/elsewhere/a.py" || !d[0].Fixable {
		t.Fatalf("%+v %v", d, err)
	}
}

func FuzzParseRuff(f *testing.F) {
	for _, s := range []string{"[]", `[{"code":"F401","filename":"/p/a.py","location":{"row":1,"column":8},"fix":null,"message":"m"}]`, "null", "[1]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseRuff(data, "/p")
	})
}

func TestParseMypyAndLines(t *testing.T) {
	t.Parallel()
	mypy := "a b.py:2:12: error: Incompatible return value type  [return-value]\r\n" +
		"pkg/m.py:7: note: See docs\nFound 1 error in 1 file (checked 2 source files)\n" +
		"/p/x.py:3:1:3:5: warning: W  [misc]\n"
	d := ParseMypy([]byte(mypy), "/p")
	if len(d) != 3 || d[0].File != "a b.py" || d[0].Line != 2 || d[0].Column != 12 || d[0].Code != "return-value" ||
		d[1].Severity != "note" || d[1].Column != 0 || d[2].File != "x.py" || d[2].Code != "misc" {
		t.Fatalf("%s", dump(d))
	}
	vet := "# example.test/vet\n# [example.test/vet]\n./main.go:6:2: fmt.Printf format %d has arg\nvet: sub/a.go:3: undefined: y\n"
	d = ParseLines([]byte(vet), "/p")
	if len(d) != 2 || d[0].File != "main.go" || d[0].Line != 6 || d[0].Column != 2 || d[1].File != "sub/a.go" || d[1].Line != 3 {
		t.Fatalf("%s", dump(d))
	}
	if d := ParseLines(nil, "/p"); d == nil || len(d) != 0 {
		t.Fatalf("empty output must give an empty list, got %v", d)
	}
}

func TestCapture(t *testing.T) {
	t.Parallel()
	c := newCapture(10, 4)
	c.Write([]byte("héllo "))
	c.Write([]byte("wörld and more"))
	if c.complete() || c.total != 22 || string(c.head) != "héllo wö"[:10] {
		t.Fatalf("head %q total %d", c.head, c.total)
	}
	s, cut := c.report(8)
	if !cut || !strings.HasPrefix(s, "hél\n") || !strings.HasSuffix(s, "more") || !utf8.ValidString(s) {
		t.Fatalf("report %q", s)
	}
	small := newCapture(100, 50)
	small.Write([]byte("ok\xff"))
	if s, cut := small.report(10); cut || s != "ok\uFFFD" {
		t.Fatalf("small %q %v", s, cut)
	}
}
