package renar

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gather(t *testing.T, st *store.Store, root string) Facts {
	t.Helper()
	ns := New(st).Gather(context.Background(), runners.NewScope(root, facts.Request{Trigger: "task-done"}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	return ns.Data.(Facts)
}

func TestGatherNoRenarDir(t *testing.T) {
	if f := gather(t, nil, t.TempDir()); f.Present || len(f.Files) != 0 {
		t.Errorf("got %+v, want not present", f)
	}
}

func TestGatherArtifactsLinksAndTasks(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "renar/specs/s1.md", "---\nartifact: spec\nslug: s1\ntype: API\nstatus: active\nversion: 1\n"+
		"updated_at: \"2026-01-10T00:00:00Z\"\nlinked_tasks: [t-spec]\n---\n# SPEC-API: From the heading\n")
	write(t, root, "renar/adapts/a1.md", "---\nartifact: adapt\nslug: a1\nstatus: draft\ndelta_n: 0\nparent_adapt: null\n"+
		"links:\n  - {target_slug: t-adapt, target_type: task}\n  - {target_slug: s1, target_type: spec}\n---\n### [gap] (s1)\n")
	write(t, root, "renar/specs/broken.md", "---\na: 1\ntitle: [x\n---\n")
	write(t, root, "renar/specs/notes.txt", "not an artifact\n")
	now := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	st, err := store.OpenMemory(ctx, store.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, slug := range []string{"t-spec", "t-adapt", "t-record"} {
		tk := store.Task{Slug: slug, Goal: "g", Tier: store.TierDeep, Complexity: store.ComplexitySimple}
		if slug == "t-record" {
			tk.Specs = []string{"s1"}
		}
		if _, err := st.CreateTask(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	for _, run := range []store.VerifyRun{
		{Task: "t-record", Passed: true, RanAt: now.Add(time.Hour), FilesHash: "h", GateSignature: "g"},
		{Task: "t-record", Passed: false, RanAt: now.Add(2 * time.Hour), FilesHash: "h", GateSignature: "g"},
	} {
		if _, err := st.RecordVerifyRun(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.MarkTaskDone(ctx, "t-spec"); err != nil {
		t.Fatal(err)
	}

	f := gather(t, st, root)
	if !f.Present || len(f.Files) != 3 || len(f.Specs) != 1 || len(f.Adapts) != 1 {
		t.Fatalf("files %+v specs %d adapts %d", f.Files, len(f.Specs), len(f.Adapts))
	}
	if b := f.Files[0]; b.File != "renar/specs/broken.md" || b.Parsed || b.Line != 3 || b.Error == "" {
		t.Errorf("broken file: %+v, want unparsed at line 3", b)
	}
	s := f.Specs[0]
	if s.Title != "From the heading" || s.TitleFrom != "heading" || s.Lines["title"] != 10 || s.Lines["type"] != 4 {
		t.Errorf("spec %+v", s)
	}
	if s.UpdatedNS == nil || *s.UpdatedNS != time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC).UnixNano() {
		t.Errorf("updated_ns %v", s.UpdatedNS)
	}
	via := map[string]string{}
	for _, l := range f.Links {
		via[l.Task] = l.Via + ":" + l.TargetSlug
	}
	want := map[string]string{"t-spec": "spec:s1", "t-adapt": "adapt:a1", "t-record": "task:s1"}
	for k, v := range want {
		if via[k] != v {
			t.Errorf("link of %s = %q, want %q (all: %+v)", k, via[k], v, f.Links)
		}
	}
	if len(f.Tasks) != 3 {
		t.Fatalf("tasks %+v", f.Tasks)
	}
	byslug := map[string]Task{}
	for _, tk := range f.Tasks {
		byslug[tk.Slug] = tk
	}
	if r := byslug["t-record"]; r.VerifiedAt != "2026-01-05T01:00:00Z" || r.VerifiedNS == nil || r.DoneNS != nil {
		t.Errorf("t-record: verified %q (the latest green run, not the red one after it), done %v", r.VerifiedAt, r.DoneNS)
	}
	if d := byslug["t-spec"]; d.Status != "done" || d.DoneNS == nil || d.VerifiedAt != "" || !d.Found {
		t.Errorf("t-spec: %+v", d)
	}
}

func TestGatherWithoutStore(t *testing.T) {
	root := t.TempDir()
	write(t, root, "renar/specs/s1.md", "---\nslug: s1\nlinked_tasks: [t1]\n---\n")
	f := gather(t, nil, root)
	if f.TasksError == "" || len(f.Specs) != 1 || f.Specs[0].Slug != "s1" {
		t.Errorf("got %+v, want the artifacts and a tasks error", f)
	}
}
