// Package taskflow is the task workflows of the application layer: starting
// a task, declaring its files and scope, verifying it with a signed
// receipt and closing it, each judged by the gates of its trigger and
// written only when nothing blocks.
package taskflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/treestate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
)

// flowAttempts bounds how often a flow re-judges a request whose workflow
// state changed between the evaluation and the write it allows.
const flowAttempts = 3

// errStale is returned inside a flow's transaction when the state it was
// judged on changed; the flow evaluates again.
var errStale = errors.New("workflow state changed while it was judged")

// Default tier and complexity of a task that declares none.
const (
	DefaultTier       = store.TierStandard
	DefaultComplexity = store.ComplexityMedium
)

// StartRequest asks to start a task. Task carries what the task declares
// (slug, goal, scope, tier, complexity, delegation, budget, links, files);
// its status and times are the store's. Files may be absolute or relative to
// the project root; they are stored repo-relative.
type StartRequest struct {
	Task      store.Task
	Requester string
}

// Outcome is what a task flow did. When Blocked, a gate refused and
// nothing changed: Task is the task as proposed (Start) or as it still
// is (Done). Decision is the logged decision the flow acted on.
type Outcome struct {
	Task     store.Task
	Decision *engine.Decision
	Blocked  bool
}

// Start judges the task-start gates over the proposed task and creates it
// only if nothing blocks: a blocked start leaves no task behind, and of two
// concurrent starts of one slug exactly one creates it. The gates see the
// proposed task in the task facts; if the active tasks or the open session
// change between the evaluation and the creation, the start is judged again.
//
// Errors: ErrUsage for a malformed or already existing task, ErrStore when the
// store fails or the decision cannot be logged (then the outcome still
// carries the decision, and no task is created).
func Start(ctx context.Context, e *engine.Engine, req StartRequest) (*Outcome, error) {
	st, err := needStore(e)
	if err != nil {
		return nil, err
	}
	t, err := proposeTask(e.Root(), req.Task)
	if err != nil {
		return nil, err
	}
	if old, err := st.GetTask(ctx, t.Slug); err == nil {
		return nil, fmt.Errorf("%w: task %s already exists (%s since %s); pick another slug",
			diag.ErrUsage, t.Slug, old.Status, old.StartedAt.UTC().Format(time.RFC3339))
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, engine.StoreErr(err)
	}
	for range flowAttempts {
		before, err := startState(st.ActiveTasks(ctx))
		if err != nil {
			return nil, engine.StoreErr(err)
		}
		sessBefore := sessionKey(st.OpenSession(ctx))
		dec, err := e.Evaluate(ctx, engine.Request{Trigger: engine.TriggerTaskStart, Task: t.Slug, Proposed: &t, Requester: req.Requester})
		out := &Outcome{Task: t, Decision: dec}
		if err != nil {
			return out, err
		}
		if dec.Blocked {
			out.Blocked = true
			return out, nil
		}
		tree, err := recordTree(ctx, e.Root(), t)
		if err != nil {
			return out, err
		}
		err = st.WithTx(ctx, func(tx *store.Tx) error {
			now, err := startState(tx.ActiveTasks(ctx))
			if err != nil {
				return err
			}
			if now != before || sessionKey(tx.OpenSession(ctx)) != sessBefore {
				return errStale
			}
			if out.Task, err = tx.CreateTask(recording(ctx, e, req.Requester), t); err != nil || tree == "" {
				return err
			}
			return tx.PutTaskTree(ctx, t.Slug, tree)
		})
		switch {
		case errors.Is(err, errStale):
			continue
		case errors.Is(err, store.ErrTaskExists):
			return nil, fmt.Errorf("%w: task %s was started by someone else meanwhile", diag.ErrUsage, t.Slug)
		case err != nil:
			return out, engine.StoreErr(err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: the active tasks or the session kept changing while task %s was judged; try again", diag.ErrStore, t.Slug)
}

// proposeTask checks and normalises a task to start.
func proposeTask(root string, t store.Task) (store.Task, error) {
	if !store.ValidSlug(t.Slug) {
		return t, fmt.Errorf("%w: task slug %q: use 1-64 of a-z 0-9 . _ -, starting with a letter or digit", diag.ErrUsage, t.Slug)
	}
	if t.Tier == "" {
		t.Tier = DefaultTier
	}
	if t.Complexity == "" {
		t.Complexity = DefaultComplexity
	}
	if !t.Tier.Valid() {
		return t, fmt.Errorf("%w: tier %q is not one of lightweight, standard, substantial, deep", diag.ErrUsage, t.Tier)
	}
	if !t.Complexity.Valid() {
		return t, fmt.Errorf("%w: complexity %q is not one of simple, medium, complex", diag.ErrUsage, t.Complexity)
	}
	if t.CallBudget != nil && *t.CallBudget < 0 {
		return t, fmt.Errorf("%w: call budget %d is negative", diag.ErrUsage, *t.CallBudget)
	}
	files, err := repoPaths(root, t.Files)
	if err != nil {
		return t, err
	}
	if files != nil {
		files = work.NormalizeFiles(files)
	}
	t.Files = files
	t.Status, t.StartedAt, t.DoneAt = "", time.Time{}, time.Time{}
	return t, nil
}

// repoPaths turns paths (absolute, or relative to the root) into clean
// repo-relative paths, refusing any outside the project.
func repoPaths(root string, paths []string) ([]string, error) {
	if paths == nil {
		return nil, nil
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%w: empty file path", diag.ErrUsage)
		}
		rel, ok := engine.Relative(root, p)
		if !ok || rel == "." {
			return nil, fmt.Errorf("%w: %s is not a file inside the project %s", diag.ErrUsage, p, root)
		}
		out = append(out, rel)
	}
	return out, nil
}

// startState is the part of the workflow state task-start gates combine:
// the active tasks and their budgets.
func startState(active []store.Task, err error) (string, error) {
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, t := range active {
		budget := "-"
		if t.CallBudget != nil {
			budget = fmt.Sprint(*t.CallBudget)
		}
		fmt.Fprintf(&b, "%s:%s;", t.Slug, budget)
	}
	return b.String(), nil
}

// sessionKey identifies the open session ("" for none, "?" when unreadable,
// which never equals a later reading).
func sessionKey(s store.Session, err error) string {
	switch {
	case errors.Is(err, store.ErrNoOpenSession):
		return ""
	case err != nil:
		return "?" + err.Error()
	}
	return s.ID
}

// GateChangelog is the gate --no-changelog (and MCP's no_changelog) waives.
const GateChangelog = "changelog"

// DoneRequest asks to close a task.
type DoneRequest struct {
	Slug string
	// Bypass names gates the requester waives on purpose (--no-changelog is
	// GateChangelog); the decision records it.
	Bypass []string
	// ChangedSince overrides the git "since" point (default: the task's start).
	ChangedSince string
	Requester    string
}

// Done judges the task-done gates for an active task, with its declared
// files in scope (the whole project when it declares none) and git history
// since its start, and marks it done only if nothing blocks. If a verify run
// is recorded for the task between the evaluation and the close, the close
// is judged again, so it never rests on a run that is no longer the latest.
//
// Errors: ErrUsage for an unknown or closed task, ErrStore as for Start.
func Done(ctx context.Context, e *engine.Engine, req DoneRequest) (*Outcome, error) {
	st, err := needStore(e)
	if err != nil {
		return nil, err
	}
	t, err := st.GetTask(ctx, req.Slug)
	if err != nil {
		return nil, engine.StoreErr(err)
	}
	if t.Status != store.TaskActive {
		return nil, fmt.Errorf("%w: task %s is already %s", diag.ErrUsage, t.Slug, t.Status)
	}
	since := req.ChangedSince
	if since == "" {
		since = t.StartedAt.UTC().Format(time.RFC3339Nano)
	}
	for range flowAttempts {
		runBefore, err := latestRunID(st.LatestVerifyRun(ctx, t.Slug))
		if err != nil {
			return nil, engine.StoreErr(err)
		}
		dec, err := e.Evaluate(ctx, engine.Request{
			Trigger: engine.TriggerTaskDone, Task: t.Slug, Files: t.Files, Bypass: req.Bypass,
			ChangedSince: since, Requester: req.Requester,
		})
		out := &Outcome{Task: t, Decision: dec}
		if err != nil {
			return out, err
		}
		if dec.Blocked {
			out.Blocked = true
			return out, nil
		}
		err = st.WithTx(ctx, func(tx *store.Tx) error {
			now, err := latestRunID(tx.LatestVerifyRun(ctx, t.Slug))
			if err != nil {
				return err
			}
			if now != runBefore {
				return errStale
			}
			out.Task, err = tx.MarkTaskDone(recording(ctx, e, req.Requester), t.Slug)
			return err
		})
		switch {
		case errors.Is(err, errStale):
			continue
		case err != nil:
			return out, engine.StoreErr(err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: verify runs kept being recorded while task %s was judged; try again", diag.ErrStore, t.Slug)
}

// recording is ctx for a task change, whose task-state log entry records
// requester (the engine's own when empty).
func recording(ctx context.Context, e *engine.Engine, requester string) context.Context {
	if requester == "" {
		requester = e.Requester()
	}
	return store.WithRequester(ctx, requester)
}

// latestRunID is the id of the latest verify run, 0 when there is none.
func latestRunID(run store.VerifyRun, err error) (int64, error) {
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return run.ID, err
}

// AddFiles declares more files (absolute or relative to the root) for an
// active task: what verify certifies and verify_first compares. A file
// already declared is not repeated. ErrUsage for an unknown or closed task.
func AddFiles(ctx context.Context, e *engine.Engine, slug string, paths []string) (store.Task, error) {
	st, err := needStore(e)
	if err != nil {
		return store.Task{}, err
	}
	if len(paths) == 0 {
		return store.Task{}, fmt.Errorf("%w: name at least one file", diag.ErrUsage)
	}
	rel, err := repoPaths(e.Root(), paths)
	if err != nil {
		return store.Task{}, err
	}
	t, err := st.UpdateTask(recording(ctx, e, ""), slug, func(t *store.Task) error {
		t.Files = work.NormalizeFiles(append(t.Files, rel...))
		return nil
	})
	return t, engine.StoreErr(err)
}

// AddScope widens an active task's declared scope with patterns (the
// scope_write pattern language). A task that declared no scope gets one,
// which from then on limits its writes. A pattern already declared is not
// repeated. ErrUsage for an unknown or closed task or an empty pattern.
func AddScope(ctx context.Context, e *engine.Engine, slug string, patterns []string) (store.Task, error) {
	st, err := needStore(e)
	if err != nil {
		return store.Task{}, err
	}
	if len(patterns) == 0 {
		return store.Task{}, fmt.Errorf("%w: name at least one pattern", diag.ErrUsage)
	}
	for _, p := range patterns {
		if strings.TrimSpace(p) == "" {
			return store.Task{}, fmt.Errorf("%w: empty scope pattern", diag.ErrUsage)
		}
	}
	t, err := st.UpdateTask(recording(ctx, e, ""), slug, func(t *store.Task) error {
		scope := slices.Clone(t.Scope)
		if scope == nil {
			scope = []string{}
		}
		for _, p := range patterns {
			if !slices.Contains(scope, p) {
				scope = append(scope, p)
			}
		}
		t.Scope = scope
		return nil
	})
	if err != nil {
		return t, engine.StoreErr(err)
	}
	// A task that declares its first scope now is judged from now on: what
	// it changed before is as unknown as another task's work.
	tree, err := recordTree(ctx, e.Root(), t)
	if err != nil {
		return t, err
	}
	return t, engine.StoreErr(st.PutTaskTree(ctx, t.Slug, tree))
}

// recordTree takes the work tree's state for a task that declares a scope
// ("" for one that does not: it has nothing to be judged against). A tree
// that cannot be read refuses the start (ErrStore): a scoped task without a
// record could change anything unseen.
func recordTree(ctx context.Context, root string, t store.Task) (string, error) {
	if t.Scope == nil {
		return "", nil
	}
	s, err := treestate.Record(ctx, root, runners.GitEnv())
	if err != nil {
		return "", fmt.Errorf("%w: record the work tree for task %s's scope: %v", diag.ErrStore, t.Slug, err)
	}
	return s.Encode(), nil
}

// needStore returns e's store, or ErrStore when it was opened without one.
func needStore(e *engine.Engine) (*store.Store, error) {
	if st := e.Store(); st != nil {
		return st, nil
	}
	return nil, fmt.Errorf("%w: this engine was opened without a store", diag.ErrStore)
}
