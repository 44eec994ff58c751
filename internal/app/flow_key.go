package app

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// KeyInfo describes the project's signing key without its private half.
type KeyInfo struct {
	Dir         string
	PublicFile  string
	Fingerprint string
	Public      ed25519.PublicKey
}

func keyInfo(root string, pub ed25519.PublicKey) KeyInfo {
	dir := receipt.KeyDir(root)
	return KeyInfo{Dir: dir, PublicFile: dir + "/" + receipt.PublicKeyFile, Fingerprint: receipt.Fingerprint(pub), Public: pub}
}

// InitKey creates the project's ed25519 signing key under .tausik/keys
// (private key 0600, never printed). Without force an existing key is
// ErrExists: every receipt it signed would stop verifying.
func InitKey(root string, force bool) (KeyInfo, error) {
	if _, err := project.EnsureStateDir(root); err != nil {
		return KeyInfo{}, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	k, err := receipt.InitKey(receipt.KeyDir(root), force)
	switch {
	case errors.Is(err, receipt.ErrKeyExists):
		return KeyInfo{}, fmt.Errorf("%w: a signing key is already in %s; --force replaces it, and receipts it signed stop verifying",
			diag.ErrExists, receipt.KeyDir(root))
	case err != nil:
		return KeyInfo{}, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return keyInfo(root, k.Public), nil
}

// ShowKey describes the project's signing key. It loads the key pair, so a
// private key readable by others or not matching its public half is
// reported here rather than at the next verify. ErrNoKey when none exists.
func ShowKey(root string) (KeyInfo, error) {
	k, err := receipt.LoadKey(receipt.KeyDir(root))
	switch {
	case errors.Is(err, receipt.ErrNoKey):
		return KeyInfo{}, fmt.Errorf("%w (no key in %s)", diag.ErrNoKey, receipt.KeyDir(root))
	case err != nil:
		return KeyInfo{}, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return keyInfo(root, k.Public), nil
}

// ReceiptView is a task's latest verify run with its receipt checked against
// the project's public key, as `tausik receipt show` prints it.
type ReceiptView struct {
	Run store.VerifyRun
	// Facts is the run as verify_first sees it, receipt check included.
	Facts facts.VerifyRun
}

// LatestReceipt returns the task's latest verify run and the check of its
// receipt. ErrUsage when the task has no run.
func LatestReceipt(ctx context.Context, st *store.Store, root, task string) (ReceiptView, error) {
	run, err := latestRun(ctx, st, task)
	if err != nil {
		return ReceiptView{}, err
	}
	pub, keyErr := receipt.LoadPublicKey(receipt.KeyDir(root))
	return ReceiptView{Run: run, Facts: work.RunFacts(run, pub, keyErr)}, nil
}

// latestRun returns the task's latest verify run. ErrUsage when it has none.
func latestRun(ctx context.Context, st *store.Store, task string) (store.VerifyRun, error) {
	if st == nil {
		return store.VerifyRun{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	run, err := st.LatestVerifyRun(ctx, task)
	if errors.Is(err, store.ErrNotFound) {
		return store.VerifyRun{}, fmt.Errorf("%w: task %s has no verify run (run `tausik verify --task %s`)", diag.ErrUsage, task, task)
	}
	return run, engine.StoreErr(err)
}

// ExportReceipt returns the task's latest receipt as a one-file export that
// embeds the project's public key and verifies offline. A receipt that does
// not verify against the project key is ErrInvalidReceipt: an export is
// never born broken.
func ExportReceipt(ctx context.Context, st *store.Store, root, task string) ([]byte, error) {
	run, err := latestRun(ctx, st, task)
	if err != nil {
		return nil, err
	}
	if len(run.Receipt) == 0 {
		return nil, fmt.Errorf("%w: verify run %d of task %s carries no signed receipt", diag.ErrUsage, run.ID, task)
	}
	pub, err := receipt.LoadPublicKey(receipt.KeyDir(root))
	switch {
	case errors.Is(err, receipt.ErrNoKey):
		return nil, fmt.Errorf("%w (no public key in %s)", diag.ErrNoKey, receipt.KeyDir(root))
	case err != nil:
		return nil, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	b, err := receipt.Export(run.Receipt, run.Signature, pub)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrInvalidReceipt, err)
	}
	return b, nil
}

// VerifyReceiptExport checks an exported receipt offline: no store, no
// project. With pinned set, the export must embed exactly that key. Errors:
// ErrUsage when data is not a receipt export (or its embedded key is
// malformed), ErrInvalidReceipt when the signature does not verify or the
// key is not the pinned one.
func VerifyReceiptExport(data []byte, pinned ed25519.PublicKey) (receipt.Receipt, error) {
	r, err := receipt.VerifyExport(data, pinned)
	switch {
	case err == nil:
		return r, nil
	case errors.Is(err, receipt.ErrBadSignature), errors.Is(err, receipt.ErrKeyMismatch):
		return r, fmt.Errorf("%w: %w", diag.ErrInvalidReceipt, err)
	case errors.Is(err, receipt.ErrNotReceipt), errors.Is(err, receipt.ErrBadKey):
		return r, fmt.Errorf("%w: %w", diag.ErrUsage, err)
	}
	return r, err
}
