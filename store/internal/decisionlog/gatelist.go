package decisionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tausik/tausik/internal/canonjson"
)

// Since schema version 3 a decision's gate verdicts live in its own row, in
// the gates column: canonical JSON (canonjson) of the list of hashGate
// objects, in the decision's gate order — the very objects its row hash
// covers. One value per decision instead of one row per gate: `log verify`
// reads a decision, gates and all, in one step (a row per gate cost it more
// than every body together), and the list can only be stored one way, so the
// bytes themselves are checked.
//
// Filters find a gate by substring. Every element has the keys blocks,
// name, outcome and severity in that order, and inside canonical JSON a
// quote that belongs to a key is never escaped while one inside a string
// always is: `"name":"ruff",` can only be the name of an element, and
// `"name":"ruff","outcome":"FAILED",` only that element's name and outcome.

// encodeGates returns the gates column for gs.
func encodeGates(gs []GateVerdict) (string, error) {
	list := make([]hashGate, len(gs))
	for i, g := range gs {
		list[i] = hashGate{Blocks: g.Blocks, Name: g.Name, Outcome: string(g.Outcome), Severity: string(g.Severity)}
	}
	b, err := canonjson.Marshal(list)
	if err != nil {
		return "", fmt.Errorf("encode gates: %w", err)
	}
	return string(b), nil
}

// gatesColumn names the column in mismatches.
const gatesColumn = "gates"

// decodeGates reads a gates column. Anything but the one canonical encoding
// of a list of known outcomes and severities is a mismatch: a filter reads
// the bytes, so equivalent JSON in another spelling could hide a gate from it.
func decodeGates(s string) ([]GateVerdict, *mismatch) {
	var list []struct {
		Blocks   *bool   `json:"blocks"`
		Name     *string `json:"name"`
		Outcome  *string `json:"outcome"`
		Severity *string `json:"severity"`
	}
	if err := json.Unmarshal([]byte(s), &list); err != nil || list == nil {
		if strings.HasPrefix(s, `{"`+unmigratedKey+`":`) {
			return nil, &mismatch{gatesColumn, "gate rows that were already damaged when the log moved to schema version 3"}
		}
		return nil, &mismatch{gatesColumn, fmt.Sprintf("not a JSON list of gate verdicts: %.80q", s)}
	}
	out := make([]GateVerdict, len(list))
	for i, g := range list {
		if g.Blocks == nil || g.Name == nil || g.Outcome == nil || g.Severity == nil {
			return nil, &mismatch{gatesColumn, fmt.Sprintf("gate %d lacks blocks, name, outcome or severity", i)}
		}
		out[i] = GateVerdict{Name: *g.Name, Outcome: Outcome(*g.Outcome), Severity: Severity(*g.Severity), Blocks: *g.Blocks}
		if !out[i].Outcome.Valid() || !out[i].Severity.Valid() {
			return nil, &mismatch{gatesColumn, fmt.Sprintf("gate %d: unknown outcome %q or severity %q", i, *g.Outcome, *g.Severity)}
		}
	}
	if canon, err := encodeGates(out); err != nil || canon != s {
		return nil, &mismatch{gatesColumn, "not in canonical form (edited by hand)"}
	}
	return out, nil
}

// gateNeedle is the substring a filter looks for in the gates column: the
// element naming gate (when not empty) with outcome (when not empty) and,
// when blocks is set, whose verdict blocked or not.
func gateNeedle(blocks *bool, gate string, outcome Outcome) string {
	var b bytes.Buffer
	if blocks != nil {
		b.WriteString(`"blocks":` + strconv.FormatBool(*blocks) + `,`) // blocks is every element's first key
	}
	if gate != "" {
		name, _ := canonjson.Marshal(gate) // a string always encodes
		b.WriteString(`"name":`)
		b.Write(name)
		b.WriteByte(',')
	}
	if outcome != "" {
		b.WriteString(`"outcome":"` + string(outcome) + `",`) // a valid outcome needs no escape
	}
	return b.String()
}

// unmigratedKey wraps, in the gates column, gate rows of a version 2 log
// that no canonical list can hold (numbered with gaps, blocks not 0 or 1,
// an unknown outcome): kept as they were, so verification still reports them.
const unmigratedKey = "unmigrated_gate_rows"
