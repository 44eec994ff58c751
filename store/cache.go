package store

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// CacheKey identifies a cached fact: which runner (and which version of it)
// derived it from which file content. A hit needs all three to match.
type CacheKey struct {
	Runner  string
	Version string
	SHA256  string // lower-case hex of the content, as facts.File.SHA256
}

// CacheEntry is one key and its JSON value, for CachePutMany.
type CacheEntry struct {
	Key   CacheKey
	Value json.RawMessage // any JSON value; stored as given
}

func (k CacheKey) validate() error {
	if k.Runner == "" || k.Version == "" {
		return fmt.Errorf("%w: runner and version are required", ErrInvalidCacheEntry)
	}
	if !isHex64(k.SHA256) {
		return fmt.Errorf("%w: sha256 %q is not 64 lower-case hex digits", ErrInvalidCacheEntry, k.SHA256)
	}
	return nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// CacheGet returns the cached value for key. A row stored by another runner
// version, or whose value is not valid JSON (a damaged file, a hand edit), is
// reported as a miss and never returned: a cache may only ever save work,
// never change an answer. Errors are for I/O only.
func (s *Store) CacheGet(ctx context.Context, key CacheKey) (json.RawMessage, bool, error) {
	got, err := s.CacheGetMany(ctx, key.Runner, key.Version, []string{key.SHA256})
	if err != nil {
		return nil, false, err
	}
	v, ok := got[key.SHA256]
	return v, ok, nil
}

// CacheGetMany looks up many contents of one runner version at once and
// returns the hits keyed by sha256; misses (including stale or corrupt rows)
// are simply absent.
func (s *Store) CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error) {
	got, err := s.cacheGet(ctx, runner, version, shas, validValue)
	out := make(map[string]json.RawMessage, len(got))
	for k, v := range got {
		out[k] = v
	}
	return out, err
}

// CacheGetText is CacheGetMany for values stored by CachePutText: the text
// as it was stored, unchecked, for a caller that checks what it reads
// itself (the runners' cache index, whose rows carry a checksum: checking
// megabytes as JSON first cost more than the reads they save).
func (s *Store) CacheGetText(ctx context.Context, runner, version string, shas []string) (map[string][]byte, error) {
	return s.cacheGet(ctx, runner, version, shas, nil)
}

// cacheGet returns the values of runner at version for shas that valid (nil:
// any) accepts.
func (s *Store) cacheGet(ctx context.Context, runner, version string, shas []string, valid func([]byte) bool) (map[string][]byte, error) {
	if s.cache != nil {
		return s.cache.cacheGet(ctx, runner, version, shas, valid)
	}
	out := map[string][]byte{}
	var keys []any
	for _, sha := range shas {
		if (CacheKey{Runner: runner, Version: version, SHA256: sha}).validate() == nil {
			keys = append(keys, sha)
		}
	}
	const chunk = 500 // stay far below SQLite's bound-parameter limit
	for len(keys) > 0 {
		n := min(chunk, len(keys))
		part := keys[:n]
		keys = keys[n:]
		// Hot: a hook call asks for the same gates' verdicts every time.
		q := sqldb.Hot(`SELECT content_sha256, runner_version, value FROM fact_cache WHERE runner = ? AND content_sha256 IN (?` +
			strings.Repeat(",?", len(part)-1) + ")")
		rows, err := s.db.Conn().QueryContext(ctx, q, append([]any{runner}, part...)...)
		if err != nil {
			return nil, fmt.Errorf("cache get: %w", sqldb.Classify(err))
		}
		for rows.Next() {
			var sha, v string
			var value []byte // scanned as bytes: an index row is megabytes, and a string would be copied again
			if err := rows.Scan(&sha, &v, &value); err != nil {
				rows.Close()
				return nil, fmt.Errorf("cache get: %w", err)
			}
			if v == version && (valid == nil || valid(value)) {
				out[sha] = value
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("cache get: %w", err)
		}
	}
	return out, nil
}

// CachePut stores one value, replacing whatever the runner cached for that
// content before (including an older version's row).
func (s *Store) CachePut(ctx context.Context, key CacheKey, value json.RawMessage) error {
	return s.CachePutMany(ctx, []CacheEntry{{Key: key, Value: value}})
}

// CachePutMany stores many values in one transaction: a runner that scanned a
// thousand files pays for one commit, not a thousand. Either all are stored
// or, on an invalid entry, none.
func (s *Store) CachePutMany(ctx context.Context, entries []CacheEntry) error {
	for _, e := range entries {
		if !validValue(e.Value) {
			return fmt.Errorf("cache put %s %s: %w: value is not JSON", e.Key.Runner, e.Key.SHA256, ErrInvalidCacheEntry)
		}
	}
	texts := make([]CacheText, len(entries))
	for i, e := range entries {
		texts[i] = CacheText{Key: e.Key, Text: string(e.Value)}
	}
	return s.cachePut(ctx, texts)
}

// CacheText is one key and a value of any text, for CachePutText.
type CacheText struct {
	Key  CacheKey
	Text string // UTF-8; stored as given
}

// CachePutText is CachePutMany for values of any UTF-8 text, which
// CacheGetText returns as stored and CacheGetMany only when they are JSON.
func (s *Store) CachePutText(ctx context.Context, entries []CacheText) error {
	for _, e := range entries {
		if !utf8.ValidString(e.Text) {
			return fmt.Errorf("cache put %s %s: %w: value is not UTF-8", e.Key.Runner, e.Key.SHA256, ErrInvalidCacheEntry)
		}
	}
	return s.cachePut(ctx, entries)
}

// cachePut stores entries, whose values the caller checked, in one
// transaction.
func (s *Store) cachePut(ctx context.Context, entries []CacheText) error {
	if s.cache != nil {
		return s.cache.cachePut(ctx, entries)
	}
	for _, e := range entries {
		if err := e.Key.validate(); err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
	}
	if len(entries) == 0 {
		return nil
	}
	now := sqldb.FormatTime(s.db.Clock())
	err := s.db.Write(ctx, func(q sqldb.Querier) error {
		for _, e := range entries {
			_, err := q.ExecContext(ctx, `INSERT INTO fact_cache (runner, content_sha256, runner_version, value, stored_at)
				VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (runner, content_sha256) DO UPDATE SET
				runner_version = excluded.runner_version, value = excluded.value, stored_at = excluded.stored_at`,
				e.Key.Runner, e.Key.SHA256, e.Key.Version, e.Text, now)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache put: %w", err)
	}
	return nil
}

// validValue reports whether v is JSON.
func validValue(v []byte) bool { return json.Valid(v) }
