package sqldb

import "testing"

// TestRebind: placeholders outside strings and comments are numbered.
func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":        "SELECT 1",
		"a = ? AND b = ?": "a = $1 AND b = $2",
		"x = '?' AND y = ? AND z = \"q?\" AND w = ?": "x = '?' AND y = $1 AND z = \"q?\" AND w = $2",
		"IN (?,?,?)":             "IN ($1,$2,$3)",
		"s = 'it''s ?' OR t = ?": "s = 'it''s ?' OR t = $1",
		// Comments: a quote inside one opens no string, a ? in one is text.
		"a = ? -- don't ?\nAND b = ?":           "a = $1 -- don't ?\nAND b = $2",
		"/* it's ? */ a = ? /* \" */ AND b = ?": "/* it's ? */ a = $1 /* \" */ AND b = $2",
		"a = ? -- trailing, no newline's end":   "a = $1 -- trailing, no newline's end",
		"a = 'x--y' AND b = ? - 1":              "a = 'x--y' AND b = $1 - 1",
		"a = ? / 2 AND b = ?":                   "a = $1 / 2 AND b = $2",
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMigrationsMatchAcrossBackends: every schema change has both files.
func TestMigrationsMatchAcrossBackends(t *testing.T) {
	lite, err := migrationsIn(SQLite.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrationsIn(Postgres.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) != len(pg) {
		t.Fatalf("%d SQLite.Migrations, %d PostgreSQL ones: every schema change needs both", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].Name != pg[i].Name {
			t.Errorf("migration %d: %s on SQLite, %s on PostgreSQL", i+1, lite[i].Name, pg[i].Name)
		}
	}
}
