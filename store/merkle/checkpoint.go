package merkle

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Errors of checkpoints and bundles; callers tell them apart with errors.Is.
var (
	// ErrNotCheckpoint marks bytes that are not a signed note holding a
	// C2SP checkpoint body.
	ErrNotCheckpoint = errors.New("not a signed checkpoint")
	// ErrBadSignature: no signature on the checkpoint verifies against a
	// trusted key (it is signed by another key, or a signature was edited).
	ErrBadSignature = errors.New("checkpoint signature does not verify")
	// ErrBadOrigin rejects an origin a checkpoint cannot carry.
	ErrBadOrigin = errors.New("invalid checkpoint origin")
)

// Checkpoint is the body of a C2SP tlog-checkpoint: the log's origin, its
// size and the tree head at that size. Extension lines, if a signer added
// any, are kept but carry no meaning here.
type Checkpoint struct {
	Origin    string
	Size      int64
	Root      tlog.Hash
	Extension []string
}

// Text is the note body: origin, decimal size and base64 root, one per line.
func (c Checkpoint) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d\n%s\n", c.Origin, c.Size, base64.StdEncoding.EncodeToString(c.Root[:]))
	for _, e := range c.Extension {
		b.WriteString(e + "\n")
	}
	return b.String()
}

// ValidOrigin reports whether s can be an origin line and a note key name: a
// non-empty schema-less URL with no space and no '+' (C2SP tlog-checkpoint;
// the key name uses the same rule in golang.org/x/mod/sumdb/note).
func ValidOrigin(s string) bool {
	return s != "" && !strings.Contains(s, "+") && strings.IndexFunc(s, unicode.IsSpace) < 0 &&
		strings.IndexFunc(s, unicode.IsControl) < 0
}

// ParseText parses a checkpoint body.
func ParseText(text string) (Checkpoint, error) {
	bad := func(why string) (Checkpoint, error) {
		return Checkpoint{}, fmt.Errorf("%w: %s", ErrNotCheckpoint, why)
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 4 || lines[len(lines)-1] != "" {
		return bad("want origin, size and root hash lines")
	}
	lines = lines[:len(lines)-1]
	c := Checkpoint{Origin: lines[0]}
	if !ValidOrigin(c.Origin) {
		return bad(fmt.Sprintf("origin %q", c.Origin))
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != lines[1] {
		return bad(fmt.Sprintf("size %q is not a decimal count", lines[1]))
	}
	c.Size = n
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		return bad(fmt.Sprintf("root %q is not base64 of %d bytes", lines[2], tlog.HashSize))
	}
	copy(c.Root[:], root)
	for _, e := range lines[3:] {
		if e == "" {
			return bad("empty extension line")
		}
		c.Extension = append(c.Extension, e)
	}
	return c, nil
}

// Signer signs checkpoints with an ed25519 key under a note key name.
type Signer struct {
	name string
	key  ed25519.PrivateKey
	hash uint32
	vkey string
}

// NewSigner returns a signer for key under name (by convention the log's
// origin, so the verifier key names the log it speaks for).
func NewSigner(name string, key ed25519.PrivateKey) (*Signer, error) {
	if !ValidOrigin(name) {
		return nil, fmt.Errorf("%w: key name %q", ErrBadOrigin, name)
	}
	vkey, err := VerifierKey(name, key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, fmt.Errorf("checkpoint signer: %w", err)
	}
	return &Signer{name: name, key: key, hash: v.KeyHash(), vkey: vkey}, nil
}

// ParseSignerKey reads a note signer key ("PRIVATE+KEY+name+hash+key", as
// note.GenerateKey writes it), for a key made with Go's note tooling.
func ParseSignerKey(skey string) (note.Signer, string, error) {
	s, err := note.NewSigner(strings.TrimSpace(skey))
	if err != nil {
		return nil, "", fmt.Errorf("note signer key: %w", err)
	}
	// The encoded key is "PRIVATE+KEY+name+hash+base64(alg || seed)".
	parts := strings.SplitN(strings.TrimSpace(skey), "+", 5) // base64 may hold '+' too
	raw, err := base64.StdEncoding.DecodeString(parts[len(parts)-1])
	if err != nil || len(raw) != 1+ed25519.SeedSize {
		return nil, "", errors.New("note signer key: not an ed25519 key")
	}
	vkey, err := VerifierKey(s.Name(), ed25519.NewKeyFromSeed(raw[1:]).Public().(ed25519.PublicKey))
	if err != nil {
		return nil, "", err
	}
	return s, vkey, nil
}

// Name implements note.Signer.
func (s *Signer) Name() string { return s.name }

// KeyHash implements note.Signer.
func (s *Signer) KeyHash() uint32 { return s.hash }

// Sign implements note.Signer.
func (s *Signer) Sign(msg []byte) ([]byte, error) { return ed25519.Sign(s.key, msg), nil }

// VerifierKey is the signer's note verifier key, what an auditor pins.
func (s *Signer) VerifierKey() string { return s.vkey }

// VerifierKey encodes pub under name as a note verifier key
// ("name+hash+base64"), the form `--pub` accepts and auditors pin.
func VerifierKey(name string, pub ed25519.PublicKey) (string, error) {
	vkey, err := note.NewEd25519VerifierKey(name, pub)
	if err != nil {
		return "", fmt.Errorf("verifier key: %w", err)
	}
	return vkey, nil
}

// Sign returns the checkpoint as a signed note.
func Sign(c Checkpoint, s note.Signer) ([]byte, error) {
	if !ValidOrigin(c.Origin) {
		return nil, fmt.Errorf("%w: %q", ErrBadOrigin, c.Origin)
	}
	msg, err := note.Sign(&note.Note{Text: c.Text()}, s)
	if err != nil {
		return nil, fmt.Errorf("sign checkpoint: %w", err)
	}
	return msg, nil
}

// Trusted is a key a checkpoint may be signed with: a note verifier key,
// which binds a key name, or a bare ed25519 public key, accepted under
// whatever name the signature line gives.
type Trusted struct {
	Verifier note.Verifier
	Key      string // Verifier's encoded key ("name+hash+key")
	Public   ed25519.PublicKey
}

// ParseTrusted reads a trusted key as a note verifier key; bare public keys
// (PEM or base64) are the caller's to parse into Trusted.Public.
func ParseTrusted(vkey string) (Trusted, error) {
	v, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		return Trusted{}, fmt.Errorf("note verifier key: %w", err)
	}
	return Trusted{Verifier: v, Key: strings.TrimSpace(vkey)}, nil
}

// Opened is a parsed checkpoint and who signed it.
type Opened struct {
	Checkpoint
	Note *note.Note
	// VerifierKeys are the encoded keys ("name+hash+key") whose signature
	// verified; empty when the checkpoint was opened without trusted keys.
	VerifierKeys []string
}

// Open parses a signed checkpoint. With trusted keys, at least one of its
// signatures must verify against one of them (else ErrBadSignature); with
// none, the signatures are parsed but not checked.
func Open(msg []byte, trusted ...Trusted) (Opened, error) {
	_, err := note.Open(msg, note.VerifierList())
	var uv *note.UnverifiedNoteError
	if !errors.As(err, &uv) {
		return Opened{}, fmt.Errorf("%w: %v", ErrNotCheckpoint, err)
	}
	c, err := ParseText(uv.Note.Text)
	if err != nil {
		return Opened{}, err
	}
	if len(trusted) == 0 {
		return Opened{Checkpoint: c, Note: uv.Note}, nil
	}
	var vs []note.Verifier
	keys := map[string]string{} // name+hash → encoded key
	add := func(v note.Verifier, key string) {
		id := fmt.Sprintf("%s+%08x", v.Name(), v.KeyHash())
		if _, dup := keys[id]; !dup { // note.VerifierList calls two equal keys ambiguous
			keys[id] = key
			vs = append(vs, v)
		}
	}
	for _, t := range trusted {
		if t.Verifier != nil {
			add(t.Verifier, t.Key)
		}
		if t.Public == nil {
			continue
		}
		for _, sig := range uv.Note.UnverifiedSigs {
			vkey, err := note.NewEd25519VerifierKey(sig.Name, t.Public)
			if err != nil {
				return Opened{}, fmt.Errorf("checkpoint: %w", err)
			}
			if v, err := note.NewVerifier(vkey); err == nil {
				add(v, vkey)
			}
		}
	}
	n, err := note.Open(msg, note.VerifierList(vs...))
	if err != nil {
		return Opened{Checkpoint: c, Note: uv.Note}, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	o := Opened{Checkpoint: c, Note: n}
	for _, s := range n.Sigs {
		o.VerifierKeys = append(o.VerifierKeys, keys[fmt.Sprintf("%s+%08x", s.Name, s.Hash)])
	}
	return o, nil
}
