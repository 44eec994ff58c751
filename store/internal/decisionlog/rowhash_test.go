package decisionlog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tausik/tausik/store/internal/quickverify"
)

// TestRowHasherIsChainHash holds the hand-written preimage to chainHash's
// encoding/json bytes: wherever the writer says it can, its hash is
// chainHash's, over strings of every kind a row could hold.
func TestRowHasherIsChainHash(t *testing.T) {
	pieces := []string{"", "a", `"`, `\`, `\"`, "<&>", "\x7f", "é", "日本", "😀", `{"k":"v\"w"}`, "0123456789abcdef", " ",
		"\u00a0", "\ufffd"}
	// What encoding/json escapes otherwise: the writer must refuse it.
	odd := []string{"\u2028", "\u2029", "\x00", "\n", "\x1f", "\t", "\xff", "\xe2\x80"}
	rnd := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for range rnd.IntN(6) {
			if rnd.IntN(200) == 0 {
				b.WriteString(odd[rnd.IntN(len(odd))])
			} else {
				b.WriteString(pieces[rnd.IntN(len(pieces))])
			}
		}
		return b.String()
	}
	gateLists := []string{"[]", `[{"blocks":true,"name":"g","outcome":"FAILED","severity":"block"}]`,
		`[{"blocks":false,"name":"a","outcome":"PASSED","severity":"warn"},{"blocks":false,"name":"größe","outcome":"NOT_APPLICABLE","severity":"block"}]`}
	var h quickverify.RowHasher
	written := 0
	for i := range 20000 {
		gates := gateLists[i%len(gateLists)]
		gs, bad := decodeGates(gates)
		if bad != nil {
			t.Fatal(bad.detail)
		}
		rec := &Record{seq: rnd.Int64N(1 << 40), id: word(), time: word(), trigger: word(), task: word(), requester: word(),
			gitHead: word(), exitCode: rnd.Int64N(7) - 3, blocked: i%2 == 0, body: []byte(word()), gates: gs,
			prevHash: word()}
		want, err := chainHash(rec)
		if err != nil {
			t.Fatal(err)
		}
		f := recordFields(rec, gates)
		got, ok := h.Hash(&f)
		if !ok {
			continue
		}
		written++
		if string(got) != want {
			t.Fatalf("row %+v: quickverify.RowHasher %s, chainHash %s", rec, got, want)
		}
		rec.hash = want
		if !hashMatches(&h, rec, gates) {
			t.Fatalf("hashMatches refused row %+v", rec)
		}
	}
	if written < 2000 || written == 20000 {
		t.Fatalf("the writer took %d of 20000 rows: the test compares too little, or never sees it refuse", written)
	}
	// A decision as the store writes it is always written by hand.
	d := mkDecision(newClock().Now(), "commit", "t", gateSpec{"g", OutcomeFailed, SeverityBlock})
	body, err := canonicalBody(d.Body)
	if err != nil {
		t.Fatal(err)
	}
	f := quickverify.RowFields{Body: body, Gates: []byte("[]")}
	if _, ok := h.Hash(&f); !ok {
		t.Error("the writer refused a body the store writes")
	}
}

// tampering is one edit of a seeded log and the seq log verify must name.
type tampering struct {
	name  string
	stmts []string
	at    int64
}

// tamperings are single-row edits of an n-row log: the hash, body or
// prev_hash of any row, or the chain head, with the store's triggers
// dropped; and a row's hash edited with its successor (or the head)
// relinked to it, which only recomputing the row itself can see.
func tamperings(n int64) []tampering {
	var out []tampering
	other := strings.Repeat("ab", 32)
	for seq := int64(1); seq <= n; seq++ {
		relink := fmt.Sprintf("UPDATE decisions SET prev_hash = '%s' WHERE seq = %d", other, seq+1)
		if seq == n {
			relink = fmt.Sprintf("UPDATE chain_head SET hash = '%s' WHERE id = 1", other)
		}
		out = append(out,
			tampering{fmt.Sprintf("hash of seq %d", seq), []string{fmt.Sprintf("UPDATE decisions SET hash = '00' WHERE seq = %d", seq)}, seq},
			tampering{fmt.Sprintf("hash of seq %d, relinked", seq), []string{fmt.Sprintf("UPDATE decisions SET hash = '%s' WHERE seq = %d", other, seq), relink}, seq},
			tampering{fmt.Sprintf("body of seq %d", seq), []string{fmt.Sprintf(`UPDATE decisions SET body = replace(body, '"requester"', '"requester" ') WHERE seq = %d`, seq)}, seq},
			tampering{fmt.Sprintf("prev_hash of seq %d", seq), []string{fmt.Sprintf("UPDATE decisions SET prev_hash = '%s' WHERE seq = %d", strings.Repeat("cd", 32), seq)}, seq})
	}
	return append(out,
		tampering{"head hash", []string{"UPDATE chain_head SET hash = '00' WHERE id = 1"}, n},
		tampering{"head hash upper case", []string{"UPDATE chain_head SET hash = upper(hash) WHERE id = 1"}, n},
		tampering{"last hash and head", []string{fmt.Sprintf("UPDATE decisions SET hash = '00' WHERE seq = %d", n), "UPDATE chain_head SET hash = '00' WHERE id = 1"}, n})
}

// Every single-row tampering is a break at its seq, seen by the quick pass
// (which does not vouch) and the full pass alike: the differential between
// the two paths over tampered logs.
var _ = contract("every row's hash is recomputed", func(t *testing.T, open opener) {
	ctx := context.Background()
	const n = 5
	for _, c := range tamperings(n) {
		t.Run(c.name, func(t *testing.T) {
			s := seededStore(t, open, n)
			tamper(t, s, c.stmts...)
			if rep, ok := s.quickVerifyLog(ctx); ok {
				t.Fatalf("the quick pass vouched for a tampered log: %+v", rep)
			}
			full := fullPass(t, s)
			rep, err := s.VerifyLog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for name, r := range map[string]LogReport{"full pass": full, "VerifyLog": rep} {
				if r.OK || r.Break == nil {
					t.Fatalf("%s says intact", name)
				}
			}
			if rep.Break.Seq != c.at {
				t.Errorf("VerifyLog names seq %d, want %d: %s", rep.Break.Seq, c.at, rep.Break)
			}
		})
	}
})

// BenchmarkRowHash measures recomputing one row's chain hash by hand, the
// work every pass over the log adds per decision.
func BenchmarkRowHash(b *testing.B) {
	d := benchDecisions(1)[0]
	body, err := canonicalBody(d.Body)
	if err != nil {
		b.Fatal(err)
	}
	gates, err := encodeGates(d.Gates)
	if err != nil {
		b.Fatal(err)
	}
	f := quickverify.RowFields{Seq: 7, ID: []byte(d.ID), Time: []byte("2026-01-01T00:00:00Z"), Trigger: []byte(d.Trigger), Task: []byte(d.Task),
		Requester: []byte(d.Requester), GitHead: []byte(d.GitHead), Body: body, PrevHash: []byte(GenesisHash), Gates: []byte(gates)}
	var h quickverify.RowHasher
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for range b.N {
		if _, ok := h.Hash(&f); !ok {
			b.Fatal("refused")
		}
	}
}
