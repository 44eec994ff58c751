// Package receipt signs and verifies verify-run receipts with the project's
// ed25519 key, and computes the two digests a receipt certifies: the hash of
// a task's declared files and the signature of the enabled verify gates.
//
// A receipt is canonical JSON (sorted keys, no whitespace, no floats: only
// strings and booleans, times as RFC 3339 UTC seconds), so the signed bytes
// are reproducible from the fields and verifiable offline, with no database.
package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tausik/tausik/internal/canonjson"
)

// Schema tags every receipt; a document without it is not a receipt.
const Schema = "tausik-receipt/v1"

// timeLayout keeps receipts to the second: RFC 3339, UTC, no fraction.
const timeLayout = "2006-01-02T15:04:05Z"

// Gate is one verify gate's result as the receipt certifies it.
type Gate struct {
	Name     string `json:"name"`
	Passed   bool   `json:"passed"`
	Severity string `json:"severity"`
}

// Receipt is the signed statement "these gates ran over these files at this
// commit, with this result". RanAt is kept to the second (sub-second parts
// are dropped when encoding); compare it with a stored run's time at that
// precision.
type Receipt struct {
	Schema         string
	Task           string
	GitSHA         string
	Gates          []Gate
	Passed         bool
	RanAt          time.Time
	FilesHash      string
	GateSignature  string
	KeyFingerprint string
}

// wire is the receipt's JSON form, fields in sorted key order.
type wire struct {
	FilesHash      string `json:"files_hash"`
	GateSignature  string `json:"gate_signature"`
	Gates          []Gate `json:"gates"`
	GitSHA         string `json:"git_sha"`
	KeyFingerprint string `json:"key_fingerprint"`
	Passed         bool   `json:"passed"`
	RanAt          string `json:"ran_at"`
	Schema         string `json:"schema"`
	Task           string `json:"task"`
}

// Marshal returns the canonical bytes of r, the exact bytes that get signed.
// Schema defaults to the current one; a zero RanAt or an empty task is an error.
func Marshal(r Receipt) ([]byte, error) {
	if r.Schema == "" {
		r.Schema = Schema
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("marshal receipt: unknown schema %q", r.Schema)
	}
	if r.Task == "" || r.RanAt.IsZero() {
		return nil, errors.New("marshal receipt: task and ran_at are required")
	}
	w := wire{
		FilesHash: r.FilesHash, GateSignature: r.GateSignature, Gates: r.Gates, GitSHA: r.GitSHA,
		KeyFingerprint: r.KeyFingerprint, Passed: r.Passed, RanAt: r.RanAt.UTC().Format(timeLayout),
		Schema: r.Schema, Task: r.Task,
	}
	if w.Gates == nil {
		w.Gates = []Gate{}
	}
	return canonjson.Marshal(w)
}

// Parse decodes receipt bytes strictly: they must be a receipt of the known
// schema with every field present and typed, and already in canonical form
// (re-encoding yields the same bytes), so two different byte strings never
// verify as the same receipt. Anything else is ErrNotReceipt.
func Parse(payload []byte) (Receipt, error) {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	var w wire
	if err := dec.Decode(&w); err != nil {
		return Receipt{}, fmt.Errorf("%w: %v", ErrNotReceipt, err)
	}
	if w.Schema != Schema {
		return Receipt{}, fmt.Errorf("%w: schema %q", ErrNotReceipt, w.Schema)
	}
	t, err := time.Parse(timeLayout, w.RanAt)
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: ran_at: %v", ErrNotReceipt, err)
	}
	r := Receipt{
		Schema: w.Schema, Task: w.Task, GitSHA: w.GitSHA, Gates: w.Gates, Passed: w.Passed, RanAt: t,
		FilesHash: w.FilesHash, GateSignature: w.GateSignature, KeyFingerprint: w.KeyFingerprint,
	}
	canon, err := Marshal(r)
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: %v", ErrNotReceipt, err)
	}
	if !bytes.Equal(canon, payload) {
		return Receipt{}, fmt.Errorf("%w: not in canonical form", ErrNotReceipt)
	}
	return r, nil
}

// Sign stamps r with k's fingerprint, encodes it canonically and signs the
// bytes. It returns both: the caller stores exactly these bytes next to the
// signature. A receipt already naming another key is ErrKeyMismatch.
func Sign(r Receipt, k Key) (payload, sig []byte, err error) {
	if len(k.Private) != ed25519.PrivateKeySize {
		return nil, nil, fmt.Errorf("sign receipt: %w", ErrBadKey)
	}
	fp := k.Fingerprint()
	if r.KeyFingerprint != "" && r.KeyFingerprint != fp {
		return nil, nil, fmt.Errorf("sign receipt: names key %s, signing key is %s: %w", r.KeyFingerprint, fp, ErrKeyMismatch)
	}
	r.KeyFingerprint = fp
	payload, err = Marshal(r)
	if err != nil {
		return nil, nil, err
	}
	return payload, ed25519.Sign(k.Private, payload), nil
}

// Verify checks sig over payload with pub and returns the parsed receipt.
// Errors: ErrBadKey (pub malformed), ErrKeyMismatch (the receipt names
// another key), ErrBadSignature (bytes or signature altered), ErrNotReceipt
// (validly signed bytes that are not a receipt).
func Verify(payload, sig []byte, pub ed25519.PublicKey) (Receipt, error) {
	if len(pub) != ed25519.PublicKeySize {
		return Receipt{}, fmt.Errorf("verify receipt: %w", ErrBadKey)
	}
	fp := Fingerprint(pub)
	if len(sig) != ed25519.SignatureSize || !ed25519.Verify(pub, payload, sig) {
		if r, err := Parse(payload); err == nil && r.KeyFingerprint != fp {
			return Receipt{}, fmt.Errorf("verify receipt: signed by %s, checked against %s: %w", r.KeyFingerprint, fp, ErrKeyMismatch)
		}
		return Receipt{}, fmt.Errorf("verify receipt: %w", ErrBadSignature)
	}
	r, err := Parse(payload)
	if err != nil {
		return Receipt{}, fmt.Errorf("verify receipt: %w", err)
	}
	if r.KeyFingerprint != fp {
		return Receipt{}, fmt.Errorf("verify receipt: names key %s, signed by %s: %w", r.KeyFingerprint, fp, ErrKeyMismatch)
	}
	return r, nil
}
