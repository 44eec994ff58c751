package hostinit

import (
	"strings"

	"github.com/tailscale/hujson"
)

// Pre and Post are the two hook events every adapter answers
// (`tausik hook <host> pre-tool-use|post-tool-use`).
const (
	Pre  = "pre-tool-use"
	Post = "post-tool-use"
)

// hookCommand is the shell command a host runs for one event.
func hookCommand(cmd []string, host, event string) string {
	return strings.Join(append(append([]string{}, cmd...), "hook", host, event), " ")
}

// isOurs reports whether a host's command string is tausik's hook for host
// and event, whatever command runs tausik (`tausik`, an absolute path, `go
// run .`): init recognises its own entries by their last three words, so a
// changed --command replaces an entry instead of adding a second one.
func isOurs(command any, host, event string) bool {
	s, ok := command.(string)
	if !ok {
		return false
	}
	f := strings.Fields(s)
	n := len(f)
	return n >= 3 && f[n-3] == "hook" && f[n-2] == host && f[n-1] == event
}

// hookSpec is one tausik hook in a host's file: the event key, the entry to
// write, and which field of an entry holds the command.
type hookSpec struct {
	event  string // the host's event name: "PreToolUse", "preToolUse", "pre_write_code", …
	ours   string // Pre or Post
	entry  ordered
	cmdKey string // "command", or Copilot's "bash"
}

// hookList is the list under hooks.<event>, both created when missing;
// ErrMalformed when either is there with the wrong type.
func (d *jsonDoc) hookList(event string) (node, *hujson.Array, error) {
	hooks, err := d.objectAt(d.top(), "hooks")
	if err != nil {
		return node{}, nil, err
	}
	list, err := d.arrayAt(hooks, event)
	if err != nil {
		return node{}, nil, err
	}
	arr, _ := list.array()
	return list, arr, nil
}

// mergeGrouped puts a Claude-style hook (hooks.<Event> is a list of
// {matcher, hooks: [{type, command}]} groups) into the document. A group
// that holds only tausik's hook is tausik's: the first is made equal to
// want, further ones are dropped. A tausik hook inside someone else's group
// is taken out of it, and want is appended when no group of tausik's is left.
func (d *jsonDoc) mergeGrouped(host string, s hookSpec) error {
	list, arr, err := d.hookList(s.event)
	if err != nil {
		return err
	}
	placed := false
	for i := 0; i < len(arr.Elements); i++ {
		g := node{v: &arr.Elements[i], depth: list.depth + 1, path: list.path}
		inner, ok := g.get("hooks")
		if !ok {
			continue
		}
		ia, ok := inner.array()
		if !ok {
			continue
		}
		var mine []int
		for j := range ia.Elements {
			h := decode(node{v: &ia.Elements[j]})
			if m, ok := h.(map[string]any); ok && isOurs(m[s.cmdKey], host, s.ours) {
				mine = append(mine, j)
			}
		}
		switch {
		case len(mine) == 0:
		case len(mine) == len(ia.Elements) && !placed:
			d.replace(g, s.entry)
			placed = true
		case len(mine) == len(ia.Elements):
			removeElem(list, i)
			i--
		default:
			for k := len(mine) - 1; k >= 0; k-- {
				removeElem(inner, mine[k])
			}
		}
	}
	if !placed {
		d.appendElem(list, s.entry)
	}
	return nil
}

// mergeFlat puts a hook into a host whose hooks.<event> is a list of flat
// entries ({command, matcher?}: Cursor, Copilot, Windsurf): the first entry
// of tausik's is made equal to want, further ones are dropped, and want is
// appended when there is none.
func (d *jsonDoc) mergeFlat(host string, s hookSpec) error {
	list, arr, err := d.hookList(s.event)
	if err != nil {
		return err
	}
	placed := false
	for i := 0; i < len(arr.Elements); i++ {
		e := node{v: &arr.Elements[i], depth: list.depth + 1, path: list.path}
		m, ok := decode(e).(map[string]any)
		if !ok || !isOurs(m[s.cmdKey], host, s.ours) {
			continue
		}
		if placed {
			removeElem(list, i)
			i--
			continue
		}
		d.replace(e, s.entry)
		placed = true
	}
	if !placed {
		d.appendElem(list, s.entry)
	}
	return nil
}

// group is a Claude-style hook group running command for the tools matcher
// names ("" = every tool: the matcher is left out); guard adds the host's
// fail-closed fields to the hook.
func group(matcher, command, name string, guard ordered) ordered {
	h := append(ordered{{"type", "command"}, {"command", command}}, guard...)
	if name != "" {
		h = append(ordered{{"name", name}}, h...)
	}
	g := ordered{}
	if matcher != "" {
		g = append(g, member{"matcher", matcher})
	}
	return append(g, member{"hooks", []any{h}})
}
