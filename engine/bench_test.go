package engine

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
)

// syntheticFiles returns n files facts: a mix of code, tests, docs and a few
// over the default filesize limit.
func syntheticFiles(n int) *facts.Document {
	files := make([]facts.File, n)
	for i := range files {
		ext, dir := ".py", "src"
		switch i % 5 {
		case 1:
			ext = ".go"
		case 2:
			ext, dir = ".md", "docs"
		case 3:
			dir = "tests"
		}
		name := fmt.Sprintf("f%05d%s", i, ext)
		files[i] = facts.File{Path: fmt.Sprintf("%s/m%03d/%s", dir, i%300, name), Name: name, Ext: ext,
			Exists: true, Kind: "file", Size: int64(40 * (i % 700)), Lines: int64(i % 700), SHA256: "00"}
	}
	doc := facts.NewDocument()
	doc.Set("files", facts.OK(facts.Files{Files: files}))
	doc.Set(NamespaceRequest, facts.OK(facts.Request{Trigger: "commit"}))
	return doc
}

// BenchmarkGates10k evaluates each built-in gate (and both together) on a
// 10,000-file facts document, as prepared once per evaluation. A fifth of
// its files are under tests/, so tdd_order stops at the first; "untested" is
// its worst case, the same files without the tests: every code file is
// checked and 6,000 violations are built.
func BenchmarkGates10k(b *testing.B) {
	e := builtinEngine(b, b.TempDir())
	doc := syntheticFiles(10_000)
	untested := facts.NewDocument()
	for _, name := range doc.Names() {
		untested.Set(name, doc.Namespaces[name])
	}
	var code []facts.File
	for _, f := range doc.Namespaces["files"].Data.(facts.Files).Files {
		if !strings.HasPrefix(f.Path, "tests/") {
			code = append(code, f)
		}
	}
	untested.Set("files", facts.OK(facts.Files{Files: code}))
	for _, c := range []struct {
		name  string
		doc   *facts.Document
		gates []string
	}{
		{"filesize", doc, []string{"filesize"}}, {"tdd_order", doc, []string{"tdd_order"}},
		{"tdd_order_untested", untested, []string{"tdd_order"}}, {"filesize+tdd_order", doc, []string{"filesize", "tdd_order"}},
	} {
		plain, err := c.doc.Generic()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			base := policy.NewInput(plain, nil)
			if _, err := base.RegoTerms(); err != nil { // conversion is per evaluation, measured below
				b.Fatal(err)
			}
			cpu0, runs := benchCPU(b), 0
			for b.Loop() {
				runs++
				for _, n := range c.gates {
					g, _ := e.Gate(n)
					eff, _ := e.Effective(n)
					if v, _ := evalGate(context.Background(), g, g.Severity, eff.Params, base, c.doc); v.Outcome == CouldNotRun {
						b.Fatalf("%s: %+v", n, v.Reasons)
					}
				}
			}
			b.ReportMetric(float64(benchCPU(b)-cpu0)/1e6/float64(runs), "cpu-ms/op")
		})
	}
}

// BenchmarkFactsPrep10k measures a 10,000-file document's digests and the
// plain and Rego forms a Rego policy over it reads, as an evaluation that
// does not reuse the verdict prepares them.
func BenchmarkFactsPrep10k(b *testing.B) {
	doc := syntheticFiles(10_000)
	for b.Loop() {
		if _, _, err := doc.DigestParts(); err != nil {
			b.Fatal(err)
		}
		if _, err := policy.NewDocumentInput(doc, nil).RegoTerms(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadBuiltins measures loading every built-in gate: eagerly
// compiled (a long-lived MCP server, tests) and lazily (the CLI and hooks,
// which compile only the gates they evaluate).
func BenchmarkLoadBuiltins(b *testing.B) {
	root := b.TempDir()
	for _, v := range []struct {
		name string
		opts []Option
	}{{"eager", nil}, {"lazy", []Option{WithLazyBuiltins()}}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil)},
					v.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchCPU is the CPU time (user and system) this process has used: on a
// shared machine it shows the work done, which other load does not inflate.
func benchCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
