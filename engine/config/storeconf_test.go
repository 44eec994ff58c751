package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
)

func TestLocateStore(t *testing.T) {
	root := t.TempDir()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	user := write("user.json", `{"store": "postgres://u@user.example/tausik"}`)
	managed := write("managed.json", `{"store": "postgres://m@managed.example/tausik"}`)
	sqliteUser := write("sqlite.json", `{"store": "sqlite"}`)
	for _, tc := range []struct {
		name string
		env  map[string]string
		url  string // "" = SQLite
		path string
		from string
	}{
		{"default", nil, "", filepath.Join(root, StateDir, "tausik.db"), "default"},
		{"TAUSIK_DB", map[string]string{EnvDB: "/x/t.db"}, "", "/x/t.db", "default"},
		{"user tier", map[string]string{EnvUserConfig: user}, "postgres://u@user.example/tausik", "", "user config"},
		{"env over user", map[string]string{EnvUserConfig: user, EnvStore: "postgres://e:pw@env.example/t"},
			"postgres://e:pw@env.example/t", "", EnvStore},
		{"env sqlite over user", map[string]string{EnvUserConfig: user, EnvStore: "sqlite"},
			"", filepath.Join(root, StateDir, "tausik.db"), EnvStore},
		{"managed over env", map[string]string{EnvUserConfig: user, EnvManagedConfig: managed, EnvStore: "postgres://e@env.example/t"},
			"postgres://m@managed.example/tausik", "", "managed config"},
		{"user sqlite", map[string]string{EnvUserConfig: sqliteUser}, "", filepath.Join(root, StateDir, "tausik.db"), "user config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, err := LocateStore(root, func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if loc.URL != tc.url || loc.Path != tc.path || !strings.HasPrefix(loc.From, tc.from) {
				t.Fatalf("got %+v, want url %q path %q from %q", loc, tc.url, tc.path, tc.from)
			}
		})
	}
}

func TestLocateStoreRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, tier, body, env, want string
	}{
		{"project tier", TierProject, `{"store": "postgres://h/db"}`, "", "tausik/gates.json:1: store: the store is chosen by the user or managed config"},
		{"password in user tier", TierUser, `{"store": "postgres://u:pw@h/db"}`, "", "store: the URL holds a password"},
		{"password parameter", TierManaged, `{"store": "postgres://u@h/db?password=pw"}`, "", "store: the URL holds a password"},
		{"not a URL", TierUser, `{"store": "/var/db/tausik.db"}`, "", `store: want a postgres:// URL or "sqlite", got "/var/db/tausik.db"`},
		{"not a string", TierUser, `{"store": 5}`, "", `store: want a postgres:// URL or "sqlite", got`},
		{"bad env", "", "", "mysql://h/db", `TAUSIK_STORE: want a postgres:// URL or "sqlite", got "mysql://h/db"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			env := map[string]string{EnvStore: tc.env}
			switch tc.tier {
			case TierProject:
				if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, "tausik", "gates.json"), []byte(tc.body), 0o644); err != nil {
					t.Fatal(err)
				}
			case TierUser, TierManaged:
				p := filepath.Join(dir, tc.name+".json")
				if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
					t.Fatal(err)
				}
				env[map[string]string{TierUser: EnvUserConfig, TierManaged: EnvManagedConfig}[tc.tier]] = p
			}
			_, err := LocateStore(root, func(k string) string { return env[k] })
			if !errors.Is(err, diag.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want diag.ErrConfig containing %q", err, tc.want)
			}
		})
	}
}
