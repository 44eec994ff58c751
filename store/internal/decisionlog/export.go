package decisionlog

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tausik/tausik/internal/canonjson"
)

// ExportApp is the "app" label of every exported event, telling tausik events
// apart from OPA's own when both land in one log pipeline.
const ExportApp = "tausik"

// ExportDecisions writes the decisions matching f to w as NDJSON, oldest
// first, one canonical JSON event per line, and returns how many it wrote.
//
// Field names follow OPA's decision-log event (plugins/logs EventV1) where
// they overlap:
//
//	decision_id   the ULID
//	timestamp     the decision time (RFC 3339, UTC)
//	path          "tausik/<trigger>"
//	input         the body's "request"
//	result        {blocked, exit_code, gates: [{name, outcome, severity, blocks}]}
//	labels        {app: "tausik", requester, trigger, task, git_head}
//	requested_by  the requester
//	metrics       the body's "timings"
//	custom        {decision: the full body, verbatim}
//
// plus seq, prev_hash and hash, so the file verifies on its own with
// VerifyExport: every hashed column is in the event, and the derived fields
// (input, metrics, path) are re-derived and compared.
func (s *Log) ExportDecisions(ctx context.Context, f Filter, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	n := 0
	q, args, err := f.query()
	if err == nil {
		err = s.eachRecord(ctx, q, args, func(rec *Record) error {
			line, err := renderEvent(rec)
			if err != nil {
				return err
			}
			if _, err := bw.Write(append(line, '\n')); err != nil {
				return err
			}
			n++
			return nil
		})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, fmt.Errorf("export decisions: %w", err)
	}
	return n, nil
}

// exportEvent is the parsed form of one exported line.
type exportEvent struct {
	DecisionID string `json:"decision_id"`
	Timestamp  string `json:"timestamp"`
	Labels     struct {
		Trigger   string `json:"trigger"`
		Task      string `json:"task"`
		Requester string `json:"requester"`
		GitHead   string `json:"git_head"`
	} `json:"labels"`
	Result struct {
		Blocked  bool       `json:"blocked"`
		ExitCode int64      `json:"exit_code"`
		Gates    []hashGate `json:"gates"`
	} `json:"result"`
	Custom struct {
		Decision json.RawMessage `json:"decision"`
	} `json:"custom"`
	Seq      int64  `json:"seq"`
	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
}

func renderEvent(rec *Record) ([]byte, error) {
	var views struct {
		Request *json.RawMessage `json:"request"`
		Timings *json.RawMessage `json:"timings"`
	}
	if err := json.Unmarshal(rec.body, &views); err != nil {
		return nil, fmt.Errorf("row seq %d: body: %w", rec.seq, err)
	}
	gates := make([]hashGate, len(rec.gates))
	for i, g := range rec.gates {
		gates[i] = hashGate{Blocks: g.Blocks, Name: g.Name, Outcome: string(g.Outcome), Severity: string(g.Severity)}
	}
	ev := map[string]any{
		"decision_id":  rec.id,
		"timestamp":    rec.time,
		"path":         "tausik/" + rec.trigger,
		"requested_by": rec.requester,
		"labels": map[string]string{
			"app": ExportApp, "requester": rec.requester, "trigger": rec.trigger,
			"task": rec.task, "git_head": rec.gitHead,
		},
		"result":    map[string]any{"blocked": rec.blocked, "exit_code": rec.exitCode, "gates": gates},
		"custom":    map[string]any{"decision": json.RawMessage(rec.body)},
		"seq":       rec.seq,
		"prev_hash": rec.prevHash,
		"hash":      rec.hash,
	}
	if views.Request != nil {
		ev["input"] = *views.Request
	}
	if views.Timings != nil {
		ev["metrics"] = *views.Timings
	}
	return canonjson.Marshal(ev)
}

// VerifyExport checks an NDJSON file written by ExportDecisions with no
// database: each line's hash is recomputed from its fields, each line must be
// exactly what the exporter renders for that row (so derived fields cannot be
// edited), and consecutive seqs must link by prev_hash. A filtered export has
// seq gaps; they are counted in Gaps, and linkage is checked only across
// consecutive rows. A whole export must start at seq 1 with GenesisHash.
// Deleting the last lines of an export cannot be detected (there is no head
// in the file); compare Head with `tausik log verify` output for that.
// Input that is not an export at all is sqldb.ErrBadExport.
func VerifyExport(r io.Reader) (ChainReport, error) {
	rep := ChainReport{Head: GenesisHash}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var prevSeq int64
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ev exportEvent
		if err := json.Unmarshal(line, &ev); err != nil || ev.DecisionID == "" || ev.Seq <= 0 {
			if rep.Rows == 0 {
				return rep, fmt.Errorf("%w: line %d is not a decision event", sqldb.ErrBadExport, lineNo)
			}
			rep.Break = &ChainBreak{Kind: BreakContent, Seq: prevSeq + 1, Detail: fmt.Sprintf("line %d is not a decision event", lineNo)}
			return rep, nil
		}
		rec := &Record{
			seq: ev.Seq, id: ev.DecisionID, time: ev.Timestamp, trigger: ev.Labels.Trigger, task: ev.Labels.Task,
			requester: ev.Labels.Requester, gitHead: ev.Labels.GitHead, exitCode: ev.Result.ExitCode,
			blocked: ev.Result.Blocked, body: ev.Custom.Decision, prevHash: ev.PrevHash, hash: ev.Hash,
		}
		for _, g := range ev.Result.Gates {
			rec.gates = append(rec.gates, GateVerdict{Name: g.Name, Outcome: Outcome(g.Outcome), Severity: Severity(g.Severity), Blocks: g.Blocks})
		}
		brk := func(kind BreakKind, detail string) (ChainReport, error) {
			rep.Break = &ChainBreak{Kind: kind, Seq: rec.seq, ID: rec.id, Detail: fmt.Sprintf("line %d: %s", lineNo, detail)}
			return rep, nil
		}
		if h, err := chainHash(rec); err != nil || h != rec.hash {
			return brk(BreakContent, "event content no longer matches its hash")
		}
		if m := consistencyProblem(rec); m != nil {
			rep.Break = &ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: m.column, Detail: m.detail}
			return rep, nil
		}
		if want, err := renderEvent(rec); err != nil || !bytes.Equal(want, line) {
			return brk(BreakContent, "a derived field (input, metrics, path, labels or requested_by) was edited")
		}
		switch {
		case rec.seq <= prevSeq:
			return brk(BreakLink, fmt.Sprintf("seq %d comes after seq %d: lines reordered", rec.seq, prevSeq))
		case rec.seq == prevSeq+1 && rec.prevHash != rep.Head:
			return brk(BreakLink, "does not link to the previous line: lines inserted, reordered or replaced")
		case rec.seq > prevSeq+1:
			rep.Gaps++
		}
		rep.Rows++
		rep.Head, prevSeq = rec.hash, rec.seq
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("read export: %w", err)
	}
	if rep.Rows == 0 {
		return rep, fmt.Errorf("%w: no events", sqldb.ErrBadExport)
	}
	rep.OK = true
	return rep, nil
}
