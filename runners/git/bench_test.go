package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// benchRepo is a 600-module Python repository in the state a commit gate
// meets: two commits, a few files modified (one staged), one renamed, a few
// untracked. Committed files are an hour old, so git's racy-index check does
// not make every run re-read them.
func benchRepo(b *testing.B) *repo {
	b.Helper()
	r := newRepo(b)
	old := time.Now().Add(-time.Hour)
	for i := range 600 {
		rel := fmt.Sprintf("pkg%02d/mod%04d.py", i%24, i)
		r.write(rel, fmt.Sprintf("\"\"\"Module %d.\"\"\"\n\n\ndef f(x):\n    return x + %d\n", i, i))
		if err := os.Chtimes(filepath.Join(r.root, filepath.FromSlash(rel)), old, old); err != nil {
			b.Fatal(err)
		}
	}
	r.commitAt("base", t0)
	for i := range 3 {
		r.write(fmt.Sprintf("pkg%02d/mod%04d.py", i%24, i), fmt.Sprintf("\"\"\"Module %d, second.\"\"\"\n", i))
	}
	r.commitAt("second", t0.Add(time.Hour))
	r.write("pkg05/mod0005.py", "\"\"\"Module 5.\"\"\"\n\nEDITED = True\n")
	r.write("pkg06/mod0006.py", "\"\"\"Module 6.\"\"\"\n\nSTAGED = True\n")
	r.git("add", "pkg06/mod0006.py")
	r.git("mv", "pkg07/mod0007.py", "pkg07/renamed.py")
	for i := range 3 {
		r.write(fmt.Sprintf("new/untracked%d.py", i), strings.Repeat("x = 1\n", 10))
	}
	return r
}

// BenchmarkGather is one warm Gather of the git namespace on benchRepo:
// without a since point, since a time (the first commit is the base) and
// since a ref.
func BenchmarkGather(b *testing.B) {
	r := benchRepo(b)
	for _, c := range []struct{ name, since string }{
		{"plain", ""},
		{"since_time", t0.Add(30 * time.Minute).Format(time.RFC3339)},
		{"since_ref", "main~1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			run := New()
			s := runners.NewScope(r.root, facts.Request{ChangedSince: c.since})
			for b.Loop() {
				if ns := run.Gather(context.Background(), s); ns.Status != facts.StatusOK {
					b.Fatalf("status %s: %s", ns.Status, ns.Reason)
				}
			}
		})
	}
}
