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
