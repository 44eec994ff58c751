package policy

import (
	"context"
	"path"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
)

// tddOrderBySegments is tdd_order's earlier formulation, which split each
// path into segments: the reference the single-pattern policy must agree
// with on every path.
const tddOrderBySegments = `package tausik.gates.tdd_order

test_dirs := {"tests", "test", "__tests__", "spec", "specs"}

test_name_marks := ["_test.", ".test.", ".spec.", "_spec."]

code_extensions := {e | some e in input.params.code_extensions}

code_files contains f.path if {
	some f in input.files.files
	code_extensions[f.ext]
}

is_test(path) if {
	segments := split(path, "/")
	some seg in array.slice(segments, 0, count(segments) - 1)
	test_dirs[seg]
}

is_test(path) if startswith(basename(path), "test_")

is_test(path) if {
	some mark in test_name_marks
	contains(basename(path), mark)
}

basename(path) := name if {
	segments := split(path, "/")
	name := segments[count(segments) - 1]
}

test_files := {p | some p in code_files; is_test(p)}

violations contains {"msg": p} if {
	count(test_files) == 0
	some p in code_files
}
`

// TestTDDOrderPatternMatchesSegments: over every combination of test-like
// and lookalike directories and names, the shipped policy's one pattern
// tells a test file from code exactly as splitting the path did.
func TestTDDOrderPatternMatchesSegments(t *testing.T) {
	ctx := context.Background()
	shipped, err := policies.FS.ReadFile("tdd_order/policy.rego")
	if err != nil {
		t.Fatal(err)
	}
	var d diag.Diagnostics
	ref := compileRego(ctx, "tdd_order", "reference.rego", []byte(tddOrderBySegments), &d)
	cur := compileRego(ctx, "tdd_order", "policy.rego", shipped, &d)
	if ref == nil || cur == nil {
		t.Fatalf("compile: %v", d.Items)
	}
	dirs := []string{"", "tests", "test", "__tests__", "spec", "specs", "mytests", "tests_x", "test_dir", "a_test.d", "x.spec.y", "Tests", "src"}
	names := []string{"app.py", "test_app.py", "app_test.go", "app.test.ts", "app.spec.js", "app_spec.rs", "contest.py", "testing.py",
		"test_.py", "tests.py", "a.test.b.py", "Test_app.py", "spec.py", "x_testy.go", "test_notes.md", "app.spec"}
	params := map[string]any{"code_extensions": []any{".py", ".ts", ".js", ".rs", ".go"}}
	tests, code := 0, 0
	for _, d1 := range dirs {
		for _, d2 := range dirs {
			for _, name := range names {
				p := path.Join(d1, d2, name)
				files := []facts.File{{Path: "src/main.py", Ext: ".py", Exists: true, Kind: "file"}, {Path: p, Ext: path.Ext(p), Exists: true, Kind: "file"}}
				doc := facts.NewDocument()
				doc.Set("files", facts.OK(facts.Files{Files: files}))
				plain, err := doc.Generic()
				if err != nil {
					t.Fatal(err)
				}
				want, err := ref.Eval(ctx, NewInput(plain, params))
				if err != nil {
					t.Fatal(err)
				}
				got, err := cur.Eval(ctx, NewInput(plain, params))
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Violations) != len(want.Violations) {
					t.Errorf("%s: %d violations, the segment formulation gives %d", p, len(got.Violations), len(want.Violations))
				}
				if len(want.Violations) == 0 {
					tests++
				} else {
					code++
				}
			}
		}
	}
	if tests == 0 || code == 0 {
		t.Fatalf("%d test paths and %d code paths: the corpus must hold both", tests, code)
	}
}
