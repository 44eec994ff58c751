package config

import (
	"fmt"
	"path/filepath"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/store"
)

// EnvStore names the store for one process or CI job: a postgres:// URL (it
// may carry the password: the environment is where credentials live) or
// "sqlite" for the project's local file.
const EnvStore = "TAUSIK_STORE"

// keyStore is the config key naming the store in the user or managed tier.
const keyStore = "store"

// storeSQLite is the store value that names the local SQLite file.
const storeSQLite = "sqlite"

// StoreLocation is where the project's store lives and which setting said so.
type StoreLocation struct {
	URL  string // a postgres:// URL; "" means the SQLite file at Path
	Path string // the SQLite file, when URL is ""
	From string // what chose it, for messages: TAUSIK_STORE, a config file, or "default"
}

// checkStoreKey vets a config file's store value and returns what is wrong
// with it, or "". The project tier is committed with the code under review:
// a store named there would send every clone's decisions wherever the
// commit says, so it is refused outright. The user and managed tiers may name
// a server but never hold its password.
func checkStoreKey(tier string, v any) string {
	if tier == TierProject {
		return "the store is chosen by the user or managed config or " + EnvStore +
			", never by a committed project file"
	}
	s, ok := v.(string)
	switch {
	case !ok:
		return fmt.Sprintf("want a postgres:// URL or %q, got %s", storeSQLite, diag.Describe(v))
	case s == storeSQLite:
		return ""
	case !store.IsPostgresURL(s):
		return fmt.Sprintf("want a postgres:// URL or %q, got %q", storeSQLite, s)
	case store.URLHasPassword(s):
		return "the URL holds a password; credentials come only from the environment " +
			"(PGPASSWORD, PGPASSFILE or ~/.pgpass, or the URL in " + EnvStore + ")"
	}
	return ""
}

// LocateStore says where root's store lives. The managed tier decides first
// (an organisation's shared log is not a developer's to opt out of), then
// TAUSIK_STORE, then the user tier; without any of them it is the SQLite file
// $TAUSIK_DB, else .tausik/tausik.db under root. A store key in the project
// tier is an diag.ErrConfig naming file and line, as is a malformed value
// anywhere, and so is a tier's file inside root (checkTierEnv).
func LocateStore(root string, getenv func(string) string) (StoreLocation, error) {
	if err := checkTierEnv(root, getenv); err != nil {
		return StoreLocation{}, err
	}
	tiers := []struct {
		tier, path string
		required   bool
	}{
		{TierProject, filepath.Join(root, "tausik", "gates.json"), false},
		{TierManaged, getenv(EnvManagedConfig), true},
		{TierUser, UserConfigPath(getenv), false},
	}
	chosen := map[string]StoreLocation{}
	for _, t := range tiers {
		display := t.path
		if t.tier == TierProject {
			display = "tausik/gates.json"
		}
		tf, err := Load(t.tier, t.path, display, t.required)
		if err != nil {
			return StoreLocation{}, err
		}
		if tf == nil {
			continue
		}
		if v, ok := tf.top[keyStore].(string); ok {
			chosen[t.tier] = StoreLocation{URL: v, From: t.tier + " config " + display}
		}
	}
	env := getenv(EnvStore)
	if env != "" && env != storeSQLite && !store.IsPostgresURL(env) {
		return StoreLocation{}, fmt.Errorf("%w: %s: want a postgres:// URL or %q, got %q",
			diag.ErrConfig, EnvStore, storeSQLite, store.RedactURL(env))
	}
	loc, ok := chosen[TierManaged]
	switch {
	case ok:
	case env != "":
		loc = StoreLocation{URL: env, From: EnvStore}
	default:
		if loc, ok = chosen[TierUser]; !ok {
			loc = StoreLocation{From: "default"}
		}
	}
	if loc.URL == storeSQLite || loc.URL == "" {
		loc.URL, loc.Path = "", getenv(EnvDB)
		if loc.Path == "" {
			loc.Path = filepath.Join(root, StateDir, "tausik.db")
		}
	}
	return loc, nil
}

// UserConfigPath is the user tier's file: $TAUSIK_USER_CONFIG, else
// ~/.tausik/config.json, else none.
func UserConfigPath(getenv func(string) string) string {
	if p := getenv(EnvUserConfig); p != "" {
		return p
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".tausik", "config.json")
	}
	return ""
}

// Environment variables that locate the configuration tiers and the store.
const (
	EnvUserConfig    = "TAUSIK_USER_CONFIG"    // default ~/.tausik/config.json
	EnvManagedConfig = "TAUSIK_MANAGED_CONFIG" // unset = no managed tier
	EnvDB            = "TAUSIK_DB"             // default <root>/.tausik/tausik.db
)

// StateDir is the project's local, uncommitted state: database and keys.
const StateDir = ".tausik"
