package policytest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts"
	"github.com/tausik/tausik/internal/yamlread"
)

// ToolSpec is the agent tool call a tree/ fixture carries (case.yaml
// `tool:`): a host's hook payload as the hook would receive it, read by that
// host's adapter against the fixture's tree ("$ROOT" in its strings is the
// tree's directory, and a payload without a cwd runs there), or the
// normalised call, given as the tool namespace itself.
type ToolSpec struct {
	Host    string
	Payload []byte      // the payload's JSON, "$ROOT" not yet expanded
	Call    *facts.Tool // the normalised call
}

// parseToolSpec reads case.yaml's tool: section.
func parseToolSpec(r yamlread.Reader, n *yaml.Node) *ToolSpec {
	f := r.Fields(n, "tool", "host", "payload", "call")
	spec := &ToolSpec{}
	switch {
	case f["payload"] != nil && f["call"] == nil:
		r.Require(n, f, "tool", "host")
		spec.Host = r.Str(f["host"], "tool.host")
		b, err := json.Marshal(r.Value(f["payload"], "tool.payload"))
		if err != nil {
			r.D.Add(r.File, f["payload"].Line, "tool.payload: %v", err)
			return nil
		}
		spec.Payload = b
	case f["call"] != nil && f["payload"] == nil && f["host"] == nil:
		b, err := json.Marshal(r.Value(f["call"], "tool.call"))
		if err != nil {
			r.D.Add(r.File, f["call"].Line, "tool.call: %v", err)
			return nil
		}
		var t facts.Tool
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			r.D.Add(r.File, f["call"].Line, "tool.call: not the tool namespace's shape: %v", err)
			return nil
		}
		fill(&t)
		spec.Call = &t
	default:
		r.D.Add(r.File, n.Line, "tool: give either host: and payload: (a hook payload) or call: (the normalised call)")
		return nil
	}
	return spec
}

// fill makes the given call's lists non-null, as the engine's are.
func fill(t *facts.Tool) {
	t.Commands, t.Targets, t.UnknownWrites, t.Writes = nonNil(t.Commands), nonNil(t.Targets), nonNil(t.UnknownWrites), nonNil(t.Writes)
	for i := range t.Commands {
		t.Commands[i].Redirects, t.Commands[i].Heredocs = nonNil(t.Commands[i].Redirects), nonNil(t.Commands[i].Heredocs)
	}
	for i := range t.Writes {
		t.Writes[i].Added = nonNil(t.Writes[i].Added)
	}
}

// toolFacts gathers a tree/ case's facts with its tool call judged against
// dir, the tree's temporary copy.
func toolFacts(ctx context.Context, e *engine.Engine, g *gate.Gate, c *Case, dir string, req facts.Request) (*facts.Document, error) {
	spec := c.Tool
	if spec.Call != nil {
		return e.GatherFixtureCall(ctx, g, c.Params, dir, req, c.Store, nil, spec.Call)
	}
	payload := strings.ReplaceAll(string(spec.Payload), "$ROOT", dir)
	env := hosts.Env{WD: dir, Getenv: func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}, Stderr: os.Stderr}
	call, err := hosts.Normalise(spec.Host, []byte(payload), env)
	if err != nil {
		return nil, fmt.Errorf("%s: tool: %w", c.Dir, err)
	}
	return e.GatherFixtureCall(ctx, g, c.Params, dir, req, c.Store, &call, nil)
}
