package artifacts

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParseLocatesProblems(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"no front matter", "# title\n", 1, "no front matter"},
		{"empty file", "", 1, "no front matter"},
		{"never closed", "---\na: 1\n", 1, "never closed"},
		{"empty", "---\n---\nbody\n", 1, "is empty"},
		{"flow list unclosed", "---\na: 1\nb: [x\nc: 2\n---\n", 3, "did not find expected"},
		{"mapping value", "---\na: 1\nb: c: d\n---\n", 3, "mapping values"},
		{"not a mapping", "---\n- a\n- b\n---\n", 2, "must be a mapping"},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\n", 4, `field "a" is given twice`},
		{"tab indent", "---\na:\n\t- x\n---\n", 3, "cannot start any token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.md", []byte(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrParse) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %s, want line %d mentioning %q", pe, tc.line, tc.msg)
			}
		})
	}
}

func TestEditKeepsBody(t *testing.T) {
	body := "# SPEC-API: x\r\n\n  indented\ttabs *kept*\n\n---\nnot front matter\n"
	in := "---\r\n# a comment stays\nslug: x\nstatus: draft\nextra: {keep: me}\n---\r\n" + body
	d, err := Parse("x.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if d.BodyStart != 7 {
		t.Errorf("BodyStart = %d, want 7", d.BodyStart)
	}
	d.Set("status", Str("active"))
	d.Set("updated_at", Str("2026-01-02T00:00:00Z"))
	out, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(out, []byte("---\n"+body)) {
		t.Errorf("body changed:\n%s", out)
	}
	for _, want := range []string{"# a comment stays\n", "status: active\n", "extra: {keep: me}\n", `updated_at: "2026-01-02T00:00:00Z"` + "\n"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	d2, err := Parse("x.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Get("status").Value != "active" || !bytes.Equal(d2.Body, []byte(body)) {
		t.Errorf("round trip lost the edit or the body")
	}
}

func TestReadAdaptFields(t *testing.T) {
	in := "---\nartifact: adapt\nslug: a\nstatus: signed\ndelta_n: 2\nparent_adapt: p\n" +
		"links:\n  - {target_slug: t1, target_type: task}\nsignatures: []\n---\n" +
		"## Forward interpretations\n\n### [gap] (s1) text\n\n```\n### [fake] (x)\n```\n## Backward findings\n### [scope]\n"
	d, err := Parse("a.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	a, err := ReadAdapt(d)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != "approved" || a.StatusRaw != "signed" {
		t.Errorf("status %q raw %q, want approved from signed", a.Status, a.StatusRaw)
	}
	if a.DeltaInt == nil || *a.DeltaInt != 2 || a.Lines["delta_n"] != 5 {
		t.Errorf("delta %v at line %d, want 2 at line 5", a.DeltaInt, a.Lines["delta_n"])
	}
	want := []Finding{{"Forward interpretations", "gap", "s1", 13}, {"Backward findings", "scope", "", 19}}
	if len(a.Findings) != len(want) || a.Findings[0] != want[0] || a.Findings[1] != want[1] {
		t.Errorf("findings %+v, want %+v", a.Findings, want)
	}
	if len(a.Links) != 1 || a.Links[0].TargetSlug != "t1" || a.Links[0].Line != 8 {
		t.Errorf("links %+v", a.Links)
	}
}

func TestReadRefusesWrongShapes(t *testing.T) {
	for _, in := range []string{
		"---\ntitle: [a]\n---\n",
		"---\nlinked_tasks: one\n---\n",
		"---\nlinked_tasks: [[a]]\n---\n",
	} {
		d, err := Parse("s.md", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSpec(d); !errors.Is(err, ErrParse) {
			t.Errorf("%q: err = %v, want a parse error", in, err)
		}
	}
	d, _ := Parse("a.md", []byte("---\nsignatures: [x]\n---\n"))
	if _, err := ReadAdapt(d); !errors.Is(err, ErrParse) {
		t.Errorf("a scalar signature entry: err = %v, want a parse error", err)
	}
}

// FuzzParse holds the front matter reader to its contract on any input: it
// never panics, it fails only with a located *ParseError, and what it reads
// survives being written back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"---\nslug: x\n---\nbody\n", "---\na: &x [1]\nb: *x\n---\n", "---\r\na: 1\r\n---\r\n",
		"---\n: :\n---\n", "---\na: !!binary AAA\n---\n", "", "---", "---\n...\n",
		"---\nsignatures:\n  - role: architect\n---\n### [gap] (s)\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("f.md", data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v is not a located *ParseError", err)
			}
			return
		}
		_, _ = ReadSpec(d)
		_, _ = ReadAdapt(d)
		_ = Canonical(d)
		out, err := d.Bytes()
		if err != nil {
			return
		}
		d2, err := Parse("f.md", out)
		if err != nil {
			t.Fatalf("written back, it does not parse: %v\n%q", err, out)
		}
		if !bytes.Equal(d2.Body, d.Body) {
			t.Fatalf("body changed on write: %q -> %q", d.Body, d2.Body)
		}
	})
}
