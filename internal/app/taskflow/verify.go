package taskflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// VerifyRequest asks to verify a task.
type VerifyRequest struct {
	Task string
	// Files, when set, are verified instead of the task's declared files
	// (absolute or relative to the root). The run then certifies those files,
	// and verify_first accepts it only if they are exactly the declared ones.
	Files     []string
	Requester string
}

// VerifyOutcome is a recorded verify run and the decision it rests on.
type VerifyOutcome struct {
	Run      store.VerifyRun
	Decision *engine.Decision
	// Files are the files the run certifies, repo-relative; Declared reports
	// whether they are the task's declared files.
	Files    []string
	Declared bool
	// Gates is the verify gate set the run's gate signature covers.
	Gates []receipt.VerifyGate
}

// Verify runs the enabled verify-trigger gates over the task's declared
// files (or req.Files), logs the decision, and records a verify run with a
// receipt signed by the project key: the task, the gate results, the files
// hash, the gate signature, the exit code and the time (to the second). A
// blocked run is recorded too (passed false); verify_first refuses it.
//
// The key is loaded before any gate runs (ErrNoKey: run `tausik key init`).
// The files are hashed before and after the gates ran; if they changed
// meanwhile nothing is recorded, since the gates judged other content than
// the hash would certify. Errors: ErrUsage for an unknown or closed task or
// one with no files to verify, ErrNoKey, ErrStore.
func Verify(ctx context.Context, e *engine.Engine, req VerifyRequest) (*VerifyOutcome, error) {
	st, err := needStore(e)
	if err != nil {
		return nil, err
	}
	t, err := st.GetTask(ctx, req.Task)
	if err != nil {
		return nil, engine.StoreErr(err)
	}
	if t.Status != store.TaskActive {
		return nil, fmt.Errorf("%w: task %s is %s; only an active task is verified", diag.ErrUsage, t.Slug, t.Status)
	}
	key, err := receipt.LoadKey(receipt.KeyDir(e.Root()))
	switch {
	case errors.Is(err, receipt.ErrNoKey):
		return nil, fmt.Errorf("%w (no key in %s): verify signs a receipt with the project key", diag.ErrNoKey, receipt.KeyDir(e.Root()))
	case err != nil:
		return nil, fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	files := t.Files
	if req.Files != nil {
		if files, err = repoPaths(e.Root(), req.Files); err != nil {
			return nil, err
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: task %s declares no files, so there is nothing to certify; declare them (tausik task files %s PATH...)",
			diag.ErrUsage, t.Slug, t.Slug)
	}
	out := &VerifyOutcome{Files: work.NormalizeFiles(files), Gates: e.VerifyGates()}
	out.Declared = slices.Equal(out.Files, work.NormalizeFiles(t.Files))
	hashBefore, err := receipt.FilesHash(e.Root(), files)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrUsage, err)
	}
	dec, err := e.Evaluate(ctx, engine.Request{
		Trigger: engine.TriggerVerify, Task: t.Slug, Files: files, Requester: req.Requester,
		ChangedSince: t.StartedAt.UTC().Format(time.RFC3339Nano),
	})
	out.Decision = dec
	if err != nil {
		return out, err
	}
	hash, err := receipt.FilesHash(e.Root(), files)
	if err != nil {
		return out, fmt.Errorf("%w: %v", diag.ErrUsage, err)
	}
	if hash != hashBefore {
		return out, fmt.Errorf("%w: the files of task %s changed while the verify gates ran; nothing was recorded, run verify again",
			diag.ErrStore, t.Slug)
	}
	run := store.VerifyRun{
		Task: t.Slug, FilesHash: hash, GateSignature: e.GateSignature(), ExitCode: dec.ExitCode,
		Passed: !dec.Blocked, RanAt: dec.Time.UTC().Truncate(time.Second), GitSHA: dec.GitHead,
		Gates: make([]store.VerifyGateResult, 0, len(dec.Gates)),
	}
	signed := make([]receipt.Gate, 0, len(dec.Gates))
	for _, v := range dec.Gates {
		passed := v.Outcome == engine.Passed || v.Outcome == engine.NotApplicable
		run.Gates = append(run.Gates, store.VerifyGateResult{Name: v.Name, Passed: passed, Severity: store.Severity(v.Severity)})
		signed = append(signed, receipt.Gate{Name: v.Name, Passed: passed, Severity: v.Severity})
	}
	payload, sig, err := receipt.Sign(receipt.Receipt{
		Task: run.Task, GitSHA: run.GitSHA, Gates: signed, Passed: run.Passed, RanAt: run.RanAt,
		FilesHash: run.FilesHash, GateSignature: run.GateSignature,
	}, key)
	if err != nil {
		return out, fmt.Errorf("sign the receipt: %w", err)
	}
	run.Receipt, run.Signature, run.KeyFingerprint = payload, sig, key.Fingerprint()
	if out.Run, err = st.RecordVerifyRun(ctx, run); err != nil {
		return out, engine.StoreErr(err)
	}
	return out, nil
}
