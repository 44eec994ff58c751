package engine

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/artifacts"
	renarrunner "github.com/tausik/tausik/runners"
	runner "github.com/tausik/tausik/runners/renar"
	"github.com/tausik/tausik/store"
)

// renarGates are the four RENAR advisories.
var renarGates = []string{"renar_qg0_advisory", "renar_drift_schema", "renar_drift_provenance", "renar_adapt_supersession"}

// syntheticRenar writes n SPECs and n ADAPTs under root (every other ADAPT a
// delta of the one before, one in ten signed, one SPEC in ten deprecated)
// and n/5 done tasks linked to them, with a green verify each.
func syntheticRenar(b *testing.B, root string, n int) *store.Store {
	b.Helper()
	ctx := context.Background()
	r := artifacts.Repo{Root: root, Now: func() time.Time { return time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC) }}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.OpenMemory(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	for i := range n {
		spec, task := fmt.Sprintf("spec-%04d", i), fmt.Sprintf("task-%04d", i/5)
		var tasks []string
		if i%5 == 0 {
			tasks = []string{task}
		}
		if _, err := r.CreateSpec(artifacts.NewSpec{Slug: spec, Type: artifacts.SpecTypes[i%len(artifacts.SpecTypes)], Title: "requirement " + spec, Status: "active", Tasks: tasks}); err != nil {
			b.Fatal(err)
		}
		if i%10 == 9 {
			if _, err := r.SetSpecStatus(spec, "deprecated"); err != nil {
				b.Fatal(err)
			}
		}
		in := artifacts.NewAdapt{Slug: fmt.Sprintf("adapt-%04d", i), Spec: spec, Tasks: []string{task}}
		if i%2 == 1 {
			in.Parent = fmt.Sprintf("adapt-%04d", i-1)
		}
		file, err := r.CreateAdapt(in)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(file)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\n### [gap] (%s)\n\nreading\n\n### [scope] (%s)\n\nreading\n", spec, spec)
		f.Close()
		if i%10 == 0 {
			if _, err := r.Sign(in.Slug, "architect", "alice", key); err != nil {
				b.Fatal(err)
			}
		}
		if i%5 == 0 {
			if _, err := st.CreateTask(ctx, store.Task{Slug: task, Goal: "g", Tier: store.TierDeep, Complexity: store.ComplexityMedium, Specs: []string{spec}}); err != nil {
				b.Fatal(err)
			}
			if _, err := st.RecordVerifyRun(ctx, store.VerifyRun{Task: task, Passed: true, FilesHash: "h", GateSignature: "g"}); err != nil {
				b.Fatal(err)
			}
			if _, err := st.MarkTaskDone(ctx, task); err != nil {
				b.Fatal(err)
			}
		}
	}
	return st
}

// BenchmarkRenar1k gathers the renar namespace over 1,000 SPECs and 1,000
// ADAPTs (200 linked done tasks, 100 signatures) and evaluates the four RENAR
// gates over it, as one task-done evaluation does.
func BenchmarkRenar1k(b *testing.B) {
	ctx := context.Background()
	root := b.TempDir()
	st := syntheticRenar(b, root, 1000)
	e := builtinEngine(b, root)
	rn := runner.New(st)
	proposed := facts.Task{Slug: "new-work", Tier: "deep", Complexity: "complex", Specs: []string{}, Adapts: []string{}, Status: "proposed"}
	gather := func() *facts.Document {
		ns := rn.Gather(ctx, renarrunner.NewScope(root, facts.Request{Trigger: "task-done"}))
		if ns.Status != facts.StatusOK {
			b.Fatal(ns.Reason)
		}
		doc := facts.NewDocument()
		doc.Set(runner.Namespace, ns)
		doc.Set("task", facts.OK(facts.TaskFacts{Slug: proposed.Slug, Found: true, Task: &proposed, Active: []facts.Task{}}))
		doc.Set(NamespaceRequest, facts.OK(facts.Request{Trigger: "task-done"}))
		return doc
	}
	b.Run("runner", func(b *testing.B) {
		for b.Loop() {
			gather()
		}
	})
	b.Run("runner+gates", func(b *testing.B) {
		for b.Loop() {
			doc := gather()
			in := policy.NewDocumentInput(doc, nil)
			for _, n := range renarGates {
				g, _ := e.Gate(n)
				eff, _ := e.Effective(n)
				if v, _ := evalGate(ctx, g, g.Severity, eff.Params, in, doc); v.Outcome != Failed && v.Outcome != Passed {
					b.Fatalf("%s: %s %+v", n, v.Outcome, v.Reasons)
				}
			}
		}
	})
}
