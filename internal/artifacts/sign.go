package artifacts

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/internal/canonjson"
	"github.com/tausik/tausik/store/receipt"
)

// unsigned are the ADAPT fields a signature does not cover: the signatures
// themselves, the links (a task linked later implements the reading, it does
// not change it; the interpreted SPEC stays covered as tz_ref) and the
// lifecycle (status, updated_at, supersession), which moves after a reading
// is signed without changing what was signed.
var unsigned = map[string]bool{
	"signatures": true, "links": true, "status": true, "updated_at": true, "superseded_by": true, "supersession_rationale": true,
}

// canonicalPrefix versions the signed message.
const canonicalPrefix = "tausik-renar-adapt/v1\n"

// Canonical is an ADAPT's canonical content: a version line, its front
// matter without the unsigned fields as canonical JSON (keys sorted, every
// scalar as its text, so re-encoding the YAML changes nothing), a newline and
// the body with CRLF read as LF. Any edit to a covered field or to the body
// changes it.
func Canonical(d *Doc) []byte {
	var b bytes.Buffer
	b.WriteString(canonicalPrefix)
	front := canonjson.Members{}
	for i := 0; i+1 < len(d.Front.Content); i += 2 {
		if k := d.Front.Content[i].Value; !unsigned[k] {
			front = append(front, canonjson.Member{Key: k, Value: plain(d.Front.Content[i+1], 1)})
		}
	}
	// Strings, nulls, lists and members always encode.
	enc, _ := canonjson.MarshalEscaped(front)
	b.Write(enc)
	b.WriteByte('\n')
	b.Write(bytes.ReplaceAll(d.Body, []byte("\r\n"), []byte("\n")))
	return b.Bytes()
}

// maxDepth bounds alias expansion, so a YAML bomb cannot loop.
const maxDepth = 64

// plain is n as the values canonjson encodes: a mapping as its members in
// order (a key given twice kept twice), a sequence as a list, a null as
// nil and every other scalar as its text; past maxDepth, nil.
func plain(n *yaml.Node, depth int) any {
	if depth > maxDepth {
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias != nil {
			return plain(n.Alias, depth+1)
		}
		return nil
	case yaml.MappingNode:
		m := canonjson.Members{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m = append(m, canonjson.Member{Key: n.Content[i].Value, Value: plain(n.Content[i+1], depth+1)})
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, e := range n.Content {
			l = append(l, plain(e, depth+1))
		}
		return l
	}
	if n.Tag == "!!null" {
		return nil
	}
	return n.Value
}

// message is what a signature signs: the canonical content bound to the
// signature's own role, signer and time, so none of them can be edited
// without breaking it.
func message(canonical []byte, role, by, at string) []byte {
	out := append([]byte{}, canonical...)
	return fmt.Appendf(out, "\x00role=%s\x00signed_by=%s\x00signed_at=%s", role, by, at)
}

// Check is what checking one signature found.
type Check struct {
	// KeyFound is true when a known public key has the signature's
	// fingerprint; Valid when the signature checks against it over the
	// ADAPT's current canonical content. Reason names what failed.
	KeyFound bool   `json:"key_found"`
	Valid    bool   `json:"valid"`
	Reason   string `json:"reason"`
}

// Keyring maps key fingerprints to the public keys signatures are checked
// against.
type Keyring map[string]ed25519.PublicKey

// LoadKeyring reads the committed public keys under renar/keys/ (*.pub, PEM
// or base64) and the project key's public half (.tausik/keys/signing.pub).
// A key file that cannot be read is listed in problems and skipped: the
// signatures naming it then do not check.
func LoadKeyring(root string) (Keyring, []string) {
	ring := Keyring{}
	var problems []string
	if pub, err := receipt.LoadPublicKey(receipt.KeyDir(root)); err == nil {
		ring[receipt.Fingerprint(pub)] = pub
	}
	files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(KeysDir), "*.pub"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			var pub ed25519.PublicKey
			if pub, err = receipt.ParsePublicKey(data); err == nil {
				ring[receipt.Fingerprint(pub)] = pub
				continue
			}
		}
		rel, _ := filepath.Rel(root, f)
		problems = append(problems, fmt.Sprintf("%s: %v", filepath.ToSlash(rel), err))
	}
	return ring, problems
}

// Verify checks each of a's signatures over d's canonical content.
func (ring Keyring) Verify(d *Doc, a *Adapt) {
	canon := Canonical(d)
	for i := range a.Signatures {
		s := &a.Signatures[i]
		pub, ok := ring[s.Fingerprint]
		s.KeyFound = ok
		sig, err := base64.StdEncoding.DecodeString(s.Signature)
		switch {
		case !ok:
			s.Reason = fmt.Sprintf("no known public key has fingerprint %q (looked in %s/ and the project key)", s.Fingerprint, KeysDir)
		case err != nil || len(sig) != ed25519.SignatureSize:
			s.Reason = "the signature is not the base64 of an ed25519 signature"
		case !ed25519.Verify(pub, message(canon, s.Role, s.SignedBy, s.SignedAt), sig):
			s.Reason = "the ADAPT changed after it was signed (or the signature is not this key's)"
		default:
			s.Valid = true
		}
	}
}

// LoadPrivateKey reads an ed25519 private key (PEM, PKCS#8) from path, the
// form `tausik key init` writes. A key file group or others can read is
// refused, as for the project key.
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKey, err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s is readable by others (mode %04o): chmod 600 it", ErrKey, path, info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKey, err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: %s holds no PEM PRIVATE KEY block", ErrKey, path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrKey, path, err)
	}
	priv, ok := parsed.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not an ed25519 key", ErrKey, path)
	}
	return priv, nil
}

// ProjectKey loads the project signing key from .tausik/keys/.
func ProjectKey(root string) (ed25519.PrivateKey, error) {
	k, err := receipt.LoadKey(receipt.KeyDir(root))
	if err != nil {
		return nil, fmt.Errorf("%w: %v (run `tausik key init`, or name a key with --key)", ErrKey, err)
	}
	return k.Private, nil
}

// sign adds role's signature by signer over d's canonical content, replacing
// an earlier signature of the same role and key (a re-sign after an edit).
func sign(d *Doc, key ed25519.PrivateKey, role, by string, at time.Time) (Signature, error) {
	pub := key.Public().(ed25519.PublicKey)
	s := Signature{Role: role, SignedBy: by, SignedAt: at.UTC().Format(time.RFC3339), Fingerprint: receipt.Fingerprint(pub)}
	s.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, message(Canonical(d), s.Role, s.SignedBy, s.SignedAt)))
	var kept []*yaml.Node
	if n := d.Get("signatures"); n != nil && n.Kind == yaml.SequenceNode {
		for _, it := range n.Content {
			f := (&reader{d: d, lines: map[string]int{}}).fields(it, "signatures", "role", "fingerprint")
			if f["role"] == role && f["fingerprint"] == s.Fingerprint {
				continue
			}
			kept = append(kept, it)
		}
	}
	kept = append(kept, Map("role", s.Role, "signed_by", s.SignedBy, "signed_at", s.SignedAt,
		"fingerprint", s.Fingerprint, "signature", s.Signature))
	d.Set("signatures", Seq(kept...))
	return s, nil
}

// publishKey writes pub under renar/keys/ unless a committed key file
// already holds it, so a checkout without .tausik/ (CI, a reviewer) can
// check the signature. It returns the file written, "" when none was needed.
func publishKey(root string, pub ed25519.PublicKey) (string, error) {
	dir := filepath.Join(root, filepath.FromSlash(KeysDir))
	files, _ := filepath.Glob(filepath.Join(dir, "*.pub"))
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			if p, err := receipt.ParsePublicKey(data); err == nil && p.Equal(pub) {
				return "", nil
			}
		}
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrKey, err)
	}
	name := strings.TrimPrefix(receipt.Fingerprint(pub), "sha256:")[:16] + ".pub"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("publish key: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})); err != nil {
		return "", err
	}
	return KeysDir + "/" + name, nil
}
