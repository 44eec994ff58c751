package decisionlog

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"context"
	"fmt"

	"github.com/tausik/tausik/internal/canonjson"
)

// gateRow is one row of the version 2 decision_gates table, as stored:
// values of any storage type, a damaged row's included.
type gateRow struct {
	seq                                  int64
	idx, name, outcome, severity, blocks any
}

// backfillGates fills schema version 3's gates column from decision_gates:
// each decision's rows become its canonical list. Rows no list can hold as
// they are — numbered with gaps, blocks not 0 or 1, an unknown outcome or
// severity, a value of another type or NULL — are kept verbatim under unmigratedKey, which verification
// reports, so a damaged log stays damaged rather than being tidied up. Rows
// of no decision have nowhere to go: the migration stops, naming them,
// rather than lose them. It reads every row first and writes afterwards (a
// PostgreSQL driver cannot interleave statements with an open result set).
func backfillGates(ctx context.Context, q sqldb.Querier) error {
	rows, err := q.QueryContext(ctx, `SELECT seq, idx, name, outcome, severity, blocks
		FROM decision_gates ORDER BY seq, idx`)
	if err != nil {
		return fmt.Errorf("backfill gates: %w", err)
	}
	var all []gateRow
	for rows.Next() {
		var g gateRow
		var seq any
		if err := rows.Scan(&seq, &g.idx, &g.name, &g.outcome, &g.severity, &g.blocks); err != nil {
			rows.Close()
			return fmt.Errorf("backfill gates: %w", err)
		}
		var ok bool
		if g.seq, ok = seq.(int64); !ok {
			rows.Close()
			return fmt.Errorf("%w: decision_gates holds a row whose seq is %v, not a decision's; "+
				"a version 2 tausik's `log verify` reports it, and moving to schema version 3 would lose it", sqldb.ErrChainBroken, seq)
		}
		all = append(all, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("backfill gates: %w", err)
	}
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n].seq == all[0].seq {
			n++
		}
		list, err := gateList(all[:n])
		if err != nil {
			return fmt.Errorf("backfill gates of seq %d: %w", all[0].seq, err)
		}
		res, err := q.ExecContext(ctx, "UPDATE decisions SET gates = ? WHERE seq = ?", list, all[0].seq)
		if err != nil {
			return fmt.Errorf("backfill gates of seq %d: %w", all[0].seq, err)
		}
		if k, err := res.RowsAffected(); err != nil || k != 1 {
			return fmt.Errorf("%w: decision_gates holds rows of seq %d, which is not in the log; "+
				"a version 2 tausik's `log verify` reports it, and moving to schema version 3 would lose them",
				sqldb.ErrChainBroken, all[0].seq)
		}
		all = all[n:]
	}
	if _, err := q.ExecContext(ctx, "UPDATE decisions SET gates = '[]' WHERE gates = ''"); err != nil {
		return fmt.Errorf("backfill gates: %w", err)
	}
	return nil
}

// gateList is the gates column for one decision's rows, in idx order.
func gateList(rows []gateRow) (string, error) {
	gs := make([]GateVerdict, len(rows))
	for i, r := range rows {
		idx, ok1 := r.idx.(int64)
		name, ok2 := r.name.(string) // a BLOB in a TEXT column is damage too
		outcome, ok3 := r.outcome.(string)
		severity, ok4 := r.severity.(string)
		blocks, ok5 := r.blocks.(int64)
		gs[i] = GateVerdict{Name: name, Outcome: Outcome(outcome), Severity: Severity(severity), Blocks: blocks == 1}
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || idx != int64(i) || (blocks != 0 && blocks != 1) ||
			!gs[i].Outcome.Valid() || !gs[i].Severity.Valid() {
			raw := make([][]any, len(rows))
			for j, r := range rows {
				raw[j] = []any{verbatim(r.idx), verbatim(r.name), verbatim(r.outcome), verbatim(r.severity), verbatim(r.blocks)}
			}
			b, err := canonjson.Marshal(map[string]any{unmigratedKey: raw})
			return string(b), err
		}
	}
	return encodeGates(gs)
}

// verbatim is a stored value as JSON can hold it: a BLOB as its bytes in
// hex (JSON has no bytes), anything else as it is.
func verbatim(v any) any {
	if b, ok := v.([]byte); ok {
		return fmt.Sprintf("x'%x'", b)
	}
	return v
}
