package merkle

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"golang.org/x/mod/sumdb/tlog"
)

// BundleSchema tags every inclusion-proof bundle; a document without it is
// not a bundle.
const BundleSchema = "tausik-inclusion-proof/v1"

// Bundle errors: ErrNotBundle for bytes that are not a bundle at all,
// ErrInvalidBundle for a bundle that parses but does not prove what it says.
var (
	ErrNotBundle     = errors.New("not a tausik inclusion-proof bundle")
	ErrInvalidBundle = errors.New("inclusion proof does not verify")
)

// Bundle is one decision with everything needed to check, with no database,
// that it is in the log a signed checkpoint describes.
type Bundle struct {
	Schema     string `json:"schema"`
	DecisionID string `json:"decision_id"`
	// Index is the decision's leaf index (its seq minus one).
	Index int64 `json:"index"`
	// Record is the decision's stored bytes exactly as stored, as a JSON
	// string so no tool can re-encode it on the way: the leaf hash is
	// tlog.RecordHash of these bytes.
	Record string `json:"record"`
	// Proof is the inclusion proof, base64 hashes from leaf to root.
	Proof []string `json:"proof"`
	// Checkpoint is the signed note the proof leads to.
	Checkpoint string `json:"checkpoint"`
	// VerifierKey is the note verifier key of the checkpoint's signer, so
	// the bundle checks on its own; pin the expected key to trust it.
	VerifierKey string `json:"verifier_key"`
}

// NewBundle assembles a bundle and checks it before handing it out, so a
// bundle is never born broken.
func NewBundle(id string, index int64, record []byte, proof tlog.RecordProof, checkpoint []byte, vkey string) ([]byte, error) {
	b := Bundle{Schema: BundleSchema, DecisionID: id, Index: index, Record: string(record),
		Proof: make([]string, len(proof)), Checkpoint: string(checkpoint), VerifierKey: vkey}
	for i, h := range proof {
		b.Proof[i] = base64.StdEncoding.EncodeToString(h[:])
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return nil, fmt.Errorf("encode bundle: %w", err)
	}
	if _, err := VerifyBundle(buf.Bytes(), nil); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Verified is what a checked bundle proves.
type Verified struct {
	Bundle
	Checkpoint Opened
	// Pinned is true when the signature was checked against a key the
	// caller trusts, false when only against the key the bundle embeds.
	Pinned bool
}

// VerifyBundle checks a bundle offline: the checkpoint's signature (against
// the trusted keys, or, with none, the verifier key the bundle embeds), the
// record's decision id, and the inclusion proof from tlog.RecordHash of the
// record's bytes to the checkpoint's root. Errors: ErrNotBundle,
// ErrInvalidBundle (wrapping ErrBadSignature for another key).
func VerifyBundle(data []byte, trusted []Trusted) (Verified, error) {
	var b Bundle
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return Verified{}, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	if dec.More() {
		return Verified{}, fmt.Errorf("%w: data after the bundle", ErrNotBundle)
	}
	if b.Schema != BundleSchema {
		return Verified{}, fmt.Errorf("%w: schema %q, want %q", ErrNotBundle, b.Schema, BundleSchema)
	}
	v := Verified{Bundle: b, Pinned: len(trusted) > 0}
	invalid := func(format string, args ...any) (Verified, error) {
		return v, fmt.Errorf("%w: %s", ErrInvalidBundle, fmt.Sprintf(format, args...))
	}
	if !v.Pinned {
		t, err := ParseTrusted(b.VerifierKey)
		if err != nil {
			return invalid("embedded verifier key: %v", err)
		}
		trusted = []Trusted{t}
	}
	cp, err := Open([]byte(b.Checkpoint), trusted...)
	switch {
	case errors.Is(err, ErrBadSignature):
		return v, fmt.Errorf("%w: %w", ErrInvalidBundle, err)
	case err != nil:
		return invalid("checkpoint: %v", err)
	}
	v.Checkpoint = cp
	if b.Index < 0 || b.Index >= cp.Size {
		return invalid("index %d is outside the checkpoint's %d decisions", b.Index, cp.Size)
	}
	var rec struct {
		DecisionID string `json:"decision_id"`
	}
	if err := json.Unmarshal([]byte(b.Record), &rec); err != nil {
		return invalid("record is not a JSON decision: %v", err)
	}
	if rec.DecisionID != b.DecisionID {
		return invalid("record is decision %q, the bundle says %q", rec.DecisionID, b.DecisionID)
	}
	proof := make(tlog.RecordProof, len(b.Proof))
	for i, s := range b.Proof {
		h, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(h) != tlog.HashSize {
			return invalid("proof hash %d is not base64 of %d bytes", i, tlog.HashSize)
		}
		copy(proof[i][:], h)
	}
	if err := tlog.CheckRecord(proof, cp.Size, cp.Root, b.Index, tlog.RecordHash([]byte(b.Record))); err != nil {
		return invalid("the record at index %d does not lead to the checkpoint's root (%v): the record or the proof was changed", b.Index, err)
	}
	return v, nil
}
