package policytest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/yamlread"
	"github.com/tausik/tausik/store"
)

// A case's store: section seeds the tree's in-memory store, so a workflow
// gate's fixture holds real tasks and verify runs:
//
//	store:
//	  tasks:
//	    - slug: impl-login        # required
//	      tier: deep              # default standard
//	      complexity: complex     # default medium
//	      specs: [login]
//	      adapts: []
//	      started_at: "2026-01-01T00:00:00Z"  # default: the case time
//	      status: done            # active (default), done or abandoned
//	      done_at: "2026-01-02T00:00:00Z"     # default: started_at; null = no date
//	  verify_runs:
//	    - task: impl-login        # required
//	      ran_at: "2026-01-01T12:00:00Z"      # required
//	      passed: true            # default true
//
// Tasks are created first, then the runs recorded, then the tasks closed, so
// a run may be dated before or after its task's close.

// seedTask is one task of a store: section.
type seedTask struct {
	task    store.Task
	started time.Time
	status  store.TaskStatus
	done    time.Time
}

// parseStoreSeed reads a store: section (nil n: no seed). Problems are
// diagnostics on r, and make the case fail to load.
func parseStoreSeed(r yamlread.Reader, n *yaml.Node, caseTime string) engine.FixtureSeed {
	if n == nil {
		return nil
	}
	def, _ := time.Parse(time.RFC3339Nano, caseTime)
	f := r.Fields(n, "store", "tasks", "verify_runs")
	return seedStore(parseSeedTasks(r, f["tasks"], def), parseSeedRuns(r, f["verify_runs"], def), def)
}

// seedTime reads the time v (RFC 3339; null for the zero time), fallback
// when v is absent.
func seedTime(r yamlread.Reader, v *yaml.Node, what string, fallback time.Time) time.Time {
	if v == nil {
		return fallback
	}
	if v.Tag == "!!null" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, r.Str(v, what))
	if err != nil {
		r.D.Add(r.File, v.Line, "%s: want an RFC 3339 time, got %q", what, v.Value)
	}
	return t
}

// parseSeedTasks reads store.tasks: each task's fields, status and the
// times it started and closed (def, the case's time, by default).
func parseSeedTasks(r yamlread.Reader, n *yaml.Node, def time.Time) []seedTask {
	var tasks []seedTask
	for _, tn := range seq(r, n, "store.tasks") {
		tf := r.Fields(tn, "store.tasks[]", "slug", "tier", "complexity", "specs", "adapts", "started_at", "status", "done_at")
		r.Require(tn, tf, "store.tasks[]", "slug")
		st := seedTask{task: store.Task{Slug: r.Str(tf["slug"], "slug"), Goal: "fixture task", Tier: store.TierStandard,
			Complexity: store.ComplexityMedium, Specs: r.Strs(tf["specs"], "specs"), Adapts: r.Strs(tf["adapts"], "adapts")}, status: store.TaskActive}
		if tf["tier"] != nil {
			st.task.Tier = store.Tier(r.Str(tf["tier"], "tier"))
		}
		if tf["complexity"] != nil {
			st.task.Complexity = store.Complexity(r.Str(tf["complexity"], "complexity"))
		}
		if tf["status"] != nil {
			st.status = store.TaskStatus(r.Str(tf["status"], "status"))
			if !slices.Contains([]store.TaskStatus{store.TaskActive, store.TaskDone, store.TaskAbandoned}, st.status) {
				r.D.Add(r.File, tf["status"].Line, "store.tasks[].status %q is not active, done or abandoned", st.status)
			}
		}
		st.started = seedTime(r, tf["started_at"], "started_at", def)
		st.done = seedTime(r, tf["done_at"], "done_at", st.started)
		tasks = append(tasks, st)
	}
	return tasks
}

// parseSeedRuns reads store.verify_runs: each run's task, time and
// outcome.
func parseSeedRuns(r yamlread.Reader, n *yaml.Node, def time.Time) []store.VerifyRun {
	var runs []store.VerifyRun
	for _, rn := range seq(r, n, "store.verify_runs") {
		rf := r.Fields(rn, "store.verify_runs[]", "task", "ran_at", "passed")
		r.Require(rn, rf, "store.verify_runs[]", "task", "ran_at")
		run := store.VerifyRun{Task: r.Str(rf["task"], "task"), Passed: true, FilesHash: "sha256:fixture", GateSignature: "sha256:fixture"}
		if rf["ran_at"] != nil {
			run.RanAt = seedTime(r, rf["ran_at"], "ran_at", def)
		}
		if rf["passed"] != nil {
			run.Passed = r.Bool(rf["passed"], "passed")
		}
		if !run.Passed {
			run.ExitCode = 1
		}
		runs = append(runs, run)
	}
	return runs
}

// seedStore is the seed that creates tasks, records runs and closes the
// tasks that are done or abandoned, each at its time, then sets the clock
// back to def.
func seedStore(tasks []seedTask, runs []store.VerifyRun, def time.Time) engine.FixtureSeed {
	return func(ctx context.Context, st *store.Store, setClock func(time.Time)) error {
		for _, t := range tasks {
			setClock(t.started)
			if _, err := st.CreateTask(ctx, t.task); err != nil {
				return fmt.Errorf("task %s: %w", t.task.Slug, err)
			}
		}
		for _, run := range runs {
			if _, err := st.RecordVerifyRun(ctx, run); err != nil {
				return fmt.Errorf("verify run of %s: %w", run.Task, err)
			}
		}
		for _, t := range tasks {
			setClock(t.done)
			var err error
			switch t.status {
			case store.TaskDone:
				_, err = st.MarkTaskDone(ctx, t.task.Slug)
			case store.TaskAbandoned:
				_, err = st.AbandonTask(ctx, t.task.Slug)
			}
			if err != nil {
				return fmt.Errorf("close task %s: %w", t.task.Slug, err)
			}
		}
		setClock(def)
		return nil
	}
}

// seq returns a list node's items; anything else is a diagnostic.
func seq(r yamlread.Reader, n *yaml.Node, what string) []*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.D.Add(r.File, n.Line, "%s must be a list", what)
		return nil
	}
	return n.Content
}
