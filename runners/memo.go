package runners

import "sync"

// memo holds the values Scope.Memo computed.
type memo struct {
	mu      sync.Mutex
	entries map[string]*memoEntry
}

type memoEntry struct {
	once sync.Once
	v    any
}

// Memo returns the value f computes for key, computing it once per scope:
// runners that need the same derived facts (the stacks found, which several
// stack gates read to know where to run) share one computation in an
// evaluation. Concurrent callers of one key wait for the first.
func (s *Scope) Memo(key string, f func() any) any {
	s.memo.mu.Lock()
	if s.memo.entries == nil {
		s.memo.entries = map[string]*memoEntry{}
	}
	e := s.memo.entries[key]
	if e == nil {
		e = &memoEntry{}
		s.memo.entries[key] = e
	}
	s.memo.mu.Unlock()
	e.once.Do(func() { e.v = f() })
	return e.v
}
