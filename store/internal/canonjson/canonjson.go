// Package canonjson is the one JSON encoder for the bytes the store hashes,
// signs or compares byte for byte later: decision-log bodies, chain-hash
// preimages and export lines, and verify receipts.
//
// It is encoding/json with sorted map keys, no HTML escaping and no trailing
// newline, deliberately pinned here rather than shared with a faster encoder
// elsewhere (facts.Canonical), so that the bytes of rows already on disk and
// of receipts already signed can never change with another package's
// encoder.
package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Marshal encodes v. Struct fields come out in declaration order, so a struct
// that is to be canonical declares its fields in sorted key order.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
