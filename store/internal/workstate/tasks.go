package workstate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// Tier is how much ceremony a task declares (docs/gates.md, workflow gates).
type Tier string

// The four tiers.
const (
	TierLightweight Tier = "lightweight"
	TierStandard    Tier = "standard"
	TierSubstantial Tier = "substantial"
	TierDeep        Tier = "deep"
)

// Valid reports whether t is one of the four tiers.
func (t Tier) Valid() bool {
	return t == TierLightweight || t == TierStandard || t == TierSubstantial || t == TierDeep
}

// Complexity is the task's declared difficulty.
type Complexity string

// The three complexities.
const (
	ComplexitySimple  Complexity = "simple"
	ComplexityMedium  Complexity = "medium"
	ComplexityComplex Complexity = "complex"
)

// Valid reports whether c is one of the three complexities.
func (c Complexity) Valid() bool {
	return c == ComplexitySimple || c == ComplexityMedium || c == ComplexityComplex
}

// TaskStatus is where a task is in its life.
type TaskStatus string

// A task starts active and ends done or abandoned; it never comes back.
const (
	TaskActive    TaskStatus = "active"
	TaskDone      TaskStatus = "done"
	TaskAbandoned TaskStatus = "abandoned"
)

// Valid reports whether s is one of the three statuses.
func (s TaskStatus) Valid() bool { return s == TaskActive || s == TaskDone || s == TaskAbandoned }

// slugPattern() is the task slug grammar: short, lower-case, shell- and
// path-safe, so a slug can appear in a command line or a file name unquoted.
var slugPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

// ValidSlug reports whether s is a well-formed task slug.
func ValidSlug(s string) bool { return slugPattern().MatchString(s) }

// Task is the record the workflow gates read.
//
// Scope distinguishes nil (no scope declared: scope_write leaves the task
// alone unless it is delegated) from a non-nil empty slice (declared empty:
// the task may write nothing). The store keeps that difference (NULL vs '[]').
type Task struct {
	Slug       string
	Goal       string
	Scope      []string // globs; nil = not declared
	Tier       Tier
	Complexity Complexity
	Delegated  bool
	CallBudget *int // nil = no budget declared
	Specs      []string
	Adapts     []string
	Files      []string // declared files, repo-relative; what verify certifies
	Status     TaskStatus
	StartedAt  time.Time
	DoneAt     time.Time // zero while active
}

func validateTask(t *Task) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidTask, fmt.Sprintf(format, args...))
	}
	if !ValidSlug(t.Slug) {
		return bad("slug %q must match %s", t.Slug, slugPattern())
	}
	if !t.Tier.Valid() {
		return bad("tier %q is not one of lightweight, standard, substantial, deep", t.Tier)
	}
	if !t.Complexity.Valid() {
		return bad("complexity %q is not one of simple, medium, complex", t.Complexity)
	}
	if t.CallBudget != nil && *t.CallBudget < 0 {
		return bad("call budget %d is negative", *t.CallBudget)
	}
	for name, list := range map[string][]string{"scope": t.Scope, "specs": t.Specs, "adapts": t.Adapts, "files": t.Files} {
		for _, e := range list {
			if strings.TrimSpace(e) == "" || strings.ContainsAny(e, "\x00\n") {
				return bad("%s entry %q is empty or contains a control character", name, e)
			}
		}
	}
	return nil
}

// CreateTask records a new active task started now (by the store clock) and
// returns it as stored. Errors: ErrInvalidTask, ErrTaskExists.
func (s *Work) CreateTask(ctx context.Context, t Task) (Task, error) {
	var out Task
	err := s.write(ctx, func(q querier) error {
		var err error
		out, err = createTask(ctx, q, s.clock, t)
		return err
	})
	return out, err
}

// CreateTask creates the task inside the transaction (see WithTx).
func (tx *Tx) CreateTask(ctx context.Context, t Task) (Task, error) {
	out, err := createTask(ctx, tx.q, tx.clock, t)
	return out, classify(err)
}

func createTask(ctx context.Context, q querier, clock func() time.Time, t Task) (Task, error) {
	t.Status, t.StartedAt, t.DoneAt = TaskActive, clock().UTC(), time.Time{}
	if err := validateTask(&t); err != nil {
		return Task{}, fmt.Errorf("create task: %w", err)
	}
	var one int
	err := q.QueryRowContext(ctx, "SELECT 1 FROM tasks WHERE slug = ?", t.Slug).Scan(&one)
	if err == nil {
		return Task{}, fmt.Errorf("create task %s: %w", t.Slug, ErrTaskExists)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Task{}, fmt.Errorf("create task %s: %w", t.Slug, err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO tasks (slug, goal, scope_paths, tier, complexity, delegated,
		call_budget, specs, adapts, files, status, started_at, done_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`, taskArgs(&t)...)
	if err != nil {
		return Task{}, fmt.Errorf("create task %s: %w", t.Slug, err)
	}
	return recordTask(ctx, q, clock, t.Slug, ChangeStart)
}

// recordTask reads the task back as stored and appends the task-state entry
// recording it after change, in the caller's transaction.
func recordTask(ctx context.Context, q querier, clock func() time.Time, slug, change string) (Task, error) {
	t, err := getTask(ctx, q, slug)
	if err != nil {
		return Task{}, err
	}
	if err := appendTaskState(ctx, q, clock, t, change); err != nil {
		return Task{}, err
	}
	return t, nil
}

func taskArgs(t *Task) []any {
	var scope, budget any
	if t.Scope != nil {
		scope = jsonList(t.Scope)
	}
	if t.CallBudget != nil {
		budget = int64(*t.CallBudget)
	}
	return []any{t.Slug, t.Goal, scope, string(t.Tier), string(t.Complexity), boolInt(t.Delegated),
		budget, jsonList(t.Specs), jsonList(t.Adapts), jsonList(t.Files), string(t.Status), formatTime(t.StartedAt)}
}

func jsonList(l []string) string {
	if l == nil {
		l = []string{}
	}
	b, _ := json.Marshal(l) // a []string always encodes
	return string(b)
}

// GetTask returns the task with this slug, or ErrNotFound.
func (s *Work) GetTask(ctx context.Context, slug string) (Task, error) {
	return getTask(ctx, s.db.Conn(), slug)
}

// GetTask reads a task inside the transaction, seeing its uncommitted writes.
func (tx *Tx) GetTask(ctx context.Context, slug string) (Task, error) {
	return getTask(ctx, tx.q, slug)
}

const taskColumns = `slug, goal, scope_paths, tier, complexity, delegated, call_budget,
	specs, adapts, files, status, started_at, done_at`

func getTask(ctx context.Context, q querier, slug string) (Task, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE slug = ?", slug)
	if err != nil {
		return Task{}, fmt.Errorf("get task %s: %w", slug, classify(err))
	}
	ts, err := scanTasks(rows)
	if err != nil {
		return Task{}, fmt.Errorf("get task %s: %w", slug, err)
	}
	if len(ts) == 0 {
		return Task{}, fmt.Errorf("task %s: %w", slug, ErrNotFound)
	}
	return ts[0], nil
}

// ListTasks returns the tasks with status st ("" for all), oldest first.
func (s *Work) ListTasks(ctx context.Context, st TaskStatus) ([]Task, error) {
	return listTasks(ctx, s.db.Conn(), st)
}

// ActiveTasks returns the active tasks, oldest first: the set whose scopes
// and budgets the workflow gates combine.
func (s *Work) ActiveTasks(ctx context.Context) ([]Task, error) {
	return listTasks(ctx, s.db.Conn(), TaskActive)
}

// ActiveTasks lists active tasks inside the transaction.
func (tx *Tx) ActiveTasks(ctx context.Context) ([]Task, error) {
	return listTasks(ctx, tx.q, TaskActive)
}

func listTasks(ctx context.Context, q querier, st TaskStatus) ([]Task, error) {
	if st != "" && !st.Valid() {
		return nil, fmt.Errorf("list tasks: %w: unknown status %q", ErrInvalidTask, st)
	}
	rows, err := q.QueryContext(ctx, sqldb.Hot("SELECT "+taskColumns+" FROM tasks WHERE ? = '' OR status = ? ORDER BY started_at, slug"),
		string(st), string(st))
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", classify(err))
	}
	ts, err := scanTasks(rows)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	return ts, nil
}

func scanTasks(rows *sql.Rows) ([]Task, error) {
	defer rows.Close()
	var out []Task
	for rows.Next() {
		var t Task
		var scope, doneAt sql.NullString
		var budget sql.NullInt64
		var delegated int64
		var specs, adapts, files, startedAt string
		if err := rows.Scan(&t.Slug, &t.Goal, &scope, &t.Tier, &t.Complexity, &delegated, &budget,
			&specs, &adapts, &files, &t.Status, &startedAt, &doneAt); err != nil {
			return nil, err
		}
		t.Delegated = delegated == 1
		if budget.Valid {
			b := int(budget.Int64)
			t.CallBudget = &b
		}
		var err error
		if scope.Valid {
			if t.Scope, err = parseList(scope.String); err != nil {
				return nil, fmt.Errorf("task %s: scope_paths: %w", t.Slug, err)
			}
		}
		for _, f := range []struct {
			dst *[]string
			src string
		}{{&t.Specs, specs}, {&t.Adapts, adapts}, {&t.Files, files}} {
			if *f.dst, err = parseList(f.src); err != nil {
				return nil, fmt.Errorf("task %s: %w", t.Slug, err)
			}
		}
		if t.StartedAt, err = parseTime(startedAt); err != nil {
			return nil, fmt.Errorf("task %s: started_at: %w", t.Slug, err)
		}
		if doneAt.Valid {
			if t.DoneAt, err = parseTime(doneAt.String); err != nil {
				return nil, fmt.Errorf("task %s: done_at: %w", t.Slug, err)
			}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// parseList decodes a JSON list column; the result is never nil.
func parseList(s string) ([]string, error) {
	out := []string{}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// MarkTaskDone closes an active task now. Whether it may close is the gates'
// call (verify_first); the store only records it. Errors: ErrNotFound,
// ErrTaskNotActive.
func (s *Work) MarkTaskDone(ctx context.Context, slug string) (Task, error) {
	return s.finishTask(ctx, slug, TaskDone)
}

// AbandonTask closes an active task without completing it, releasing its
// scope and call budget.
func (s *Work) AbandonTask(ctx context.Context, slug string) (Task, error) {
	return s.finishTask(ctx, slug, TaskAbandoned)
}

// MarkTaskDone closes the task inside the transaction.
func (tx *Tx) MarkTaskDone(ctx context.Context, slug string) (Task, error) {
	out, err := finishTask(ctx, tx.q, tx.clock, slug, TaskDone)
	return out, classify(err)
}

func (s *Work) finishTask(ctx context.Context, slug string, st TaskStatus) (Task, error) {
	var out Task
	err := s.write(ctx, func(q querier) error {
		var err error
		out, err = finishTask(ctx, q, s.clock, slug, st)
		return err
	})
	return out, err
}

func finishTask(ctx context.Context, q querier, clock func() time.Time, slug string, st TaskStatus) (Task, error) {
	t, err := getTask(ctx, q, slug)
	if err != nil {
		return Task{}, err
	}
	if t.Status != TaskActive {
		return Task{}, fmt.Errorf("task %s is %s: %w", slug, t.Status, ErrTaskNotActive)
	}
	_, err = q.ExecContext(ctx, "UPDATE tasks SET status = ?, done_at = ? WHERE slug = ? AND status = 'active'",
		string(st), formatTime(clock()), slug)
	if err != nil {
		return Task{}, fmt.Errorf("close task %s: %w", slug, err)
	}
	change := ChangeDone
	if st == TaskAbandoned {
		change = ChangeAbandon
	}
	return recordTask(ctx, q, clock, slug, change)
}

// UpdateTask applies edit to an active task and stores the result, all in
// one transaction, so `task scope add` and `task files add` are read-modify-
// write without lost updates. edit may change the goal, scope, tier,
// complexity, delegation, budget, links and files; changing the slug, status
// or times is ErrInvalidTask. Errors from edit are returned unchanged.
func (s *Work) UpdateTask(ctx context.Context, slug string, edit func(*Task) error) (Task, error) {
	var out Task
	err := s.write(ctx, func(q querier) error {
		t, err := getTask(ctx, q, slug)
		if err != nil {
			return err
		}
		if t.Status != TaskActive {
			return fmt.Errorf("task %s is %s: %w", slug, t.Status, ErrTaskNotActive)
		}
		before := t
		if err := edit(&t); err != nil {
			return err
		}
		if t.Slug != before.Slug || t.Status != before.Status || !t.StartedAt.Equal(before.StartedAt) || !t.DoneAt.Equal(before.DoneAt) {
			return fmt.Errorf("update task %s: %w: slug, status and times cannot be edited", slug, ErrInvalidTask)
		}
		if err := validateTask(&t); err != nil {
			return fmt.Errorf("update task %s: %w", slug, err)
		}
		args := taskArgs(&t)
		_, err = q.ExecContext(ctx, `UPDATE tasks SET goal = ?, scope_paths = ?, tier = ?, complexity = ?,
			delegated = ?, call_budget = ?, specs = ?, adapts = ?, files = ? WHERE slug = ?`,
			append(args[1:10:10], slug)...)
		if err != nil {
			return fmt.Errorf("update task %s: %w", slug, err)
		}
		out, err = recordTask(ctx, q, s.clock, slug, ChangeUpdate)
		return err
	})
	return out, err
}
