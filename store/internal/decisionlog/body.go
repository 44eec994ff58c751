package decisionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tausik/tausik/internal/canonjson"
)

// canonicalBody parses raw as one JSON object and re-encodes it canonically
// (sorted keys, no insignificant whitespace, numbers kept as written).
func canonicalBody(raw []byte) ([]byte, error) { return canonjson.Object(raw) }

// bodyMirror is the part of the engine's decision document that repeats the
// row's columns. Pointers tell "absent" (not checked) from "present".
// Decoding into it is far cheaper than building the whole document, which
// keeps VerifyChain fast on large logs.
type bodyMirror struct {
	DecisionID *string `json:"decision_id"`
	Time       *string `json:"time"`
	Requester  *string `json:"requester"`
	GitHead    *string `json:"git_head"`
	Blocked    *bool   `json:"blocked"`
	ExitCode   *int64  `json:"exit_code"`
	Request    *struct {
		Trigger *string `json:"trigger"`
		Task    *string `json:"task"`
	} `json:"request"`
	Gates *[]struct {
		Name     *string `json:"name"`
		Outcome  *string `json:"outcome"`
		Severity *string `json:"severity"`
		Blocks   *bool   `json:"blocks"`
	} `json:"gates"`
}

func parseMirror(body []byte) (*bodyMirror, error) {
	var m bodyMirror
	if err := json.Unmarshal(body, &m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("body field %s has the wrong type (%s)", te.Field, te.Value)
		}
		return nil, err
	}
	return &m, nil
}

// complete reports whether the body carries every field checkBody compares,
// so a row whose columns all agree with it can only differ from its hash
// through the body itself.
func (m *bodyMirror) complete() bool {
	return m.DecisionID != nil && m.Time != nil && m.Requester != nil && m.GitHead != nil &&
		m.Blocked != nil && m.ExitCode != nil && m.Gates != nil &&
		m.Request != nil && m.Request.Trigger != nil && m.Request.Task != nil
}

// gateVerdicts derives the gate index from the body's gates list.
func (m *bodyMirror) gateVerdicts() ([]GateVerdict, error) {
	if m.Gates == nil {
		return []GateVerdict{}, nil
	}
	out := make([]GateVerdict, 0, len(*m.Gates))
	for i, g := range *m.Gates {
		if g.Name == nil || g.Outcome == nil || g.Severity == nil || g.Blocks == nil {
			return nil, fmt.Errorf("body gate %d lacks name, outcome, severity or blocks; pass Decision.Gates", i)
		}
		out = append(out, GateVerdict{Name: *g.Name, Outcome: Outcome(*g.Outcome), Severity: Severity(*g.Severity), Blocks: *g.Blocks})
	}
	return out, nil
}

// mismatch names the column of a row that contradicts its body.
type mismatch struct{ column, detail string }

// checkBody compares the record's columns with the fields the body carries.
// Fields the body lacks are not checked.
func checkBody(rec *Record, m *bodyMirror) *mismatch {
	str := func(column string, body *string, want string) *mismatch {
		if body != nil && *body != want {
			return &mismatch{column, fmt.Sprintf("column %q, body %q", want, *body)}
		}
		return nil
	}
	for _, c := range []struct {
		column string
		body   *string
		want   string
	}{
		{"id", m.DecisionID, rec.id},
		{"requester", m.Requester, rec.requester},
		{"git_head", m.GitHead, rec.gitHead},
	} {
		if mm := str(c.column, c.body, c.want); mm != nil {
			return mm
		}
	}
	if m.Time != nil && !sameTime(*m.Time, rec.time) {
		return &mismatch{"time", fmt.Sprintf("column %s, body %s", rec.time, *m.Time)}
	}
	if m.Blocked != nil && *m.Blocked != rec.blocked {
		return &mismatch{"blocked", fmt.Sprintf("column %t, body %t", rec.blocked, *m.Blocked)}
	}
	if m.ExitCode != nil && *m.ExitCode != rec.exitCode {
		return &mismatch{"exit_code", fmt.Sprintf("column %d, body %d", rec.exitCode, *m.ExitCode)}
	}
	if m.Request != nil {
		if mm := str("trigger", m.Request.Trigger, rec.trigger); mm != nil {
			return mm
		}
		if mm := str("task", m.Request.Task, rec.task); mm != nil {
			return mm
		}
	}
	if m.Gates != nil {
		want, err := m.gateVerdicts()
		if err != nil {
			return nil // an incomplete gates list was given explicit Gates; nothing to compare
		}
		if len(want) != len(rec.gates) {
			return &mismatch{gatesColumn, fmt.Sprintf("%d gates, body lists %d", len(rec.gates), len(want))}
		}
		for i := range want {
			if want[i] != rec.gates[i] {
				return &mismatch{gatesColumn, fmt.Sprintf("gate %d is %+v, body says %+v", i, rec.gates[i], want[i])}
			}
		}
	}
	return nil
}

// mirrorOf is parseMirror(body) for a body just canonicalised, read from
// slimBody's copy when it gives one: the violations lists are most of a
// large decision's body, and json.Unmarshal scans every byte twice even for
// fields it skips (~9 ms of a 3,700-violation append).
func mirrorOf(body []byte) (*bodyMirror, error) {
	if slim, ok := slimBody(body); ok {
		return parseMirror(slim)
	}
	return parseMirror(body)
}

// slimBody returns the compact JSON object body without the "violations"
// member of each object in its top-level "gates" array. No key of
// bodyMirror folds to "violations", so json.Unmarshal fills a bodyMirror
// from the copy exactly as from body (TestSlimBodyKeepsTheMirror). ok is
// false for a body without a top-level "gates" array, and for one it
// cannot walk (whitespace, not an object, cut short): the caller parses
// body itself.
func slimBody(body []byte) (out []byte, ok bool) {
	end := func(i int) int { return skipCompact(body, i) }
	if len(body) == 0 || body[0] != '{' {
		return nil, false
	}
	for i := 1; i < len(body) && body[i] != '}'; {
		keyEnd := end(i)
		if keyEnd < 0 || keyEnd >= len(body) || body[keyEnd] != ':' {
			return nil, false
		}
		valEnd := end(keyEnd + 1)
		if valEnd < 0 || valEnd >= len(body) {
			return nil, false
		}
		if string(body[i:keyEnd]) == `"gates"` && body[keyEnd+1] == '[' {
			gates, ok := slimGates(body, keyEnd+1, valEnd)
			if !ok {
				return nil, false
			}
			out = append(append(append(make([]byte, 0, len(body)-(valEnd-keyEnd)+len(gates)), body[:keyEnd+1]...), gates...), body[valEnd:]...)
			return out, true
		}
		if i = valEnd; body[i] == ',' {
			i++
		}
	}
	return nil, false
}

// slimGates is the array at body[start:stop] with each object's
// "violations" member left out.
func slimGates(body []byte, start, stop int) ([]byte, bool) {
	out := []byte{'['}
	for i := start + 1; i < stop-1; {
		e := skipCompact(body, i)
		if e < 0 || e > stop-1 {
			return nil, false
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		if body[i] != '{' {
			out = append(out, body[i:e]...)
		} else {
			out = append(out, '{')
			kept := 0
			for j := i + 1; j < e-1; {
				keyEnd := skipCompact(body, j)
				if keyEnd < 0 || keyEnd >= e || body[keyEnd] != ':' {
					return nil, false
				}
				valEnd := skipCompact(body, keyEnd+1)
				if valEnd < 0 || valEnd > e-1 {
					return nil, false
				}
				if string(body[j:keyEnd]) != `"violations"` {
					if kept > 0 {
						out = append(out, ',')
					}
					out = append(out, body[j:valEnd]...)
					kept++
				}
				if j = valEnd; body[j] == ',' {
					j++
				}
			}
			out = append(out, '}')
		}
		if i = e; i < stop-1 && body[i] == ',' {
			i++
		}
	}
	return append(out, ']'), true
}

// skipCompact returns the end of the compact JSON value at b[i] (a string,
// object, array or scalar, which runs to the next delimiter), or -1 when b
// ends inside it.
func skipCompact(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i = stringEnd(b, i); i < 0 {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ':':
			if depth == 0 {
				return i
			}
		}
	}
	if depth == 0 {
		return i
	}
	return -1
}

// stringEnd is the index of the quote closing the string opened at b[i]
// (a quote after an even run of backslashes), or -1.
func stringEnd(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i+1:], '"')
		if q < 0 {
			return -1
		}
		i += 1 + q
		n := 0
		for k := i - 1; b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
}
