package work

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// SessionRunner fills the "session" namespace.
type SessionRunner struct{ st *store.Store }

// Namespace implements runners.Runner.
func (*SessionRunner) Namespace() string { return NamespaceSession }

// Gather implements runners.Runner: the open session, else the most recent
// one, and the latest handoff. No session at all is status ok with open
// false: "no open session" is a fact session_capacity judges.
func (r *SessionRunner) Gather(ctx context.Context, _ *runners.Scope) facts.Namespace {
	if r.st == nil {
		return facts.Error(noStore)
	}
	st, err := r.st.SessionStatus(ctx)
	if err != nil {
		return facts.Error(fmt.Sprintf("read session: %v", err))
	}
	return facts.OK(SessionFacts(st))
}

// SessionFacts converts the store's session state to its facts shape.
func SessionFacts(st store.SessionState) facts.SessionFacts {
	out := facts.SessionFacts{Open: st.Open, ActiveMinutes: st.ActiveMinutes()}
	if s := st.Session; s != nil {
		out.ID, out.StartedAt, out.EndedAt, out.ToolCalls = s.ID, runners.FormatTime(s.StartedAt), runners.FormatTime(s.EndedAt), s.ToolCalls
	}
	if h := st.Handoff; h != nil {
		out.Handoff = &facts.Handoff{Text: h.Text, WrittenAt: runners.FormatTime(h.WrittenAt), SessionID: h.SessionID}
	}
	return out
}
