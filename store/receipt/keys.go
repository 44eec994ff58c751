package receipt

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tausik/tausik/internal/atomicfile"
)

// File names inside the key directory. PEM (PKCS#8 / PKIX) so the keys also
// work with openssl and other tooling.
const (
	PrivateKeyFile = "signing.key"
	PublicKeyFile  = "signing.pub"
)

// KeyDir is where a project keeps its signing key: <root>/.tausik/keys.
func KeyDir(root string) string { return filepath.Join(root, ".tausik", "keys") }

// Key is a project signing key.
type Key struct {
	Private ed25519.PrivateKey // never leaves .tausik/keys
	Public  ed25519.PublicKey  // what receipts are verified against and exports embed
}

// Fingerprint identifies the key in receipts and messages.
func (k Key) Fingerprint() string { return Fingerprint(k.Public) }

// Fingerprint returns "sha256:" + hex of sha256 over the raw 32-byte public
// key: stable, short to compare, and independent of the file encoding.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// InitKey generates a new key pair in dir (created 0700): the private key in
// a 0600 file, the public key beside it. Without force it refuses to replace
// an existing key (ErrKeyExists). Files are written to temporary names and
// renamed, so a crash never leaves half a key.
func InitKey(dir string, force bool) (Key, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	privPath, pubPath := filepath.Join(dir, PrivateKeyFile), filepath.Join(dir, PublicKeyFile)
	if !force {
		for _, p := range []string{privPath, pubPath} {
			if _, err := os.Lstat(p); err == nil {
				return Key{}, fmt.Errorf("init key: %s: %w", p, ErrKeyExists)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return Key{}, fmt.Errorf("init key: %w", err)
			}
		}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	if err := atomicfile.Write(privPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER}), 0o600); err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	if err := atomicfile.Write(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644); err != nil {
		return Key{}, fmt.Errorf("init key: %w", err)
	}
	return Key{Private: priv, Public: pub}, nil
}

// LoadKey reads the key pair from dir. It refuses a private key file that
// group or others can access (ErrKeyPermissions, on Unix), and a public key
// file that does not belong to the private key (ErrKeyMismatch). A missing
// key is ErrNoKey.
func LoadKey(dir string) (Key, error) {
	privPath := filepath.Join(dir, PrivateKeyFile)
	info, err := os.Stat(privPath)
	if errors.Is(err, fs.ErrNotExist) {
		return Key{}, fmt.Errorf("load key %s: %w", privPath, ErrNoKey)
	}
	if err != nil {
		return Key{}, fmt.Errorf("load key: %w", err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return Key{}, fmt.Errorf("load key %s (mode %04o; chmod 600 it): %w", privPath, info.Mode().Perm(), ErrKeyPermissions)
	}
	data, err := os.ReadFile(privPath)
	if err != nil {
		return Key{}, fmt.Errorf("load key: %w", err)
	}
	priv, err := ParsePrivateKey(data)
	if err != nil {
		return Key{}, fmt.Errorf("load key %s: %w", privPath, err)
	}
	k := Key{Private: priv, Public: priv.Public().(ed25519.PublicKey)}
	pub, err := LoadPublicKey(dir)
	switch {
	case errors.Is(err, ErrNoKey):
	case err != nil:
		return Key{}, err
	case !pub.Equal(k.Public):
		return Key{}, fmt.Errorf("load key: %s does not match %s: %w", PublicKeyFile, PrivateKeyFile, ErrKeyMismatch)
	}
	return k, nil
}

// ParsePrivateKey reads an ed25519 private key in the PEM form InitKey
// writes (PKCS#8 "PRIVATE KEY"), for keys that live outside the key
// directory (a CI secret). Anything else is ErrBadKey.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: no PRIVATE KEY block", ErrBadKey)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	priv, ok := parsed.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: not ed25519", ErrBadKey)
	}
	return priv, nil
}

// LoadPublicKey reads only the public key from dir, for verifying receipts
// where the private key is absent (CI, an auditor's checkout).
func LoadPublicKey(dir string) (ed25519.PublicKey, error) {
	p := filepath.Join(dir, PublicKeyFile)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load public key %s: %w", p, ErrNoKey)
	}
	if err != nil {
		return nil, fmt.Errorf("load public key: %w", err)
	}
	pub, err := ParsePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("load public key %s: %w", p, err)
	}
	return pub, nil
}

// ParsePublicKey accepts a public key as PEM ("PUBLIC KEY", PKIX) or as the
// base64 of the raw 32 bytes (the form receipt exports embed), so a key can be
// pinned from either a key file or an export.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	if block, _ := pem.Decode(data); block != nil {
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("%w: PEM block is %q, want PUBLIC KEY", ErrBadKey, block.Type)
		}
		parsed, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
		}
		pub, ok := parsed.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("%w: not ed25519", ErrBadKey)
		}
		return pub, nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%w: neither PEM nor base64 of %d bytes", ErrBadKey, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(raw), nil
}
