package app

import (
	"crypto/ed25519"

	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/merkle"
	"github.com/tausik/tausik/store/receipt"
)

// The store's records and refusals as the workflows hand them to cli and
// mcp, which render them and never import the store themselves.
type (
	// Store is an open project store (see project.OpenStore).
	Store = store.Store
	// Task is a task's stored state.
	Task = store.Task
	// Tier is a task's risk tier.
	Tier = store.Tier
	// Complexity is a task's declared complexity.
	Complexity = store.Complexity
	// SessionState is the open or last session with its handoff.
	SessionState = store.SessionState
	// LogEntry is one decision as the log lists it.
	LogEntry = store.Entry
	// LogFilter selects decisions from the log.
	LogFilter = store.Filter
	// GateVerdict is one gate's verdict in a logged decision.
	GateVerdict = store.GateVerdict
	// TrustedKey is a checkpoint key a verification trusts.
	TrustedKey = merkle.Trusted
)

// Log outcomes, anchors and refusals the front ends tell apart.
const (
	// OutcomePassed is a decision with no blocking verdict.
	OutcomePassed = store.OutcomePassed
	// AnchorBadSignature is a checkpoint whose signature does not verify.
	AnchorBadSignature = merkle.AnchorBadSignature
)

// Refusals of the store a front end reports as such.
var (
	// ErrNotFound is an id or slug the store does not hold.
	ErrNotFound = store.ErrNotFound
	// ErrAmbiguousID is an id prefix that matches more than one decision.
	ErrAmbiguousID = store.ErrAmbiguousID
)

// ParsePublicKey reads a receipt public key from PEM or base64 (a pinned
// key for receipt verify).
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) { return receipt.ParsePublicKey(data) }
