package workstate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/internal/canonjson"
)

// Tasks, their scopes and files are what the write guard judges an agent
// against, so they live in the verified log too: every change of a task row
// (start, scope, files, links, done, abandon) appends, in the same
// transaction, a log entry with trigger TriggerTaskState whose body records
// the task's resulting state. `log verify` then holds each task row to the
// state its latest entry records (VerifyTasks): a row edited, inserted or
// deleted by hand is a break naming the task.

// TriggerTaskState is the trigger of the log entries that record a task's
// state after a change.
const TriggerTaskState = "task-state"

// BreakTask: a task row differs from the state its latest log entry records,
// has no entry, or is gone while its entries remain.
const BreakTask BreakKind = "task_changed"

// Task changes, as a task-state entry names them.
const (
	ChangeStart    = "start"
	ChangeUpdate   = "update" // scope, files, links or other declarations
	ChangeDone     = "done"
	ChangeAbandon  = "abandon"
	ChangeRecorded = "recorded" // a task that existed when the log began recording task states
)

// TaskState is a task as a task-state entry records it: every column of its
// row. Fields are in sorted key order, so the entry's body is canonical JSON
// as written.
type TaskState struct {
	Adapts     []string  `json:"adapts"`
	CallBudget *int      `json:"call_budget"`
	Complexity string    `json:"complexity"`
	Delegated  bool      `json:"delegated"`
	DoneAt     string    `json:"done_at"`
	Files      []string  `json:"files"`
	Goal       string    `json:"goal"`
	Scope      *[]string `json:"scope_paths"` // null: no scope declared
	Slug       string    `json:"slug"`
	Specs      []string  `json:"specs"`
	StartedAt  string    `json:"started_at"`
	Status     string    `json:"status"`
	Tier       string    `json:"tier"`
}

// stateOf is t as a task-state entry records it.
func stateOf(t Task) TaskState {
	list := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	s := TaskState{Adapts: list(t.Adapts), CallBudget: t.CallBudget, Complexity: string(t.Complexity), Delegated: t.Delegated,
		Files: list(t.Files), Goal: t.Goal, Slug: t.Slug, Specs: list(t.Specs), StartedAt: formatTime(t.StartedAt),
		Status: string(t.Status), Tier: string(t.Tier)}
	if t.Scope != nil {
		scope := list(t.Scope)
		s.Scope = &scope
	}
	if !t.DoneAt.IsZero() {
		s.DoneAt = formatTime(t.DoneAt)
	}
	return s
}

// taskStateBody is a task-state entry's body: the columns every log entry
// mirrors (so the log's checks cover it like any decision), the change and
// the resulting state.
type taskStateBody struct {
	Blocked    bool              `json:"blocked"`
	Change     string            `json:"change"`
	DecisionID string            `json:"decision_id"`
	ExitCode   int               `json:"exit_code"`
	Gates      []json.RawMessage `json:"gates"`
	GitHead    string            `json:"git_head"`
	Request    struct {
		Task    string `json:"task"`
		Trigger string `json:"trigger"`
	} `json:"request"`
	Requester string    `json:"requester"`
	Schema    string    `json:"schema"`
	TaskState TaskState `json:"task_state"`
	Time      string    `json:"time"`
}

type requesterKey struct{}

// WithRequester returns ctx carrying who asks for the task changes made
// with it ("cli", "mcp:<client>"…), which their task-state entries record;
// without it they record "tausik".
func WithRequester(ctx context.Context, requester string) context.Context {
	return context.WithValue(ctx, requesterKey{}, requester)
}

func requesterOf(ctx context.Context) string {
	if r, _ := ctx.Value(requesterKey{}).(string); r != "" {
		return r
	}
	return "tausik"
}

// appendTaskState appends the task-state entry recording t after change,
// inside the caller's write transaction.
func appendTaskState(ctx context.Context, q querier, clock func() time.Time, t Task, change string) error {
	at := clock().UTC()
	b := taskStateBody{Change: change, DecisionID: NewID(at), Gates: []json.RawMessage{}, Requester: requesterOf(ctx),
		Schema: "tausik-task-state/v1", TaskState: stateOf(t), Time: formatTime(at)}
	b.Request.Task, b.Request.Trigger = t.Slug, TriggerTaskState
	body, err := canonjson.Marshal(b)
	if err != nil {
		return fmt.Errorf("record task %s: %w", t.Slug, err)
	}
	rec, err := prepareDecision(Decision{ID: b.DecisionID, Time: at, Trigger: TriggerTaskState, Task: t.Slug,
		Requester: b.Requester, Gates: []GateVerdict{}, Body: body}, clock)
	if err != nil {
		return fmt.Errorf("record task %s: %w", t.Slug, err)
	}
	if _, err := appendRecord(ctx, q, rec); err != nil {
		return fmt.Errorf("record task %s: %w", t.Slug, err)
	}
	return nil
}

// backfillTaskStates records the state of every task of a log that did not
// record task states yet (schema version 5).
func backfillTaskStates(ctx context.Context, q querier) error {
	tasks, err := listTasks(ctx, q, "")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if err := appendTaskState(ctx, q, time.Now, t, ChangeRecorded); err != nil {
			return err
		}
	}
	return nil
}

// VerifyTasks holds every task row to the state its latest task-state
// entry records, in one read snapshot, and returns the first difference as
// a BreakTask (nil when every row agrees). Run it on a log that verified
// intact: the entries are only as good as the log.
func (s *Work) VerifyTasks(ctx context.Context) (*ChainBreak, error) {
	var b *ChainBreak
	err := s.read(ctx, func(q querier) error {
		var err error
		b, err = verifyTasks(ctx, q)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("verify tasks: %w", err)
	}
	return b, nil
}

// recordedState is the latest task-state entry of one task.
type recordedState struct {
	seq   int64
	id    string
	state TaskState
}

func verifyTasks(ctx context.Context, q querier) (*ChainBreak, error) {
	rows, err := q.QueryContext(ctx, "SELECT seq, id, task, body FROM decisions WHERE trigger = ? ORDER BY seq", TriggerTaskState)
	if err != nil {
		return nil, err
	}
	latest := map[string]recordedState{}
	var order []string
	for rows.Next() {
		var r recordedState
		var task, body string
		if err := rows.Scan(&r.seq, &r.id, &task, &body); err != nil {
			rows.Close()
			return nil, err
		}
		var b taskStateBody
		if err := json.Unmarshal([]byte(body), &b); err != nil || b.TaskState.Slug != task {
			rows.Close()
			return &ChainBreak{Kind: BreakTask, Seq: r.seq, ID: r.id, Detail: fmt.Sprintf("task %s: the entry records no task state", task)}, nil
		}
		r.state = b.TaskState
		if _, seen := latest[task]; !seen {
			order = append(order, task)
		}
		latest[task] = r
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tasks, err := listTasks(ctx, q, "")
	if err != nil {
		return &ChainBreak{Kind: BreakTask, Detail: fmt.Sprintf("a task row cannot be read: %v", err)}, nil
	}
	present := map[string]bool{}
	for _, t := range tasks {
		present[t.Slug] = true
		r, ok := latest[t.Slug]
		if !ok {
			return &ChainBreak{Kind: BreakTask, Detail: fmt.Sprintf("task %s is in the tasks table but no log entry records it: it was inserted by hand", t.Slug)}, nil
		}
		if field := stateDiff(stateOf(t), r.state); field != "" {
			return &ChainBreak{Kind: BreakTask, Seq: r.seq, ID: r.id, Column: field,
				Detail: fmt.Sprintf("task %s: its row differs from the state the log records at seq %d: edited by hand", t.Slug, r.seq)}, nil
		}
	}
	for _, slug := range order {
		if !present[slug] {
			r := latest[slug]
			return &ChainBreak{Kind: BreakTask, Seq: r.seq, ID: r.id,
				Detail: fmt.Sprintf("task %s is recorded in the log but its row is gone: deleted by hand", slug)}, nil
		}
	}
	return nil, nil
}

// stateDiff names the first field in which got differs from want, "" when
// none does.
func stateDiff(got, want TaskState) string {
	eqList := func(a, b []string) bool { return slices.Equal(a, b) }
	switch {
	case got.Scope == nil != (want.Scope == nil) || (got.Scope != nil && !eqList(*got.Scope, *want.Scope)):
		return "scope_paths"
	case !eqList(got.Files, want.Files):
		return "files"
	case got.Status != want.Status:
		return "status"
	case got.Delegated != want.Delegated:
		return "delegated"
	case got.CallBudget == nil != (want.CallBudget == nil) || (got.CallBudget != nil && *got.CallBudget != *want.CallBudget):
		return "call_budget"
	case got.Tier != want.Tier:
		return "tier"
	case got.Complexity != want.Complexity:
		return "complexity"
	case got.Goal != want.Goal:
		return "goal"
	case !eqList(got.Specs, want.Specs):
		return "specs"
	case !eqList(got.Adapts, want.Adapts):
		return "adapts"
	case got.StartedAt != want.StartedAt:
		return "started_at"
	case got.DoneAt != want.DoneAt:
		return "done_at"
	}
	return ""
}
