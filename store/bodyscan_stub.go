package store

import "github.com/valyala/fastjson"

// TEMPORARY stand-in until h-scan lands.
type bodyFields struct {
	id, time, requester, gitHead, trigger, task []byte
	exitCode                                    int64
	blocked                                     bool
	gates                                       []bodyGate
	p                                           fastjson.Parser
}
type bodyGate struct {
	name, outcome, severity []byte
	blocks                  bool
}

func scanBody(body []byte, f *bodyFields) bool {
	v, err := f.p.ParseBytes(body)
	if err != nil {
		return false
	}
	str := func(v *fastjson.Value, keys ...string) ([]byte, bool) {
		x := v.Get(keys...)
		if x == nil {
			return nil, false
		}
		b, err := x.StringBytes()
		return b, err == nil
	}
	var ok [6]bool
	f.id, ok[0] = str(v, "decision_id")
	f.time, ok[1] = str(v, "time")
	f.requester, ok[2] = str(v, "requester")
	f.gitHead, ok[3] = str(v, "git_head")
	f.trigger, ok[4] = str(v, "request", "trigger")
	f.task, ok[5] = str(v, "request", "task")
	for _, o := range ok {
		if !o {
			return false
		}
	}
	e := v.Get("exit_code")
	bl := v.Get("blocked")
	gs := v.Get("gates")
	if e == nil || bl == nil || gs == nil {
		return false
	}
	if f.exitCode, err = e.Int64(); err != nil {
		return false
	}
	if f.blocked, err = bl.Bool(); err != nil {
		return false
	}
	arr, err := gs.Array()
	if err != nil {
		return false
	}
	f.gates = f.gates[:0]
	for _, g := range arr {
		var x bodyGate
		var o1, o2, o3 bool
		x.name, o1 = str(g, "name")
		x.outcome, o2 = str(g, "outcome")
		x.severity, o3 = str(g, "severity")
		b := g.Get("blocks")
		if !o1 || !o2 || !o3 || b == nil {
			return false
		}
		if x.blocks, err = b.Bool(); err != nil {
			return false
		}
		f.gates = append(f.gates, x)
	}
	return true
}
