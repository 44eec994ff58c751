package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/policies"
)

// projectTree is a repository with a 300-line file and a scaffolded team gate.
func projectTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "big.py", strings.Repeat("x = 1\n", 300))
	if _, err := gate.Scaffold(root, "mygate", "rego", policies.FS); err != nil {
		t.Fatal(err)
	}
	return root
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, root string, opts ...Option) *Source {
	t.Helper()
	env := func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}
	s, err := Open(context.Background(), project.Setup{Root: root, Getenv: env, Requester: "test"}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// outcome evaluates gate at commit through the source's current engine.
func outcome(t *testing.T, s *Source, gate string) (string, *engine.Decision) {
	t.Helper()
	e, _, err := s.Engine(context.Background())
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	d, err := e.Evaluate(context.Background(), engine.Request{Trigger: "commit", Gates: []string{gate}})
	if err != nil {
		t.Fatal(err)
	}
	return d.Gates[0].Outcome, d
}

func TestReloadSeesConfigAndTeamPolicyChanges(t *testing.T) {
	root := projectTree(t)
	s := open(t, root)
	if got, _ := outcome(t, s, "filesize"); got != engine.Passed {
		t.Fatalf("300 lines under the default 500: %s", got)
	}
	e0, _, _ := s.Engine(context.Background())

	write(t, root, "tausik/gates.json", `{"gates": {"filesize": {"params": {"max_lines": 100}}}}`)
	got, tight := outcome(t, s, "filesize")
	if got != engine.Failed {
		t.Fatalf("tightened to 100 lines: %s", got)
	}
	write(t, root, "tausik/gates.json", `{"gates": {"filesize": {"params": {"max_lines": 400}}}}`)
	got, loose := outcome(t, s, "filesize")
	if got != engine.Passed {
		t.Fatalf("loosened to 400 lines: %s", got)
	}
	if tight.ConfigDigest == loose.ConfigDigest || !strings.HasPrefix(tight.ConfigDigest, "sha256:") {
		t.Errorf("decisions name the config they used: %q vs %q", tight.ConfigDigest, loose.ConfigDigest)
	}

	if got, _ := outcome(t, s, "mygate"); got != engine.Passed {
		t.Fatalf("team gate as scaffolded: %s", got)
	}
	pol := filepath.Join(root, "tausik/policies/mygate/policy.rego")
	orig, _ := os.ReadFile(pol)
	write(t, root, "tausik/policies/mygate/policy.rego", strings.Replace(string(orig), "f.size > input.params.max_bytes", "f.size > 10", 1))
	got, d := outcome(t, s, "mygate")
	if got != engine.Failed {
		t.Fatalf("team policy edited to flag files over 10 bytes: %s", got)
	}
	write(t, root, "tausik/policies/mygate/policy.rego", string(orig))
	got, d2 := outcome(t, s, "mygate")
	if got != engine.Passed || d.Gates[0].PolicyDigest == d2.Gates[0].PolicyDigest {
		t.Fatalf("team policy restored: %s (policy digests %s, %s)", got, d.Gates[0].PolicyDigest, d2.Gates[0].PolicyDigest)
	}
	if e0 == nil || s.Reloads() != 4 {
		t.Errorf("reloads = %d, want one per change (4)", s.Reloads())
	}
}

func TestTouchedButUnchangedDoesNotRebuild(t *testing.T) {
	root := projectTree(t)
	s := open(t, root)
	e1, _, _ := s.Engine(context.Background())
	p := filepath.Join(root, "tausik/policies/mygate/gate.yaml")
	b, _ := os.ReadFile(p)
	write(t, root, "tausik/policies/mygate/gate.yaml", string(b)) // new mtime, same bytes
	e2, _, _ := s.Engine(context.Background())
	if e1 != e2 || s.Reloads() != 0 {
		t.Errorf("same content rebuilt the engine (reloads %d)", s.Reloads())
	}
}

func TestBrokenConfigIsAnErrorNotTheOldPolicy(t *testing.T) {
	root := projectTree(t)
	s := open(t, root)
	outcome(t, s, "filesize")
	write(t, root, "tausik/gates.json", "{\n  \"gates\": {\n    \"filesize\": {\"params\": {\"max_lines\": }}\n  }\n}\n")
	e, _, err := s.Engine(context.Background())
	if e != nil || !errors.Is(err, ErrReload) || !strings.Contains(err.Error(), "tausik/gates.json:3") {
		t.Fatalf("broken config: engine %v, err %v", e != nil, err)
	}
	if _, _, err := s.Engine(context.Background()); err == nil {
		t.Fatal("the second call after the break answered from an engine")
	}
	write(t, root, "tausik/policies/mygate/policy.rego", "package tausik.gates.mygate\n\nviolations contains v if {\n")
	write(t, root, "tausik/gates.json", `{"gates": {}}`)
	if _, _, err := s.Engine(context.Background()); !errors.Is(err, ErrReload) || !strings.Contains(err.Error(), "mygate") {
		t.Fatalf("broken team policy: %v", err)
	}
	os.RemoveAll(filepath.Join(root, "tausik/policies/mygate"))
	if got, _ := outcome(t, s, "filesize"); got != engine.Passed {
		t.Errorf("fixed: %s", got)
	}
}

func TestReplacedBinaryIsReported(t *testing.T) {
	root := projectTree(t)
	exe := filepath.Join(t.TempDir(), "tausik")
	write(t, filepath.Dir(exe), "tausik", "binary one")
	s := open(t, root, WithExecutable(exe))
	if _, notes, _ := s.Engine(context.Background()); len(notes) != 0 {
		t.Fatalf("notices before any change: %v", notes)
	}
	// A rebuild that writes the same bytes to a new file is not a replacement.
	replace(t, exe, "binary one")
	if _, notes, _ := s.Engine(context.Background()); len(notes) != 0 {
		t.Fatalf("same bytes reported as replaced: %v", notes)
	}
	replace(t, exe, "binary two")
	_, notes, err := s.Engine(context.Background())
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "restart the host's MCP server") || !strings.Contains(notes[0], exe) {
		t.Fatalf("replaced binary: notes %v, err %v", notes, err)
	}
	if _, notes, _ := s.Engine(context.Background()); len(notes) != 1 {
		t.Fatalf("the notice goes on until a restart: %v", notes)
	}
}

// replace puts body at path as a new file renamed over the old, as an
// install does.
func replace(t *testing.T, path, body string) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkEngineUnchanged is the price of the staleness check a tool call
// pays when nothing changed: a stat per config tier and per team bundle file
// (the scaffolded team gate: 7 entries), and of the binary.
func BenchmarkEngineUnchanged(b *testing.B) {
	root := b.TempDir()
	if _, err := gate.Scaffold(root, "mygate", "rego", policies.FS); err != nil {
		b.Fatal(err)
	}
	s, err := Open(context.Background(), project.Setup{Root: root, Getenv: func(string) string { return "" }, NoStore: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		if _, _, err := s.Engine(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDigestDoesNotBlockOnAFIFO: a FIFO in the watched tree (an agent's
// mkfifo tausik/gates.json) is hashed as unreadable instead of blocking the
// MCP server's reload check forever.
func TestDigestDoesNotBlockOnAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gates.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { done <- digest([]stamp{{path: p}}) }()
	got := <-done
	if got == digest([]stamp{{path: p, gone: true}}) || got == "" {
		t.Fatalf("a FIFO digests as %q", got)
	}
}

// An edit that keeps the size and puts the mtime back (touch -r, cp -p,
// rsync -a, tar x) is still seen: the file's ctime moved.
func TestEditKeepingSizeAndMtimeIsSeen(t *testing.T) {
	root := projectTree(t)
	write(t, root, "tausik/gates.json", `{"gates": {"filesize": {"params": {"max_lines": 400}}}}`)
	s := open(t, root)
	if got, _ := outcome(t, s, "filesize"); got != engine.Passed {
		t.Fatalf("300 lines under 400: %s", got)
	}
	path := filepath.Join(root, "tausik", "gates.json")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"gates": {"filesize": {"params": {"max_lines": 100}}}}`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(path); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the edit changed the size or mtime: %v", after)
	}
	if got, _ := outcome(t, s, "filesize"); got != engine.Failed {
		t.Fatalf("tightened to 100 lines in place, mtime restored: %s", got)
	}
}
