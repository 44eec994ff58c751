package store

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/store/internal/canonjson"
)

// gateRow is one row of the version 2 decision_gates table, as stored.
type gateRow struct {
	seq, idx, blocks        int64
	name, outcome, severity string
}

// backfillGates fills schema version 3's gates column from decision_gates:
// each decision's rows become its canonical list. Rows no list can hold as
// they are — numbered with gaps, blocks not 0 or 1, an unknown outcome or
// severity — are kept verbatim under unmigratedKey, which verification
// reports, so a damaged log stays damaged rather than being tidied up. Rows
// of no decision have nowhere to go: the migration stops, naming them,
// rather than lose them. It reads every row first and writes afterwards (a
// PostgreSQL driver cannot interleave statements with an open result set).
func backfillGates(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, `SELECT seq, idx, name, outcome, severity, blocks
		FROM decision_gates ORDER BY seq, idx`)
	if err != nil {
		return fmt.Errorf("backfill gates: %w", err)
	}
	var all []gateRow
	for rows.Next() {
		var g gateRow
		if err := rows.Scan(&g.seq, &g.idx, &g.name, &g.outcome, &g.severity, &g.blocks); err != nil {
			rows.Close()
			return fmt.Errorf("backfill gates: %w", err)
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
				ErrChainBroken, all[0].seq)
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
		gs[i] = GateVerdict{Name: r.name, Outcome: Outcome(r.outcome), Severity: Severity(r.severity), Blocks: r.blocks == 1}
		if r.idx != int64(i) || (r.blocks != 0 && r.blocks != 1) || !gs[i].Outcome.Valid() || !gs[i].Severity.Valid() {
			raw := make([][]any, len(rows))
			for j, r := range rows {
				raw[j] = []any{r.idx, r.name, r.outcome, r.severity, r.blocks}
			}
			b, err := canonjson.Marshal(map[string]any{unmigratedKey: raw})
			return string(b), err
		}
	}
	return encodeGates(gs)
}
