package decisionlog

import (
	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/valyala/fastjson"
)

// fastMirror compares a row's columns with its body the way checkBody does,
// through a fast JSON parser so that VerifyLog keeps pace with hashing. It
// is a filter in front of the exact check, never a replacement: whatever it
// finds wrong is confirmed by consistencyProblem before it is reported, and
// it agrees with the exact check on every body the store writes (canonical
// JSON), which a test pins. A body edited into something else changes its
// tree leaf, which the tree reports anyway.
type fastMirror struct {
	p fastjson.Parser
}

// check returns the first column that disagrees with the body, and whether
// the body carries every column it could be compared on.
func (f *fastMirror) check(rec *Record) (*mismatch, bool) {
	m, complete := f.quick(rec)
	if m == nil {
		return nil, complete
	}
	if exact := consistencyProblem(rec); exact != nil {
		return exact, complete
	}
	return nil, complete
}

var errShape = &mismatch{"body", "unexpected shape"}

func (f *fastMirror) quick(rec *Record) (*mismatch, bool) {
	v, err := f.p.ParseBytes(rec.body)
	if err != nil || v.Type() != fastjson.TypeObject {
		return errShape, false
	}
	complete := true
	str := func(val *fastjson.Value, want string) bool {
		if val == nil {
			complete = false
			return true
		}
		b, err := val.StringBytes()
		return err == nil && string(b) == want
	}
	if !str(v.Get("decision_id"), rec.id) || !str(v.Get("requester"), rec.requester) ||
		!str(v.Get("git_head"), rec.gitHead) {
		return errShape, false
	}
	if t := v.Get("time"); t == nil {
		complete = false
	} else if b, err := t.StringBytes(); err != nil || !sameTime(string(b), rec.time) {
		return errShape, false
	}
	if b := v.Get("blocked"); b == nil {
		complete = false
	} else if got, err := b.Bool(); err != nil || got != rec.blocked {
		return errShape, false
	}
	if e := v.Get("exit_code"); e == nil {
		complete = false
	} else if got, err := e.Int64(); err != nil || got != rec.exitCode {
		return errShape, false
	}
	if r := v.Get("request"); r == nil {
		complete = false
	} else if r.Type() != fastjson.TypeObject || !str(r.Get("trigger"), rec.trigger) || !str(r.Get("task"), rec.task) {
		return errShape, false
	}
	g := v.Get("gates")
	if g == nil {
		return nil, false
	}
	gates, err := g.Array()
	if err != nil || len(gates) != len(rec.gates) {
		return errShape, false
	}
	for i, gv := range gates {
		want := rec.gates[i]
		blocks := gv.Get("blocks")
		if blocks == nil {
			return errShape, false // an incomplete gate list: the exact check decides
		}
		b, err := blocks.Bool()
		if err != nil || b != want.Blocks || !str(gv.Get("name"), want.Name) ||
			!str(gv.Get("outcome"), string(want.Outcome)) || !str(gv.Get("severity"), string(want.Severity)) {
			return errShape, false
		}
	}
	return nil, complete
}

// sameTime reports whether a time column is the fixed-width UTC form of
// the body's time, the one spelling append writes: the same instant spelt
// in another zone would drop the decision out of a --since/--until window,
// which compares the column's text.
func sameTime(body, column string) bool {
	col, ok := quickverify.AppendColumnTime(nil, body)
	return ok && string(col) == column
}
