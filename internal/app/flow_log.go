package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/diag"

	"github.com/tausik/tausik/store"
)

// LogQuery is a decision-log filter as a person types it.
type LogQuery struct {
	Gate    string
	Outcome string // PASSED, FAILED, NOT_APPLICABLE or COULD_NOT_RUN (any case)
	Task    string
	Trigger string
	// Requester: decisions asked for by this requester.
	Requester string
	// Result is "blocked" or "passed" (any case): alone, whether the decision
	// blocked; with Gate, whether that gate's verdict blocked.
	Result string
	// Since is a duration back from now ("90m", "3h", "2d") or a time
	// (RFC 3339, or a date YYYY-MM-DD in UTC).
	Since string
	// Between is "A,B": two times as for Since; decisions at or after A and
	// before B. Not together with Since.
	Between string
	Tail    int // the newest N matches; 0 = all
}

// Filter turns the query into a store filter, with durations counted back
// from now. Malformed input is ErrUsage naming the flag's value.
func (q LogQuery) Filter(now time.Time) (store.Filter, error) {
	f := store.Filter{Gate: q.Gate, Task: q.Task, Trigger: q.Trigger, Requester: q.Requester, Tail: q.Tail}
	switch strings.ToLower(q.Result) {
	case "":
	case "blocked", "passed":
		blocked := strings.EqualFold(q.Result, "blocked")
		f.Blocked = &blocked
	default:
		return f, fmt.Errorf("%w: result %q is not blocked or passed", diag.ErrUsage, q.Result)
	}
	if q.Outcome != "" {
		f.Outcome = store.Outcome(strings.ToUpper(q.Outcome))
		if !f.Outcome.Valid() {
			return f, fmt.Errorf("%w: outcome %q is not one of PASSED, FAILED, NOT_APPLICABLE, COULD_NOT_RUN", diag.ErrUsage, q.Outcome)
		}
	}
	if q.Tail < 0 {
		return f, fmt.Errorf("%w: tail %d is negative", diag.ErrUsage, q.Tail)
	}
	if q.Since != "" && q.Between != "" {
		return f, fmt.Errorf("%w: give a since or a between, not both", diag.ErrUsage)
	}
	var err error
	if q.Since != "" {
		if f.Since, err = parsePoint(q.Since, now, true); err != nil {
			return f, err
		}
	}
	if q.Between != "" {
		a, b, ok := strings.Cut(q.Between, ",")
		if !ok {
			return f, fmt.Errorf("%w: between %q: want two times separated by a comma", diag.ErrUsage, q.Between)
		}
		if f.Since, err = parsePoint(strings.TrimSpace(a), now, false); err != nil {
			return f, err
		}
		if f.Until, err = parsePoint(strings.TrimSpace(b), now, false); err != nil {
			return f, err
		}
		if !f.Since.Before(f.Until) {
			return f, fmt.Errorf("%w: between %q: the first time must be before the second", diag.ErrUsage, q.Between)
		}
	}
	return f, nil
}

// parsePoint reads an RFC 3339 time, a date, or (when durations are allowed)
// a duration back from now; "d" counts 24-hour days.
func parsePoint(s string, now time.Time, durations bool) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if durations {
		if d, ok := parseAgo(s); ok {
			return now.Add(-d), nil
		}
		return time.Time{}, fmt.Errorf("%w: %q is neither a duration (90m, 3h, 2d) nor a time (RFC 3339 or YYYY-MM-DD)", diag.ErrUsage, s)
	}
	return time.Time{}, fmt.Errorf("%w: %q is not a time (RFC 3339 or YYYY-MM-DD)", diag.ErrUsage, s)
}

func parseAgo(s string) (time.Duration, bool) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, false
		}
		return time.Duration(n) * 24 * time.Hour, true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// OpenLogStore opens the project's decision log read-only, for the log
// readers: an auditor's query must never create or migrate a database. No
// database yet is ErrStore saying so.
func OpenLogStore(ctx context.Context, root string, getenv func(string) string) (*store.Store, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	loc, err := config.LocateStore(root, getenv)
	if err != nil {
		return nil, err
	}
	if loc.URL != "" {
		st, err := store.OpenPostgres(ctx, loc.URL, store.WithReadOnly())
		if err != nil {
			return nil, fmt.Errorf("%w: %v (the store named by %s)", diag.ErrStore, err, loc.From)
		}
		return st, nil
	}
	path := loc.Path
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no decision log at %s (nothing was evaluated here yet)", diag.ErrStore, path)
	}
	st, err := store.Open(ctx, path, store.WithReadOnly())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrStore, err)
	}
	return st, nil
}

// ListLog returns the decisions matching f, oldest first.
func ListLog(ctx context.Context, st *store.Store, f store.Filter) ([]store.Entry, error) {
	entries, err := st.ListDecisions(ctx, f)
	return entries, engine.StoreErr(err)
}

// ShowLog returns one decision by id or unique prefix (at least 6
// characters). ErrUsage when it matches none or several.
func ShowLog(ctx context.Context, st *store.Store, id string) (store.Entry, error) {
	e, err := st.GetDecision(ctx, id)
	return e, engine.StoreErr(err)
}

// ExportLog writes the decisions matching f to w as NDJSON in OPA's
// decision-log event shape and returns how many it wrote.
func ExportLog(ctx context.Context, st *store.Store, f store.Filter, w io.Writer) (int, error) {
	n, err := st.ExportDecisions(ctx, f, w)
	return n, engine.StoreErr(err)
}
