package mutate

import (
	"strings"
	"testing"
)

const regoSrc = `package tausik.gates.big

could_not_run contains "files_unavailable" if input.files.status != "ok"

violations contains {"msg": f.path} if {
	some f in input.files.files
	not f.binary
	f.lines > input.params.max_lines + 1
}

violations contains {"msg": "all small"} if {
	every f in input.files.files { f.lines < 3 }
}
`

const celSrc = `let:
  big: input.files.files.filter(f, f.exists && f.lines >= 10)
could_not_run:
  - code: files_unavailable
    when: input.files.status == "ok"
violations:
  - rule: big
    expr: >-
      big.map(f, {"msg": f.path})
  - rule: none
    expr: >-
      input.files.files.all(f, f.lines < 2) ? [{"msg": "all small"}] : []
`

// find returns the mutant of op on line whose mutated text is want.
func find(t *testing.T, ms []Mutant, op, want string, line int) Mutant {
	t.Helper()
	for _, m := range ms {
		if m.Operator == op && m.Mutated == want && m.Line == line {
			return m
		}
	}
	var have []string
	for _, m := range ms {
		if m.Operator == op {
			have = append(have, m.Mutated)
		}
	}
	t.Fatalf("no %s mutant %q; have %q", op, want, have)
	return Mutant{}
}

// Each operator on Rego: the reported line and texts, and the whole
// mutated source differing from the original in exactly that place.
func TestRegoOperators(t *testing.T) {
	ms, err := Generate(LangRego, "policy.rego", []byte(regoSrc))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		op, mutated string
		line        int
		original    string
		// edit is the one-line replacement the mutated source has.
		from, to string
	}{
		{OpRelational, "f.lines >= input.params.max_lines + 1", 8, "f.lines > input.params.max_lines + 1", "\tf.lines > input", "\tf.lines >= input"},
		{OpRelational, "f.lines <= 3", 12, "f.lines < 3", "f.lines < 3 }", "f.lines <= 3 }"},
		{OpEquality, `input.files.status == "ok"`, 3, `input.files.status != "ok"`, `status != "ok"`, `status == "ok"`},
		{OpNumber, "f.lines > input.params.max_lines + 2", 8, "f.lines > input.params.max_lines + 1", "max_lines + 1", "max_lines + 2"},
		{OpNumber, "f.lines > input.params.max_lines + 0", 8, "f.lines > input.params.max_lines + 1", "max_lines + 1", "max_lines + 0"},
		{OpNumber, "f.lines < 4", 12, "f.lines < 3", "f.lines < 3", "f.lines < 4"},
		{OpString, `input.files.status != ""`, 3, `input.files.status != "ok"`, `!= "ok"`, `!= ""`},
		{OpNegate, "f.binary", 7, "not f.binary", "\tnot f.binary\n", "\tf.binary\n"},
		{OpNegate, "not f.lines > input.params.max_lines + 1", 8, "f.lines > input.params.max_lines + 1", "\tf.lines >", "\tnot f.lines >"},
		{OpDrop, "true", 7, "not f.binary", "\tnot f.binary\n", "\ttrue\n"},
		{OpQuantifier, "every f in input.files.files { not f.binary; f.lines > input.params.max_lines + 1 }", 6,
			"some f in input.files.files not f.binary f.lines > input.params.max_lines + 1", "\tsome f in", "\tevery f in input.files.files { not f.binary; f.lines > input.params.max_lines + 1 }\n}"},
		{OpQuantifier, "some f in input.files.files; f.lines < 3", 12, "every f in input.files.files { f.lines < 3 }", "every f in input.files.files { f.lines < 3 }", "some f in input.files.files; f.lines < 3"},
		{OpRemoveRule, "(rule removed)", 11, `violations contains {"msg": "all small"} if {`, "violations contains {\"msg\": \"all small\"} if {\n\tevery", "\n\n\n"},
	}
	for _, c := range cases {
		m := find(t, ms, c.op, c.mutated, c.line)
		if m.Line != c.line || m.Original != c.original {
			t.Errorf("%s %q: line %d original %q, want %d %q", c.op, c.mutated, m.Line, m.Original, c.line, c.original)
		}
		src := string(m.Source)
		if !strings.Contains(regoSrc, c.from) || !strings.Contains(src, c.to) {
			t.Errorf("%s %q: mutated source lacks %q:\n%s", c.op, c.mutated, c.to, src)
		}
		if c.op != OpRemoveRule && strings.Count(src, "\n") != strings.Count(regoSrc, "\n") && c.op != OpQuantifier {
			t.Errorf("%s: the mutant moved lines:\n%s", c.op, src)
		}
	}
}

// Each operator on CEL: the reported line and texts, and the mutated
// expression in the rewritten policy.cel.yaml.
func TestCELOperators(t *testing.T) {
	ms, err := Generate(LangCEL, "policy.cel.yaml", []byte(celSrc))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		op, mutated string
		line        int
		original    string
		inSource    string
	}{
		{OpRelational, "f.lines > 10", 2, "f.lines >= 10", `input.files.files.filter(f, f.exists && f.lines > 10)`},
		{OpRelational, "f.lines <= 2", 12, "f.lines < 2", `(input.files.files.all(f, f.lines <= 2)) ?`},
		{OpEquality, `input.files.status != "ok"`, 5, `input.files.status == "ok"`, `when: "input.files.status != \"ok\""`},
		{OpNumber, "f.lines >= 11", 2, "f.lines >= 10", "f.lines >= 11"},
		{OpNumber, "f.lines >= 9", 2, "f.lines >= 10", "f.lines >= 9"},
		{OpString, `input.files.status == ""`, 5, `input.files.status == "ok"`, `input.files.status == \"\"`},
		{OpNegate, `!(input.files.status == "ok")`, 5, `input.files.status == "ok"`, `!(input.files.status == \"ok\")`},
		{OpNegate, "!f.exists", 2, "f.exists", "filter(f, !f.exists && f.lines >= 10)"},
		{OpDrop, "f.lines >= 10", 2, "f.exists && f.lines >= 10", "filter(f, f.lines >= 10)"},
		{OpDrop, "input.files.files", 2, "input.files.files.filter(f, f.exists && f.lines >= 10)", `big: "input.files.files"`},
		{OpQuantifier, "input.files.files.exists(f, f.lines < 2)", 12, "input.files.files.all(f, f.lines < 2)", "(input.files.files.exists(f, f.lines < 2)) ?"},
		{OpRemoveRule, "(entry removed)", 10, "rule: none", ""},
	}
	for _, c := range cases {
		m := find(t, ms, c.op, c.mutated, c.line)
		if m.Line != c.line || m.Original != c.original {
			t.Errorf("%s %q: line %d original %q, want %d %q", c.op, c.mutated, m.Line, m.Original, c.line, c.original)
		}
		if !strings.Contains(string(m.Source), c.inSource) {
			t.Errorf("%s %q: mutated source lacks %q:\n%s", c.op, c.mutated, c.inSource, m.Source)
		}
	}
	removed := find(t, ms, OpRemoveRule, "(entry removed)", 10)
	if strings.Contains(string(removed.Source), "rule: none") {
		t.Errorf("entry not removed:\n%s", removed.Source)
	}
}

// A policy that does not parse is ErrSyntax, never a panic or no mutants.
func TestGenerateRefusesBadSource(t *testing.T) {
	for lang, src := range map[string]string{LangRego: "package x\n\nviolations contains if {", LangCEL: "violations:\n  - rule: r\n    expr: 'a &&'\n", "lua": "x"} {
		if _, err := Generate(lang, "p", []byte(src)); err == nil {
			t.Errorf("%s: no error", lang)
		}
	}
}

func TestOperatorsRegistry(t *testing.T) {
	ops := Operators()
	if len(ops) != 8 {
		t.Fatalf("%d operators", len(ops))
	}
	for _, o := range ops {
		if o.Name == "" || len(o.Doc) < 20 {
			t.Errorf("operator %+v is not documented", o)
		}
	}
}
