// Package golang is the runner for the "go" namespace: the struct types and
// exported methods of every Go file in the repository, read by the shared
// Go reader (runners/internal/goscan), which class_surface uses too.
package golang

import (
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/goscan"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = goscan.Namespace

// Version is the version of the facts the runner caches (goscan.Version).
const Version = goscan.Version

// Runner gathers the "go" namespace: every .go file of the repository,
// whatever files the request names. It is safe for concurrent use.
type Runner = goscan.Runner

// New returns the go runner; runners.WithCache keeps its facts in a store.
func New(opts ...runners.SourceOption) *Runner { return goscan.New(opts...) }
