package toolcall

import (
	"slices"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// The hook events a Call is judged at, as the tool namespace names them.
const (
	EventPreToolUse  = "pre-tool-use"
	EventPostToolUse = "post-tool-use"
)

// Namespace is c as the tool namespace shows it, its targets being the
// request's repo-relative files, and the text each written path inside the
// project has after the call (the files runner's overlay); rel gives a
// path's name in the project. A path outside the project is not in the
// namespace's writes: it has no repo-relative name, and request.outside
// lists it. A shell command's directory inside the project is named the
// same way ("." for its root); one outside stays absolute.
func Namespace(c *Call, targets []string, rel func(string) (string, bool)) (*facts.Tool, map[string]runners.AfterText) {
	t := &facts.Tool{Host: c.Host, Event: c.Event, Name: c.Tool, Kind: c.Kind, Command: c.Command,
		Commands: nonNil(slices.Clone(c.Shell)), Targets: nonNil(slices.Clone(targets)), UnknownWrites: nonNil(c.Unknown),
		Writes: []facts.ToolWrite{}, MCP: c.MCP, URL: c.URL, Subagent: c.Subagent}
	for i, sc := range t.Commands {
		if name, ok := rel(sc.Dir); ok && sc.Dir != "" {
			t.Commands[i].Dir = name // inside the project: its name there, as targets are
		}
	}
	var after map[string]runners.AfterText
	for _, w := range c.Texts {
		name, ok := rel(w.Path)
		if !ok {
			continue
		}
		tw := facts.ToolWrite{Path: name, Text: w.Text, Added: nonNil(w.Added), Error: w.Err}
		switch {
		case w.Err != "":
			tw.Text = ""
		case !w.Known:
			tw.Error = "the text after the call is not known: " + c.Tool + " is not modelled"
		}
		t.Writes = append(t.Writes, tw)
		if w.Known || w.Err != "" {
			if after == nil {
				after = map[string]runners.AfterText{}
			}
			after[name] = runners.AfterText{Text: tw.Text, Err: w.Err}
		}
	}
	slices.SortStableFunc(t.Writes, func(a, b facts.ToolWrite) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return t, after
}

// nonNil returns s, or an empty slice for nil, so JSON shows [] not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
