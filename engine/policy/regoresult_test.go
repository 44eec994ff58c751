package policy

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestTermViolationMatchesToViolation: whatever termViolation takes, it
// reads as toViolation reads the plain form; what it leaves, toViolation
// decides.
func TestTermViolationMatchesToViolation(t *testing.T) {
	taken := []string{
		`{"msg": "m"}`, `{"msg": "m", "file": "a.py", "line": 3, "rule": "r"}`, `{"msg": "é", "line": 0}`,
		`{"msg": "m", "detector": "d", "kind": "k", "ref": "x"}`, `{"file": "", "msg": "m"}`,
	}
	left := []string{
		`{"msg": ""}`, `{"file": "a.py"}`, `{"msg": "m", "line": -1}`, `{"msg": "m", "line": 1.0}`, `{"msg": "m", "line": 1e2}`,
		`{"msg": "m", "line": 99999999999999999999}`, `{"msg": "m", "line": "3"}`, `{"msg": 1}`, `{"msg": "m", "extra": "x"}`,
		`{"msg": "m", 1: "x"}`, `{}`, `"msg"`, `["msg"]`, `{"msg": "m", "file": null}`, `{"msg": {"a": 1}}`,
	}
	check := func(src string, wantTaken bool) {
		v := ast.MustParseTerm(src).Value
		fast, ok := termViolation(v)
		if ok != wantTaken {
			t.Errorf("%s: termViolation ok %v, want %v", src, ok, wantTaken)
		}
		plain, err := ast.JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := toViolation(plainRego(plain))
		if ok && (err != nil || !reflect.DeepEqual(fast, slow)) {
			t.Errorf("%s: termViolation %+v, toViolation %+v (%v)", src, fast, slow, err)
		}
	}
	for _, s := range taken {
		check(s, true)
	}
	for _, s := range left {
		check(s, false)
	}
}

// TestRegoListOfTermIsRegoListOfPlain: a set read as the query leaves it
// gives what its Go API list gives, errors included.
func TestRegoListOfTermIsRegoListOfPlain(t *testing.T) {
	for _, src := range []string{
		`{{"msg": "a", "line": 2}, {"msg": "b", "file": "f"}}`, `set()`,
		`{{"msg": "a"}, {"msg": "m", "line": 1.0}}`, `{{"msg": "a"}, {"file": "x"}}`, `{"not an object"}`,
		`["a list"]`, `"a string"`,
	} {
		term := ast.MustParseTerm(src)
		plain, err := ast.JSON(term.Value)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := regoList(resultTerm{term}, "p.rego:1: violations", toViolation, termViolation)
		want, wantErr := regoList(plain, "p.rego:1: violations", toViolation, nil)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n term  %+v, %v\n plain %+v, %v", src, got, gotErr, want, wantErr)
		}
	}
}
