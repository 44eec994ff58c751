// Package canonjson is the one JSON encoder for the bytes tausik hashes,
// signs or compares byte for byte later: decision-log bodies, chain-hash
// preimages and export lines, verify receipts, and the signed content of
// RENAR ADAPT files (internal/artifacts).
//
// It is encoding/json with sorted map keys, no HTML escaping and no trailing
// newline (MarshalEscaped: with encoding/json's HTML escaping, the spelling
// ADAPT signatures are made over), deliberately pinned here rather than
// shared with the facts' faster encoder (facts.Canonical), so that the bytes
// of rows already on disk and of signatures already made can never change
// with another package's encoder (TestBytesPinned).
//
// The facts document has the other canonical encoder, facts.Canonical: the
// two are kept apart on purpose, one for what is hashed and kept, one for
// what is evaluated.
package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// Marshal encodes v. Struct fields come out in declaration order, so a struct
// that is to be canonical declares its fields in sorted key order.
func Marshal(v any) ([]byte, error) { return marshal(v, false) }

// MarshalEscaped is Marshal with encoding/json's HTML escaping: <, > and &
// (and U+2028, U+2029, as always) as \u escapes.
func MarshalEscaped(v any) ([]byte, error) { return marshal(v, true) }

func marshal(v any, escapeHTML bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Members is a JSON object given as its members in order, a key given twice
// kept twice (a map cannot hold it): it encodes with its members sorted by
// key, stably, as a map's keys are sorted.
type Members []Member

// Member is one key and its value.
type Member struct {
	Key   string
	Value any
}

// MarshalJSON implements json.Marshaler. Its strings are not HTML-escaped;
// MarshalEscaped escapes them when it compacts the result.
func (m Members) MarshalJSON() ([]byte, error) {
	sorted := slices.Clone(m)
	slices.SortStableFunc(sorted, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	b := []byte{'{'}
	for i, e := range sorted {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := Marshal(e.Key)
		if err != nil {
			return nil, err
		}
		v, err := Marshal(e.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// Object re-encodes raw, one JSON object, canonically: sorted keys, no
// insignificant white space, numbers kept as written. Reencode gives the
// bytes without building the document; what it does not take, and every
// error, goes through decodeObject.
func Object(raw []byte) ([]byte, error) {
	if out, ok := Reencode(raw); ok {
		return out, nil
	}
	return decodeObject(raw)
}

// decodeObject is Object the long way: decoded with numbers as written,
// then Marshal.
func decodeObject(raw []byte) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("empty")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return Marshal(doc)
}
