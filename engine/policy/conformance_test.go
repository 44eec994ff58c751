package policy

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestConformance runs the shared corpus in testdata/conformance through both
// policy engines: the same facts must give the same verdict in Rego and CEL,
// and both must match the golden file.
func TestConformance(t *testing.T) {
	rules, err := filepath.Glob("../../testdata/conformance/*/policy.rego")
	if err != nil || len(rules) == 0 {
		t.Fatalf("no conformance rules found: %v", err)
	}
	ctx := context.Background()
	for _, regoFile := range rules {
		dir := filepath.Dir(regoFile)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			d := &diag.Diagnostics{}
			regoSrc, _ := os.ReadFile(regoFile)
			celSrc, err := os.ReadFile(filepath.Join(dir, "policy.cel.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			rp := compileRego(ctx, name, regoFile, regoSrc, d)
			cp := compileCEL(filepath.Join(dir, "policy.cel.yaml"), celSrc, d)
			if err := d.Err(); err != nil {
				t.Fatal(err)
			}
			cases, _ := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
			var n int
			for _, cf := range cases {
				if strings.HasSuffix(cf, ".golden.json") {
					continue
				}
				n++
				in := loadConformanceCase(t, cf)
				rr, rerr := rp.Eval(ctx, in)
				cr, cerr := cp.Eval(ctx, in)
				if rerr != nil || cerr != nil {
					t.Fatalf("%s: rego err %v, cel err %v", cf, rerr, cerr)
				}
				if !reflect.DeepEqual(rr, cr) {
					t.Errorf("%s: Rego and CEL disagree\nrego: %+v\ncel:  %+v", cf, rr, cr)
				}
				golden := strings.TrimSuffix(cf, ".json") + ".golden.json"
				got, _ := json.MarshalIndent(rr, "", "  ")
				if *update {
					if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%s: %v (run with -update to create it)", cf, err)
				}
				if strings.TrimSpace(string(want)) != string(got) {
					t.Errorf("%s: result differs from %s\ngot:\n%s\nwant:\n%s", cf, golden, got, want)
				}
			}
			if n == 0 {
				t.Fatal("rule has no cases")
			}
		})
	}
}

func loadConformanceCase(t *testing.T, file string) *Input {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Params json.RawMessage `json:"params"`
		Facts  json.RawMessage `json:"facts"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	doc, err := facts.Parse(raw.Facts)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	plain, err := doc.Generic()
	if err != nil {
		t.Fatal(err)
	}
	params, err := facts.DecodeGeneric(raw.Params)
	if err != nil {
		t.Fatal(err)
	}
	return NewInput(plain, params.(map[string]any))
}
