package app

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/diag"

	"golang.org/x/mod/sumdb/note"

	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/merkle"
	"github.com/tausik/tausik/store/receipt"
)

// Environment of checkpoints: which log they speak for and which key signs
// them, so CI can sign with a secret that never sits in the repository.
const (
	EnvLogOrigin  = "TAUSIK_LOG_ORIGIN"   // the checkpoint origin; default: the repository's remote
	EnvLogKey     = "TAUSIK_LOG_KEY"      // the checkpoint signing key itself (PEM, or a note signer key)
	EnvLogKeyFile = "TAUSIK_LOG_KEY_FILE" // a file holding it
)

// ErrInvalidProof marks an inclusion-proof bundle or a checkpoint that does
// not verify (exit 1, like a bad receipt).
var ErrInvalidProof = errors.New("proof does not verify")

// LogOrigin names the log in checkpoints: $TAUSIK_LOG_ORIGIN, else a shared
// PostgreSQL log's server, database and schema (db.internal:5432/tausik/team_a:
// one log, one name, whichever repository signs), else the repository's
// origin remote as a schema-less URL (github.com/acme/app), else
// local/<directory name>. git runs under ctx: a cancelled or expired
// request ends it and is an error, never a fallback origin.
func LogOrigin(ctx context.Context, root string, getenv func(string) string) (string, error) {
	if o := strings.TrimSpace(getenv(EnvLogOrigin)); o != "" {
		if !merkle.ValidOrigin(o) {
			return "", fmt.Errorf("%w: %s=%q: an origin has no spaces and no '+'", diag.ErrConfig, EnvLogOrigin, o)
		}
		return o, nil
	}
	if loc, err := config.LocateStore(root, getenv); err != nil {
		return "", err
	} else if loc.URL != "" {
		return postgresOrigin(loc.URL)
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "config", "--get", "remote.origin.url").Output()
	if cerr := ctx.Err(); cerr != nil {
		return "", fmt.Errorf("read the origin remote of %s: %w", root, cerr)
	}
	if err == nil {
		if o := remoteOrigin(strings.TrimSpace(string(out))); merkle.ValidOrigin(o) {
			return o, nil
		}
	}
	return "local/" + originUnsafe.ReplaceAllString(filepath.Base(root), "_"), nil
}

var (
	originUnsafe = regexp.MustCompile(`[\s+]`)
	scpLike      = regexp.MustCompile(`^(?:[^@/]+@)?([^:/]+):(.+)$`)
)

// remoteOrigin turns a git remote URL (https, ssh, scp-like) into host/path.
func remoteOrigin(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		url = url[i+3:]
		if at := strings.Index(url, "@"); at >= 0 && at < strings.IndexByte(url+"/", '/') {
			url = url[at+1:]
		}
	} else if m := scpLike.FindStringSubmatch(url); m != nil {
		url = m[1] + "/" + m[2]
	}
	return strings.TrimSuffix(strings.TrimSuffix(url, "/"), ".git")
}

// CheckpointKey is the key checkpoints are signed with and where it came from.
type CheckpointKey struct {
	Signer      note.Signer
	VerifierKey string // what an auditor pins with --pub
	Source      string // the flag, variable or file it came from
}

// LoadCheckpointKey finds the signing key: the file named by keyFile (a
// flag), else $TAUSIK_LOG_KEY_FILE, else $TAUSIK_LOG_KEY, else the project
// key in .tausik/keys. A PEM key signs under the origin's name; a note
// signer key ("PRIVATE+KEY+name+…") under its own.
func LoadCheckpointKey(ctx context.Context, root, keyFile string, getenv func(string) string) (CheckpointKey, error) {
	origin, err := LogOrigin(ctx, root, getenv)
	if err != nil {
		return CheckpointKey{}, err
	}
	var data []byte
	var source string
	switch {
	case keyFile != "":
		source = keyFile
	case getenv(EnvLogKeyFile) != "":
		keyFile, source = getenv(EnvLogKeyFile), "$"+EnvLogKeyFile+" ("+getenv(EnvLogKeyFile)+")"
	case getenv(EnvLogKey) != "":
		data, source = []byte(getenv(EnvLogKey)), "$"+EnvLogKey
	default:
		k, err := receipt.LoadKey(receipt.KeyDir(root))
		switch {
		case errors.Is(err, receipt.ErrNoKey):
			return CheckpointKey{}, fmt.Errorf("%w (no key in %s; or name one with --key, $%s or $%s)",
				diag.ErrNoKey, receipt.KeyDir(root), EnvLogKeyFile, EnvLogKey)
		case err != nil:
			return CheckpointKey{}, fmt.Errorf("%w: %v", diag.ErrConfig, err)
		}
		return newCheckpointKey(origin, k.Private, "project key "+filepath.Join(receipt.KeyDir(root), receipt.PrivateKeyFile))
	}
	if data == nil {
		if data, err = os.ReadFile(keyFile); err != nil {
			return CheckpointKey{}, fmt.Errorf("%w: checkpoint key: %v", diag.ErrConfig, err)
		}
	}
	if text := strings.TrimSpace(string(data)); strings.HasPrefix(text, "PRIVATE+KEY+") {
		s, vkey, err := merkle.ParseSignerKey(text)
		if err != nil {
			return CheckpointKey{}, fmt.Errorf("%w: checkpoint key %s: %v", diag.ErrConfig, source, err)
		}
		return CheckpointKey{Signer: s, VerifierKey: vkey, Source: source}, nil
	}
	priv, err := receipt.ParsePrivateKey(data)
	if err != nil {
		return CheckpointKey{}, fmt.Errorf("%w: checkpoint key %s: %v", diag.ErrConfig, source, err)
	}
	return newCheckpointKey(origin, priv, source)
}

func newCheckpointKey(name string, priv ed25519.PrivateKey, source string) (CheckpointKey, error) {
	s, err := merkle.NewSigner(name, priv)
	if err != nil {
		return CheckpointKey{}, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return CheckpointKey{Signer: s, VerifierKey: s.VerifierKey(), Source: source}, nil
}

// SignCheckpoint signs the log's current tree head: O(log n) reads, no
// verification (run `log verify` against the previous checkpoint for that).
func SignCheckpoint(ctx context.Context, st *store.Store, root string, key CheckpointKey, getenv func(string) string) ([]byte, error) {
	origin, err := LogOrigin(ctx, root, getenv)
	if err != nil {
		return nil, err
	}
	th, err := st.TreeHead(ctx)
	if err != nil {
		return nil, engine.StoreErr(err)
	}
	msg, err := merkle.Sign(merkle.Checkpoint{Origin: origin, Size: th.Size, Root: th.Root}, key.Signer)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return msg, nil
}

// ParseTrustedKeys reads a --pub value: a note verifier key, or a file
// holding one, a PEM public key or the base64 of a raw one. ErrUsage when
// it is none of them.
func ParseTrustedKeys(arg string) ([]merkle.Trusted, error) {
	if t, err := merkle.ParseTrusted(arg); err == nil {
		return []merkle.Trusted{t}, nil
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return nil, fmt.Errorf("%w: --pub %s is neither a note verifier key (name+hash+key) nor a readable file", diag.ErrUsage, arg)
	}
	if t, err := merkle.ParseTrusted(string(data)); err == nil {
		return []merkle.Trusted{t}, nil
	}
	pub, err := receipt.ParsePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("%w: --pub %s: %v", diag.ErrUsage, arg, err)
	}
	return []merkle.Trusted{{Public: pub}}, nil
}

// postgresOrigin is a shared log's checkpoint origin: host:port/database,
// plus /schema when the URL picks one, with what the URL leaves out filled
// in from the PG* environment as the connection does. Never the user or
// password.
func postgresOrigin(rawURL string) (string, error) {
	origin, err := store.PostgresOrigin(rawURL)
	if err != nil {
		return "", fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	if !merkle.ValidOrigin(origin) {
		return "", fmt.Errorf("%w: the store's origin %q is not a valid checkpoint origin; set %s", diag.ErrConfig, origin, EnvLogOrigin)
	}
	return origin, nil
}
