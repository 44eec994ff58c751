package engine

import "github.com/tausik/tausik/runners"

// attribute marks StateElsewhere the violations of dec that the change req
// is about did not cause. It is filled in by new-code evaluation.
func (e *Engine) attribute(req Request, scope *runners.Scope, dec *Decision) {}
