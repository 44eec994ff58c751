// Package renar is the runner of the "renar" namespace: every SPEC and
// ADAPT under renar/ with its fields and the line of each, whether each file
// parsed, the finding headings of each ADAPT, what checking each signature
// found, and the task ↔ artifact links from all three places (the task's own
// specs/adapts, a SPEC's linked_tasks, an ADAPT's task links), with the
// linked tasks as the store holds them and when each was last verified.
//
// It observes; what is wrong with an artifact set is the RENAR policies'
// call. A file that does not parse is a fact (parsed false, the error and
// its line), never a runner failure.
package renar

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/artifacts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// Namespace is the key this runner's facts live under.
const Namespace = "renar"

// Facts is the "renar" namespace.
type Facts struct {
	// Present is false when the project has no renar/ directory: nothing
	// to judge, and every other list is empty.
	Present bool              `json:"present"`
	Files   []File            `json:"files"`
	Specs   []artifacts.Spec  `json:"specs"`
	Adapts  []artifacts.Adapt `json:"adapts"`
	// KeyProblems lists the key files under renar/keys/ that could not be
	// read; the signatures naming them do not check.
	KeyProblems []string `json:"key_problems"`
	Links       []Link   `json:"links"`
	// Tasks are the tasks some link names, sorted by slug. TasksError is
	// set (and Tasks empty) when the store could not be read.
	Tasks      []Task `json:"tasks"`
	TasksError string `json:"tasks_error"`
}

// File is one artifact file and whether it parsed. Error and Line locate
// what is wrong with one that did not.
type File struct {
	File   string `json:"file"`
	Kind   string `json:"kind"`
	Parsed bool   `json:"parsed"`
	Error  string `json:"error"`
	Line   int    `json:"line"`
}

// Link is one task ↔ artifact link and the place it is recorded: "task"
// (the task record), "spec" (linked_tasks) or "adapt" (links).
type Link struct {
	Task       string `json:"task"`
	TargetSlug string `json:"target_slug"`
	TargetType string `json:"target_type"`
	Via        string `json:"via"`
	File       string `json:"file"`
	Line       int    `json:"line"`
}

// Task is a linked task as the task facts show it, Found false when the
// store has no such task. VerifiedAt is its latest green verify run's time,
// "" when it has none; VerifiedNS and DoneNS are it and done_at in Unix
// nanoseconds, null when absent.
type Task struct {
	facts.Task
	Found      bool   `json:"found"`
	VerifiedAt string `json:"verified_at"`
	VerifiedNS *int64 `json:"verified_ns"`
	DoneNS     *int64 `json:"done_ns"`
}

// Runner fills the "renar" namespace.
type Runner struct{ st *store.Store }

// New returns the runner, reading tasks and verify runs from st (nil: the
// artifacts are read, and tasks_error says the tasks could not be).
func New(st *store.Store) *Runner { return &Runner{st: st} }

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	out := Facts{Files: []File{}, Specs: []artifacts.Spec{}, Adapts: []artifacts.Adapt{}, KeyProblems: []string{}, Links: []Link{}, Tasks: []Task{}}
	info, err := os.Stat(filepath.Join(s.Root, artifacts.Dir))
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && !info.IsDir():
		return facts.OK(out)
	case err != nil:
		return facts.Error(fmt.Sprintf("read %s/: %v", artifacts.Dir, err))
	}
	out.Present = true
	ring, problems := artifacts.LoadKeyring(s.Root)
	out.KeyProblems = append(out.KeyProblems, problems...)
	for _, kind := range []string{artifacts.KindSpec, artifacts.KindAdapt} {
		if err := read(s.Root, kind, ring, &out); err != nil {
			return facts.Error(err.Error())
		}
	}
	if err := r.tasks(ctx, &out); err != nil {
		out.Tasks, out.TasksError = []Task{}, err.Error()
	}
	return facts.OK(out)
}

// read parses every <dir>/*.md of kind into out.
func read(root, kind string, ring artifacts.Keyring, out *Facts) error {
	dir := artifacts.SpecsDir
	if kind == artifacts.KindAdapt {
		dir = artifacts.AdaptsDir
	}
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s/: %w", dir, err)
	}
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok {
			continue
		}
		rel := dir + "/" + e.Name()
		if e.IsDir() {
			return fmt.Errorf("read %s: a directory where an artifact file belongs", rel)
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		f := File{File: rel, Kind: kind, Line: 1, Parsed: true}
		var perr *artifacts.ParseError
		switch err := parse(kind, stem, rel, data, ring, out); {
		case errors.As(err, &perr):
			f.Parsed, f.Error, f.Line = false, perr.Msg, perr.Line
		case err != nil:
			return fmt.Errorf("read %s: %w", rel, err)
		}
		out.Files = append(out.Files, f)
	}
	return nil
}

// parseDoc splits an artifact file; a variable so a test can hand the
// runner an error that is not a *ParseError.
var parseDoc = artifacts.Parse

// parse reads one file into out. What is wrong with its text is a
// *artifacts.ParseError saying where; any other error is returned as it is,
// for the caller to fail the namespace on.
func parse(kind, stem, rel string, data []byte, ring artifacts.Keyring, out *Facts) error {
	d, err := parseDoc(rel, data)
	if err != nil {
		return err
	}
	if art := d.Get("artifact"); art != nil && art.Value != kind {
		return &artifacts.ParseError{File: rel, Line: d.KeyLine("artifact"), Msg: fmt.Sprintf("artifact is %q in %s/: want %q", art.Value, filepath.Dir(rel), kind)}
	}
	if kind == artifacts.KindSpec {
		sp, err := artifacts.ReadSpec(d)
		if err != nil {
			return err
		}
		if sp.Slug == "" {
			sp.Slug = stem
		}
		out.Specs = append(out.Specs, sp)
		for _, t := range sp.LinkedTasks {
			out.Links = append(out.Links, Link{Task: t, TargetSlug: sp.Slug, TargetType: artifacts.KindSpec, Via: artifacts.KindSpec, File: rel, Line: sp.Lines["linked_tasks"]})
		}
		return nil
	}
	a, err := artifacts.ReadAdapt(d)
	if err != nil {
		return err
	}
	if a.Slug == "" {
		a.Slug = stem
	}
	ring.Verify(d, &a)
	out.Adapts = append(out.Adapts, a)
	for _, l := range a.Links {
		if l.TargetType == "task" {
			out.Links = append(out.Links, Link{Task: l.TargetSlug, TargetSlug: a.Slug, TargetType: artifacts.KindAdapt, Via: artifacts.KindAdapt, File: rel, Line: l.Line})
		}
	}
	return nil
}

// tasks adds the links the task records hold and the tasks every link names.
func (r *Runner) tasks(ctx context.Context, out *Facts) error {
	if r.st == nil {
		return errors.New("no store is open: tasks and verify runs cannot be read")
	}
	all, err := r.st.ListTasks(ctx, "")
	if err != nil {
		return fmt.Errorf("read tasks: %w", err)
	}
	byslug := map[string]store.Task{}
	for _, t := range all {
		byslug[t.Slug] = t
		for _, sp := range t.Specs {
			out.Links = append(out.Links, Link{Task: t.Slug, TargetSlug: sp, TargetType: artifacts.KindSpec, Via: "task"})
		}
		for _, a := range t.Adapts {
			out.Links = append(out.Links, Link{Task: t.Slug, TargetSlug: a, TargetType: artifacts.KindAdapt, Via: "task"})
		}
	}
	named := map[string]bool{}
	for _, l := range out.Links {
		named[l.Task] = true
	}
	for slug := range named {
		st, ok := byslug[slug]
		if !ok {
			out.Tasks = append(out.Tasks, Task{Task: facts.Task{Slug: slug, ScopePaths: nil, Specs: []string{}, Adapts: []string{}, Files: []string{}}})
			continue
		}
		t := Task{Task: runners.FactsTask(st), Found: true}
		t.DoneNS = artifacts.UnixNS(t.DoneAt)
		runs, err := r.st.VerifyRuns(ctx, slug)
		if err != nil {
			return fmt.Errorf("read verify runs of %s: %w", slug, err)
		}
		for i := len(runs) - 1; i >= 0; i-- {
			if runs[i].Passed {
				t.VerifiedAt = runs[i].RanAt.UTC().Format(time.RFC3339Nano)
				t.VerifiedNS = artifacts.UnixNS(t.VerifiedAt)
				break
			}
		}
		out.Tasks = append(out.Tasks, t)
	}
	sort.Slice(out.Tasks, func(i, j int) bool { return out.Tasks[i].Slug < out.Tasks[j].Slug })
	return nil
}
