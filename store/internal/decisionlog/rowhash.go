package decisionlog

import "github.com/tausik/tausik/store/internal/quickverify"

// recordFields is rec as quickverify.RowFields, with gates its gates column.
func recordFields(rec *Record, gates string) quickverify.RowFields {
	b := quickverify.ReadOnlyBytes
	return quickverify.RowFields{Seq: rec.seq, ExitCode: rec.exitCode, Blocked: rec.blocked,
		ID: b(rec.id), Time: b(rec.time), Trigger: b(rec.trigger), Task: b(rec.task), Requester: b(rec.requester),
		GitHead: b(rec.gitHead), Body: rec.body, PrevHash: b(rec.prevHash), Gates: b(gates)}
}

// hashMatches reports whether rec, whose gates column is gates (already
// checked canonical), hashes to its stored hash: through h when it can
// write the preimage, else through chainHash.
func hashMatches(h *quickverify.RowHasher, rec *Record, gates string) bool {
	f := recordFields(rec, gates)
	if sum, ok := h.Hash(&f); ok {
		return string(sum) == rec.hash
	}
	sum, err := chainHash(rec)
	return err == nil && sum == rec.hash
}
