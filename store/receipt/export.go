package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/tausik/tausik/internal/canonjson"
)

// exportFile is the one-file, offline-verifiable form of a receipt.
type exportFile struct {
	PublicKey string          `json:"public_key"` // base64 of the raw 32-byte key
	Receipt   json.RawMessage `json:"receipt"`    // the signed receipt, as a JSON object
	Signature string          `json:"signature"`  // base64 of the 64-byte signature
}

// Export bundles a signed receipt with its signature and public key into one
// JSON document that VerifyExport can check anywhere, with no database. The
// receipt stays a readable JSON object; it is checked to be a receipt and to
// verify before it is exported, so an export is never born broken.
func Export(payload, sig []byte, pub ed25519.PublicKey) ([]byte, error) {
	if _, err := Verify(payload, sig, pub); err != nil {
		return nil, fmt.Errorf("export receipt: %w", err)
	}
	b, err := canonjson.Marshal(exportFile{
		PublicKey: base64.StdEncoding.EncodeToString(pub),
		Receipt:   json.RawMessage(payload),
		Signature: base64.StdEncoding.EncodeToString(sig),
	})
	if err != nil {
		return nil, fmt.Errorf("export receipt: %w", err)
	}
	return append(b, '\n'), nil
}

// VerifyExport checks an exported receipt offline. With pinned nil it proves
// only that the receipt is intact and signed by the key it embeds — anyone
// can make such a file, so callers should pin the project's public key
// (LoadPublicKey / ParsePublicKey) whenever they have it; a different embedded
// key is then ErrKeyMismatch. Re-indenting the file keeps it valid (the
// receipt object is compacted before checking); changing any value does not.
//
// Errors: ErrNotReceipt (not an export, or the receipt is not a receipt),
// ErrKeyMismatch, ErrBadSignature, ErrBadKey.
func VerifyExport(data []byte, pinned ed25519.PublicKey) (Receipt, error) {
	var f exportFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil || len(f.Receipt) == 0 || f.PublicKey == "" || f.Signature == "" {
		return Receipt{}, fmt.Errorf("verify receipt export: %w: expected {receipt, signature, public_key}", ErrNotReceipt)
	}
	if f.Receipt[0] != '{' {
		return Receipt{}, fmt.Errorf("verify receipt export: %w: receipt is not a JSON object", ErrNotReceipt)
	}
	var tag struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(f.Receipt, &tag); err != nil || tag.Schema != Schema {
		return Receipt{}, fmt.Errorf("verify receipt export: %w: receipt schema is not %s", ErrNotReceipt, Schema)
	}
	var payload bytes.Buffer
	if err := json.Compact(&payload, f.Receipt); err != nil {
		return Receipt{}, fmt.Errorf("verify receipt export: %w: %v", ErrNotReceipt, err)
	}
	pub, err := ParsePublicKey([]byte(f.PublicKey))
	if err != nil {
		return Receipt{}, fmt.Errorf("verify receipt export: public_key: %w", err)
	}
	if pinned != nil && !pub.Equal(pinned) {
		return Receipt{}, fmt.Errorf("verify receipt export: embedded key %s is not the pinned key %s: %w",
			Fingerprint(pub), Fingerprint(pinned), ErrKeyMismatch)
	}
	sig, err := base64.StdEncoding.DecodeString(f.Signature)
	if err != nil {
		return Receipt{}, fmt.Errorf("verify receipt export: signature: %w", ErrBadSignature)
	}
	r, err := Verify(payload.Bytes(), sig, pub)
	if err != nil {
		return Receipt{}, fmt.Errorf("verify receipt export: %w", err)
	}
	return r, nil
}
