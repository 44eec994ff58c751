package app

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
)

// Facts returns the facts document e gathers for req as plain values:
// every namespace but the command gates', or only those named (with the
// schema).
func Facts(ctx context.Context, e *engine.Engine, req engine.Request, namespaces []string) (map[string]any, error) {
	doc, err := e.Facts(ctx, req, namespaces)
	if err != nil {
		return nil, err
	}
	plain, err := doc.Generic()
	if err != nil || len(namespaces) == 0 {
		return plain, err
	}
	keep := map[string]any{"schema": facts.Schema}
	for _, n := range namespaces {
		keep[n] = plain[n]
	}
	return keep, nil
}

// SignLogCheckpoint signs a checkpoint of e's decision log with the
// project's checkpoint key (as `log checkpoint` without --key).
func SignLogCheckpoint(ctx context.Context, e *engine.Engine, getenv func(string) string) ([]byte, error) {
	if e.Store() == nil {
		return nil, fmt.Errorf("%w: no decision log to checkpoint", diag.ErrStore)
	}
	key, err := LoadCheckpointKey(ctx, e.Root(), "", getenv)
	if err != nil {
		return nil, err
	}
	return SignCheckpoint(ctx, e.Store(), e.Root(), key, getenv)
}
