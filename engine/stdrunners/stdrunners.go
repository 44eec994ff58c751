// Package stdrunners is the standard set of runners a project is judged
// with, one per facts namespace, sharing the store's fact cache.
package stdrunners

import (
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/content"
	"github.com/tausik/tausik/runners/documents"
	"github.com/tausik/tausik/runners/fs"
	"github.com/tausik/tausik/runners/git"
	"github.com/tausik/tausik/runners/golang"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/imports"
	"github.com/tausik/tausik/runners/mcpsurface"
	"github.com/tausik/tausik/runners/push"
	"github.com/tausik/tausik/runners/python"
	"github.com/tausik/tausik/runners/renar"
	"github.com/tausik/tausik/runners/stacks"
	"github.com/tausik/tausik/runners/surface"
	"github.com/tausik/tausik/runners/toolcall"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
)

// New returns the standard runners, one per namespace, reading
// workflow state from st and keeping file-derived facts (fs, python, go,
// documents, imports) in its fact cache. The content runner reads its files
// every time: its cached facts are the text itself, and reading them back
// from the store measured slower than reading the files
// (BenchmarkGather10k, docs/performance.md).
func New(st *store.Store) *runners.Registry {
	return runners.NewRegistry(append([]runners.Runner{fsRunner(st), git.New(), goRunner(st), pythonRunner(st), surface.New(cached(st)...), mcpsurface.New(nil, 0),
		content.New(), documents.New(cached(st)...), imports.New(cached(st)...), hosts.New(nil), renar.New(st), stacks.New(), toolcall.New(), push.New(st, nil)}, work.New(st)...)...)
}

// cached is the source option that keeps a runner's facts in st, none when
// there is no store.
func cached(st *store.Store) []runners.SourceOption {
	if st == nil {
		return nil
	}
	return []runners.SourceOption{runners.WithCache(st)}
}

// fsRunner is the files runner, caching file facts in st when there is one.
func fsRunner(st *store.Store) *fs.Runner {
	if st == nil {
		return fs.New()
	}
	return fs.New(fs.WithCache(st))
}

// pythonRunner is the python runner, caching class facts in st when there is
// one.
func pythonRunner(st *store.Store) *python.Runner {
	if st == nil {
		return python.New()
	}
	return python.New(runners.WithCache(st))
}

// goRunner is the go runner, caching Go facts in st when there is one.
func goRunner(st *store.Store) *golang.Runner {
	if st == nil {
		return golang.New()
	}
	return golang.New(runners.WithCache(st))
}
