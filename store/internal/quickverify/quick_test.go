package quickverify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
	"golang.org/x/mod/sumdb/tlog"
)

// TestDecodeLowerHex: the tree table's spelling and no other.
func TestDecodeLowerHex(t *testing.T) {
	want := sha256.Sum256([]byte("tausik"))
	text := hex.EncodeToString(want[:])
	var got tlog.Hash
	if !decodeLowerHex(&got, []byte(text)) || got != tlog.Hash(want) {
		t.Fatalf("lower-case hex of %x decoded as %x", want, got)
	}
	for _, bad := range []string{strings.ToUpper(text), text[:63], text + "0", text[:10] + "g" + text[11:], text[:63] + " "} {
		if decodeLowerHex(&got, []byte(bad)) {
			t.Errorf("%q decoded", bad)
		}
	}
}

// TestQuickPassReadsWithTwoReaders: an idle file store, writable or
// read-only, is read by two readers on one snapshot.
func TestQuickPassReadsWithTwoReaders(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "tausik.db")
	cfg := sqldb.Config{Clock: time.Now, BusyTimeout: time.Second}
	db, err := sqldb.Open(ctx, p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg.ReadOnly = true
	ro, err := sqldb.Open(ctx, p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for name, st := range map[string]*sqldb.DB{"writable": db, "read-only": ro} {
		rs := source{st}.sqliteSnapshot(ctx, 2)
		if len(rs) != 2 {
			t.Errorf("%s: %d readers", name, len(rs))
		}
		for _, r := range rs {
			if tot, ok := r.counts(ctx); !ok || tot.size != 0 {
				t.Errorf("%s: counts %+v %v", name, tot, ok)
			}
			r.close()
		}
	}
}

// TestQuickLeafIsRecordHash: the worker's leaf is tlog's record hash.
func TestQuickLeafIsRecordHash(t *testing.T) {
	var k quickWorker
	for _, body := range []string{"", "{}", strings.Repeat("x", 1000)} {
		var got tlog.Hash
		k.leaf(&got, []byte(body))
		if want := tlog.RecordHash([]byte(body)); got != want {
			t.Errorf("%q: leaf %x, tlog %x", body, got, want)
		}
	}
}
