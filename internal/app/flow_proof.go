package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"

	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/merkle"
	"github.com/tausik/tausik/store/receipt"
)

// CheckpointFile is a checkpoint as the user handed it in.
type CheckpointFile struct {
	Name string
	Data []byte
}

// LogVerification is the outcome of `log verify`: the log checked on its
// own, then against each checkpoint.
type LogVerification struct {
	Log     store.LogReport
	Anchors []merkle.AnchorResult
	// Pinned is true when checkpoint signatures were checked against
	// trusted keys; false means only their content was compared.
	Pinned bool
	// Covered is the size of the largest checkpoint the log extends: the
	// decisions after it are protected by nothing outside the database.
	Covered int64
}

// OK reports whether the log is intact and extends every checkpoint.
func (v LogVerification) OK() bool {
	if !v.Log.OK {
		return false
	}
	for _, a := range v.Anchors {
		if a.Kind != merkle.AnchorOK {
			return false
		}
	}
	return true
}

// VerifyLog checks the log (tree rebuilt from the stored bodies, stored
// hashes, chain links and head, columns against bodies) and then each
// checkpoint: signature (when trusted keys are given), size not above the
// log's, root at its size equal, and every pair of checkpoints consistent.
// A file that is not a checkpoint is ErrUsage; a broken log or a failed
// checkpoint is a result, not an error.
func VerifyLog(ctx context.Context, st *store.Store, files []CheckpointFile, trusted []merkle.Trusted) (LogVerification, error) {
	v := LogVerification{Pinned: len(trusted) > 0}
	var anchors []merkle.Anchor
	var badSig []merkle.AnchorResult
	for _, f := range files {
		o, err := merkle.Open(f.Data, trusted...)
		switch {
		case errors.Is(err, merkle.ErrBadSignature):
			badSig = append(badSig, merkle.AnchorResult{Anchor: merkle.Anchor{Name: f.Name, Opened: o},
				Kind: merkle.AnchorBadSignature, Detail: "signed by none of the trusted keys: " + err.Error()})
		case err != nil:
			return v, fmt.Errorf("%w: %s: %v", diag.ErrUsage, f.Name, err)
		default:
			anchors = append(anchors, merkle.Anchor{Name: f.Name, Opened: o})
		}
	}
	rep, err := st.VerifyLog(ctx)
	if err != nil {
		return v, engine.StoreErr(err)
	}
	v.Log = rep
	if v.Anchors, err = merkle.CheckAnchors(rep.Tree(), anchors); err != nil {
		return v, fmt.Errorf("%w: %v", diag.ErrStore, err)
	}
	for _, a := range v.Anchors {
		if a.Kind == merkle.AnchorOK {
			v.Covered = max(v.Covered, a.Size)
		}
	}
	v.Anchors = append(v.Anchors, badSig...)
	return v, nil
}

// ProveLog writes the inclusion-proof bundle of one decision: against the
// given checkpoint, which the log must extend and one of the trusted keys
// (else the project's public key) must have signed; or, with none, against
// a checkpoint of the current log signed now with key.
func ProveLog(ctx context.Context, st *store.Store, root, id string, cp *CheckpointFile,
	trusted []merkle.Trusted, key func() (CheckpointKey, error), getenv func(string) string) ([]byte, error) {
	var msg []byte
	var vkey string
	var size int64
	if cp != nil {
		if len(trusted) == 0 {
			pub, err := receipt.LoadPublicKey(receipt.KeyDir(root))
			if err != nil {
				return nil, fmt.Errorf("%w: pass --pub to name the key that signed %s: %v", diag.ErrUsage, cp.Name, err)
			}
			trusted = []merkle.Trusted{{Public: pub}}
		}
		o, err := merkle.Open(cp.Data, trusted...)
		switch {
		case errors.Is(err, merkle.ErrBadSignature):
			return nil, fmt.Errorf("%w: %s: %v", ErrInvalidProof, cp.Name, err)
		case err != nil:
			return nil, fmt.Errorf("%w: %s: %v", diag.ErrUsage, cp.Name, err)
		}
		msg, vkey, size = cp.Data, o.VerifierKeys[0], o.Size
		p, err := st.ProveDecision(ctx, id, size)
		if err != nil {
			return nil, proveErr(err)
		}
		if p.Root != o.Root {
			return nil, fmt.Errorf("%w: the log's first %d decisions do not hash to the root of %s: run `tausik log verify --checkpoint %s`",
				ErrInvalidProof, size, cp.Name, cp.Name)
		}
		return bundle(p, msg, vkey)
	}
	k, err := key()
	if err != nil {
		return nil, err
	}
	if msg, err = SignCheckpoint(ctx, st, root, k, getenv); err != nil {
		return nil, err
	}
	o, err := merkle.Open(msg)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	p, err := st.ProveDecision(ctx, id, o.Size)
	if err != nil {
		return nil, proveErr(err)
	}
	if p.Root != o.Root {
		return nil, fmt.Errorf("%w: the tree changed while proving; run again", diag.ErrStore)
	}
	return bundle(p, msg, k.VerifierKey)
}

func bundle(p store.InclusionProof, checkpoint []byte, vkey string) ([]byte, error) {
	b, err := merkle.NewBundle(p.ID, p.Index, p.Body, p.Proof, checkpoint, vkey)
	if err != nil {
		return nil, fmt.Errorf("%w: decision %s: %v (run `tausik log verify`)", ErrInvalidProof, p.ID, err)
	}
	return b, nil
}

func proveErr(err error) error {
	if errors.Is(err, store.ErrInvalidFilter) {
		return fmt.Errorf("%w: %v", diag.ErrUsage, err)
	}
	return engine.StoreErr(err)
}

// VerifyProofBundle checks a bundle offline (no store, no project): exit 0
// valid, ErrInvalidProof (exit 1) when it does not prove what it says or is
// signed by a key other than the pinned one, ErrUsage (exit 2) when data is
// not a bundle.
func VerifyProofBundle(data []byte, trusted []merkle.Trusted) (merkle.Verified, error) {
	v, err := merkle.VerifyBundle(data, trusted)
	switch {
	case errors.Is(err, merkle.ErrNotBundle):
		return v, fmt.Errorf("%w: %w", diag.ErrUsage, err)
	case err != nil:
		why := strings.TrimPrefix(err.Error(), merkle.ErrInvalidBundle.Error()+": ")
		return v, fmt.Errorf("%w: %s", ErrInvalidProof, why)
	}
	return v, nil
}
