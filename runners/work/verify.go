package work

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// VerifyRunner fills the "verify" namespace.
type VerifyRunner struct{ st *store.Store }

// Namespace implements runners.Runner.
func (*VerifyRunner) Namespace() string { return NamespaceVerify }

// Gather implements runners.Runner: the request task's declared files and
// their current hash, the current verify gate set, the declared files that
// look sensitive, and the latest verify run with its receipt checked. A
// declared file that exists but cannot be read, or a store that cannot be
// read, is status error: nothing unread is ever certified.
func (r *VerifyRunner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if r.st == nil {
		return facts.Error(noStore)
	}
	out := facts.VerifyFacts{
		Task: s.Request.Task, DeclaredFiles: []string{}, VerifyGates: runners.NonNil(s.Work.VerifyGates),
		GateSignature: s.Work.GateSignature, Sensitive: []facts.SensitiveFile{},
	}
	var declared []string
	switch {
	case s.Work.Proposed != nil:
		out.Task, declared = s.Work.Proposed.Slug, s.Work.Proposed.Files
	case out.Task == "":
		return facts.OK(out)
	default:
		t, err := r.st.GetTask(ctx, out.Task)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return facts.OK(out) // the task namespace says it does not exist
		case err != nil:
			return facts.Error(fmt.Sprintf("read task %s: %v", out.Task, err))
		}
		declared = t.Files
	}
	out.DeclaredFiles = NormalizeFiles(declared)
	if len(out.DeclaredFiles) > 0 {
		h, err := receipt.FilesHash(s.Root, out.DeclaredFiles)
		if err != nil {
			return facts.Error(fmt.Sprintf("hash the declared files of %s: %v", out.Task, err))
		}
		out.FilesHash = h
	}
	out.Sensitive = MatchSensitive(out.DeclaredFiles, SensitivePatterns)
	if s.Work.Proposed != nil {
		return facts.OK(out) // a task that does not exist yet has no runs
	}
	run, err := r.st.LatestVerifyRun(ctx, out.Task)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return facts.OK(out)
	case err != nil:
		return facts.Error(fmt.Sprintf("read the verify runs of %s: %v", out.Task, err))
	}
	pub, keyErr := receipt.LoadPublicKey(receipt.KeyDir(s.Root))
	fr := RunFacts(run, pub, keyErr)
	out.Run = &fr
	return facts.OK(out)
}

// NormalizeFiles cleans, de-duplicates and sorts declared paths the way the
// files hash does, so policies and flows compare like with like.
func NormalizeFiles(files []string) []string {
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, strings.TrimPrefix(path.Clean(strings.ReplaceAll(f, "\\", "/")), "./"))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RunFacts converts a stored verify run to its facts shape, checking its
// receipt against pub (nil when the project key could not be loaded; keyErr
// then says why).
func RunFacts(run store.VerifyRun, pub ed25519.PublicKey, keyErr error) facts.VerifyRun {
	out := facts.VerifyRun{
		ID: run.ID, RanAt: runners.FormatTime(run.RanAt), Passed: run.Passed, ExitCode: int64(run.ExitCode),
		Gates: make([]facts.VerifyRunGate, 0, len(run.Gates)), FilesHash: run.FilesHash,
		GateSignature: run.GateSignature, GitSHA: run.GitSHA,
	}
	for _, g := range run.Gates {
		out.Gates = append(out.Gates, facts.VerifyRunGate{Name: g.Name, Passed: g.Passed, Severity: string(g.Severity)})
	}
	out.Receipt = CheckReceipt(run, pub, keyErr)
	return out
}

// CheckReceipt verifies run's receipt signature against pub and compares
// the signed fields with the run's row. It never decides: it reports each
// check, Valid as their conjunction, and the first failure as Reason.
func CheckReceipt(run store.VerifyRun, pub ed25519.PublicKey, keyErr error) facts.ReceiptCheck {
	c := facts.ReceiptCheck{Present: len(run.Receipt) > 0 && len(run.Signature) > 0, KeyFingerprint: run.KeyFingerprint}
	if pub != nil {
		c.ProjectKey = receipt.Fingerprint(pub)
	}
	switch {
	case !c.Present:
		c.Reason = "the run carries no signed receipt"
		return c
	case pub == nil:
		c.Reason = fmt.Sprintf("no project public key to check the receipt against: %v", keyErr)
		return c
	}
	r, err := receipt.Verify(run.Receipt, run.Signature, pub)
	if err != nil {
		c.Reason = err.Error()
		return c
	}
	c.SignatureValid = true
	c.TaskMatches = r.Task == run.Task
	c.TimeMatches = r.RanAt.Equal(run.RanAt.UTC().Truncate(time.Second))
	c.FilesHashMatches = r.FilesHash == run.FilesHash
	c.GateSignatureMatches = r.GateSignature == run.GateSignature
	c.PassedMatches = r.Passed == run.Passed
	c.GatesMatch = gatesMatch(r.Gates, run.Gates)
	for _, chk := range []struct {
		ok   bool
		what string
	}{
		{c.TaskMatches, fmt.Sprintf("receipt task %q is not the run's task %q", r.Task, run.Task)},
		{c.TimeMatches, fmt.Sprintf("receipt time %s is not the run's time %s", runners.FormatTime(r.RanAt), runners.FormatTime(run.RanAt))},
		{c.FilesHashMatches, "receipt files hash is not the run's"},
		{c.GateSignatureMatches, "receipt gate signature is not the run's"},
		{c.PassedMatches, fmt.Sprintf("receipt says passed=%v, the run says passed=%v", r.Passed, run.Passed)},
		{c.GatesMatch, "receipt gate results are not the run's"},
	} {
		if !chk.ok && c.Reason == "" {
			c.Reason = chk.what
		}
	}
	c.Valid = c.Reason == ""
	return c
}

func gatesMatch(signed []receipt.Gate, stored []store.VerifyGateResult) bool {
	if len(signed) != len(stored) {
		return false
	}
	for i, g := range signed {
		s := stored[i]
		if g.Name != s.Name || g.Passed != s.Passed || g.Severity != string(s.Severity) {
			return false
		}
	}
	return true
}
