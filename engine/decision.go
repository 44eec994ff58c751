package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/store"
)

// Outcomes of one gate (the README's "Outcomes and exit codes").
const (
	Passed        = "PASSED"
	Failed        = "FAILED"
	NotApplicable = "NOT_APPLICABLE"
	CouldNotRun   = "COULD_NOT_RUN"
)

// DecisionSchema tags every decision document.
const DecisionSchema = "tausik-decision/v1"

// Exit codes (the README's "Outcomes and exit codes"). Evaluate only ever yields the
// first two; the rest belong to the callers' error paths.
const (
	ExitPassed      = 0
	ExitBlocked     = 1
	ExitUsage       = 2
	ExitError       = 3
	ExitTestsFailed = 4
)

// Decision is the record of one evaluation: what was asked, what every gate
// said, and whether the change may proceed. It is what the decision log
// stores and what `--format json` prints.
type Decision struct {
	Schema      string        `json:"schema"`
	ID          string        `json:"decision_id"`
	Time        time.Time     `json:"time"`
	Requester   string        `json:"requester"`
	Request     RequestRecord `json:"request"`
	GitHead     string        `json:"git_head"`
	FactsDigest string        `json:"facts_digest"`
	// ConfigDigest covers the configuration files of every tier as they
	// were read when the engine was built ("sha256:…", see configDigest): with
	// the verdicts' policy digests it names the policy in force.
	ConfigDigest string `json:"config_digest,omitempty"`
	// Tiers are the configuration keys a tier above the defaults set, with
	// the tier and its file: which gate each switched off, which params it
	// moved (see config.TierSetting).
	Tiers    []config.TierSetting `json:"tiers,omitempty"`
	Gates    []Verdict            `json:"gates"`
	Warnings []string             `json:"warnings"`
	Blocked  bool                 `json:"blocked"`
	// Ask: Blocked, and every blocking verdict is one a person may let
	// through (Verdict.Ask). A host that can ask shows the person the
	// call; every other caller treats the decision as blocked (exit 1).
	Ask      bool    `json:"ask,omitempty"`
	ExitCode int     `json:"exit_code"`
	Timings  Timings `json:"timings"`

	// Programs names the user and managed config files and the Python
	// interpreter in force: what chose which programs ran.
	Programs *Programs `json:"programs,omitempty"`
}

// RequestRecord is the request as the decision records it.
type RequestRecord struct {
	Trigger  string   `json:"trigger"`
	Task     string   `json:"task"`
	Files    []string `json:"files"`
	Explicit bool     `json:"explicit"`
	Outside  []string `json:"outside,omitempty"`
	Gates    []string `json:"gates"`
	// ChangedSince and Bypass are recorded when the request set them; a
	// bypass is how an auditor sees a gate that was waived on purpose.
	ChangedSince string   `json:"changed_since,omitempty"`
	Bypass       []string `json:"bypass,omitempty"`
	// Tool is the agent tool call a hook judged, with its parsed targets.
	Tool *toolcall.Record `json:"tool,omitempty"`
	// Tasks are the tasks active when a tool call was judged; with exactly
	// one, Task names it too, so the log lists the call under that task.
	Tasks []string `json:"tasks,omitempty"`
	// Turn is the agent lifecycle event a hook's decision was made for.
	Turn *toolcall.Turn `json:"turn,omitempty"`
}

// Verdict is one gate's outcome within a decision.
type Verdict struct {
	Name     string `json:"name"`
	Source   string `json:"source"`
	Language string `json:"language"`
	Severity string `json:"severity"`
	Outcome  string `json:"outcome"`
	Blocks   bool   `json:"blocks"`
	// Ask: the verdict blocks, but a person may let the call through where
	// the host can ask one (a gate of severity "ask", or a blocking gate
	// whose every violation is marked "ask"). Severity then records
	// "block": that is what it does wherever nobody can be asked.
	Ask          bool               `json:"ask,omitempty"`
	Reasons      []policy.Reason    `json:"reasons"`
	Violations   []policy.Violation `json:"violations"`
	PolicyDigest string             `json:"policy_digest"`
	EvalNS       int64              `json:"eval_ns"`
	// InputDigest covers everything the policy's result is a function of:
	// its source, the gate's params and the digests of its namespaces. Two
	// verdicts with the same InputDigest had the same input. It is set only
	// for a policy that reads nothing else of its input (not the request,
	// see policy.InputUse) and evaluated without error, and never without a store
	// (fixture runs).
	InputDigest string `json:"input_digest,omitempty"`
	// Reused names the earlier decision whose verdict, evaluated from the
	// same InputDigest, this one repeats instead of evaluating the policy
	// again (see package verdictcache); empty when it was evaluated for this decision.
	Reused string `json:"reused,omitempty"`
}

// Timings of an evaluation, in nanoseconds.
type Timings struct {
	FactsNS int64 `json:"facts_ns"`
	// GatherNS is each namespace's runner time (runners run concurrently,
	// so these overlap and may add up to more than FactsNS).
	GatherNS map[string]int64 `json:"gather_ns,omitempty"`
	EvalNS   int64            `json:"eval_ns"`
	TotalNS  int64            `json:"total_ns"`
}

// DecisionLog records decisions. Append must either store the whole decision
// or return an error; the engine reports a failed append as ErrStore, because
// an evaluation nobody can audit is not trusted.
type DecisionLog interface {
	Append(ctx context.Context, d *Decision) error
}

// outcome turns a policy's result (or error) into the gate's outcome and
// reasons. Precedence: a policy error or a could-not-run reason beats
// violations, which beat not-applicable; and a PASSED over a namespace that was
// not read is COULD_NOT_RUN, so a missing fact is never a pass.
func outcome(res policy.Result, err error, unread []policy.Reason) (string, []policy.Reason) {
	switch {
	case err != nil:
		if r, ok := policy.BoundReason(err); ok {
			return CouldNotRun, []policy.Reason{r}
		}
		return CouldNotRun, []policy.Reason{{Code: "policy_error", Msg: err.Error()}}
	case len(res.CouldNotRun) > 0:
		return CouldNotRun, res.CouldNotRun
	case len(res.Violations) > 0:
		return Failed, nil
	case len(res.NotApplicable) > 0:
		return NotApplicable, res.NotApplicable
	case len(unread) > 0:
		return CouldNotRun, unread
	}
	return Passed, nil
}

// blocks is the blocking rule: severity block or ask, and FAILED or
// COULD_NOT_RUN.
func blocks(severity, outcome string) bool {
	return (severity == gate.SeverityBlock || severity == gate.SeverityAsk) && (outcome == Failed || outcome == CouldNotRun)
}

// asks reports whether a verdict that blocks may be let through by a
// person: it FAILED (a gate that could not run never asks: fail closed),
// and the gate's severity is ask or every violation is marked ask.
func asks(severity, outcome string, vs []policy.Violation) bool {
	if outcome != Failed || !blocks(severity, outcome) {
		return false
	}
	if severity == gate.SeverityAsk {
		return true
	}
	for _, v := range vs {
		if v.Severity != gate.SeverityAsk {
			return false
		}
	}
	return len(vs) > 0
}

// settleSeverity fixes v's blocking fields for severity: Blocks, Ask, and the
// severity it records (ask records block, see Verdict.Ask). A violation of
// severity block raises the verdict's severity to block.
func settleSeverity(v *Verdict, severity string) {
	if v.Outcome == Failed && slices.ContainsFunc(v.Violations, func(x policy.Violation) bool { return x.Severity == gate.SeverityBlock }) {
		severity = gate.SeverityBlock
	}
	v.Blocks = blocks(severity, v.Outcome)
	v.Ask = asks(severity, v.Outcome, v.Violations)
	v.Severity = severity
	if severity == gate.SeverityAsk {
		v.Severity = gate.SeverityBlock
	}
}

// DisabledNotes are the notes a text report gives for d's configuration: a
// blocking gate that a tier switched off (the project tier may only switch
// off a command gate whose tool the project does not use), with the tier and
// its file, so nobody reads a pass without knowing what was not asked.
func DisabledNotes(d *Decision) []string {
	var out []string
	for _, s := range d.Tiers {
		if s.Key != "enabled" || s.Value != false || s.Severity != gate.SeverityBlock {
			continue
		}
		out = append(out, fmt.Sprintf("%s (block) is disabled by the %s tier (%s)", s.Gate, s.Tier, s.File))
	}
	return out
}

// StoreLog appends decisions to the store's hash-chained decision log.
type StoreLog struct {
	Store *store.Store
}

// Append implements DecisionLog.
func (l StoreLog) Append(ctx context.Context, d *Decision) error {
	body, err := json.Marshal(d)
	if err != nil {
		return err
	}
	gates := make([]store.GateVerdict, len(d.Gates))
	for i, v := range d.Gates {
		gates[i] = store.GateVerdict{Name: v.Name, Outcome: store.Outcome(v.Outcome), Severity: store.Severity(v.Severity), Blocks: v.Blocks}
	}
	_, err = l.Store.AppendDecision(ctx, store.Decision{
		ID: d.ID, Time: d.Time, Trigger: d.Request.Trigger, Task: d.Request.Task, Requester: d.Requester,
		GitHead: d.GitHead, ExitCode: d.ExitCode, Blocked: d.Blocked, Gates: gates, Body: body,
	})
	return err
}
