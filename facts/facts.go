// Package facts defines the facts document that runners produce and policies read.
//
// A document is one JSON object, versioned by Schema, holding one namespace per
// runner. Every namespace carries a status and, when the status is not ok, a
// reason, so a policy can tell "nothing to report" from "could not look".
// Facts are observations only; thresholds and decisions live in policies.
package facts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// Schema is the version tag every facts document carries under the key "schema".
const Schema = "tausik-facts/v1"

// Status says whether a runner could gather its namespace.
type Status string

// The three namespace statuses. A policy turns anything but StatusOK into
// NOT_APPLICABLE or COULD_NOT_RUN; the engine never lets it become a pass.
const (
	StatusOK          Status = "ok"
	StatusUnavailable Status = "unavailable" // the source does not exist here (not a git repo, no open session)
	StatusError       Status = "error"       // the source exists but reading it failed
)

// Valid reports whether s is one of the three statuses.
func (s Status) Valid() bool {
	return s == StatusOK || s == StatusUnavailable || s == StatusError
}

// Namespace is one runner's contribution to the document. Data holds the
// observations: a struct or map that encodes to a JSON object whose keys must not
// be "status" or "reason" (those are the namespace's own).
type Namespace struct {
	Status Status
	Reason string
	Data   any
}

// OK returns a namespace with status ok holding data.
func OK(data any) Namespace { return Namespace{Status: StatusOK, Data: data} }

// Unavailable returns a namespace whose source does not exist here.
func Unavailable(reason string) Namespace {
	return Namespace{Status: StatusUnavailable, Reason: reason}
}

// Error returns a namespace whose source could not be read.
func Error(reason string) Namespace { return Namespace{Status: StatusError, Reason: reason} }

// Document is a facts document: namespaces keyed by name.
type Document struct {
	Namespaces map[string]Namespace
}

// NewDocument returns an empty document.
func NewDocument() *Document { return &Document{Namespaces: map[string]Namespace{}} }

// Set stores ns under name, replacing any earlier namespace of that name.
func (d *Document) Set(name string, ns Namespace) { d.Namespaces[name] = ns }

// Names returns the namespace names in sorted order.
func (d *Document) Names() []string {
	names := make([]string, 0, len(d.Namespaces))
	for n := range d.Namespaces {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Generic converts the document to plain JSON values (map[string]any, []any,
// string, bool, int64, float64, nil) as policies see it: integers stay
// integers, so CEL and Rego compare them without float surprises.
func (d *Document) Generic() (map[string]any, error) {
	out := make(map[string]any, len(d.Namespaces)+1)
	out["schema"] = Schema
	for name, ns := range d.Namespaces {
		v, err := ns.Generic()
		if err != nil {
			return nil, fmt.Errorf("namespace %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// Generic converts one namespace to a plain JSON object including status and reason.
func (ns Namespace) Generic() (map[string]any, error) {
	obj := map[string]any{}
	if ns.Data != nil {
		v, err := ToGeneric(ns.Data)
		if err != nil {
			return nil, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("data must encode to a JSON object, got %T", v)
		}
		obj = m
	}
	if _, clash := obj["status"]; clash {
		return nil, fmt.Errorf("data must not carry its own %q key", "status")
	}
	obj["status"] = string(ns.Status)
	if ns.Reason != "" || ns.Status != StatusOK {
		obj["reason"] = ns.Reason
	}
	return obj, nil
}

// MarshalJSON encodes the document canonically (sorted keys, no HTML escaping).
func (d *Document) MarshalJSON() ([]byte, error) {
	g, err := d.Generic()
	if err != nil {
		return nil, err
	}
	return Canonical(g)
}

// DigestParts returns the document's digest, "sha256:<hex>" over its
// canonical encoding (MarshalJSON's bytes), and the digest of each of its
// top-level values ("schema" and every namespace), from one encoding. Namespaces whose data is a CanonicalAppender are
// encoded without becoming plain values first.
func (d *Document) DigestParts() (string, map[string]string, error) {
	names := append(d.Names(), "schema")
	sort.Strings(names)
	parts := make(map[string]string, len(names))
	whole := []byte{'{'}
	var b []byte
	for i, k := range names {
		var err error
		if k == "schema" {
			b = appendString(b[:0], Schema)
		} else if b, err = d.Namespaces[k].appendCanonical(b[:0]); err != nil {
			return "", nil, fmt.Errorf("namespace %s: %w", k, err)
		}
		parts[k] = DigestBytes(b)
		if i > 0 {
			whole = append(whole, ',')
		}
		whole = append(appendString(whole, k), ':')
		whole = append(whole, b...)
	}
	return DigestBytes(append(whole, '}')), parts, nil
}

// appendCanonical appends the canonical encoding of the namespace as
// Generic gives it.
func (ns Namespace) appendCanonical(b []byte) ([]byte, error) {
	if w, ok := ns.Data.(namespaceAppender); ok {
		return w.appendNamespace(b, string(ns.Status), ns.Reason, ns.Reason != "" || ns.Status != StatusOK), nil
	}
	a, ok := ns.Data.(CanonicalAppender)
	if !ok {
		g, err := ns.Generic()
		if err != nil {
			return b, err
		}
		c, err := Canonical(g)
		return append(b, c...), err
	}
	start := len(b)
	b = a.AppendCanonical(b)
	b = b[:len(b)-1] // reopen the object for "reason" and "status", which sort after its keys
	if len(b)-start > 1 {
		b = append(b, ',')
	}
	if ns.Reason != "" || ns.Status != StatusOK {
		b = append(appendString(b, "reason"), ':')
		b = append(appendString(b, ns.Reason), ',')
	}
	b = append(appendString(b, "status"), ':')
	return append(appendString(b, string(ns.Status)), '}'), nil
}

// DigestBytes returns "sha256:<hex>" of b.
func DigestBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Canonical encodes v as JSON with sorted object keys, no insignificant
// whitespace and no HTML escaping, so equal values give equal bytes. Plain
// values take a fast path; anything else goes through encoding/json, with the
// same result.
func Canonical(v any) ([]byte, error) {
	if b, ok := appendPlain(nil, v); ok {
		return b, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Plainer is implemented by namespace data that can turn itself into plain
// values faster than a JSON round trip (large, hot namespaces such as files).
type Plainer interface {
	Plain() map[string]any
}

// ToGeneric converts any JSON-encodable value to plain JSON values with
// integers as int64 (see Document.Generic).
func ToGeneric(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return v, nil
	case int:
		return int64(x), nil
	case Plainer:
		return x.Plain(), nil
	}
	if g, ok := plainOf(reflect.ValueOf(v)); ok {
		return g, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeGeneric(b)
}

// DecodeGeneric parses JSON into plain values with integers as int64.
func DecodeGeneric(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return normalize(raw), nil
}

func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	default:
		return v
	}
}
