package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
)

// statusLetters are the X and Y codes porcelain v1 may print.
const statusLetters = " MTADRCU?!"

// ParsePorcelain parses `git status --porcelain=v1 -z` output. Paths are as git
// printed them (relative to the top of the work tree). Ignored entries ("!!")
// are dropped: the runner never asks for them and a policy must not mistake
// them for changes. Malformed input is an error, never a panic or a guess.
func ParsePorcelain(out []byte) ([]facts.GitStatusEntry, error) {
	var entries []facts.GitStatusEntry
	recs := splitNUL(out)
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if len(rec) < 4 || rec[2] != ' ' {
			return nil, fmt.Errorf("status record %d: malformed %q", i+1, truncate(rec, 40))
		}
		x, y := rec[0], rec[1]
		if strings.IndexByte(statusLetters, x) < 0 || strings.IndexByte(statusLetters, y) < 0 {
			return nil, fmt.Errorf("status record %d: unknown status %q", i+1, rec[:2])
		}
		e := facts.GitStatusEntry{
			Path:      rec[3:],
			Index:     string(x),
			Worktree:  string(y),
			Untracked: x == '?' && y == '?',
			Unmerged:  isUnmerged(x, y),
		}
		if x == 'R' || x == 'C' || y == 'R' || y == 'C' {
			i++
			if i >= len(recs) || recs[i] == "" {
				return nil, fmt.Errorf("status record %d: rename of %q lacks its source path", i, e.Path)
			}
			e.OrigPath = recs[i]
		}
		if x == '!' && y == '!' {
			continue
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// isUnmerged reports whether XY is one of the seven conflict states.
func isUnmerged(x, y byte) bool {
	switch string([]byte{x, y}) {
	case "DD", "AU", "UD", "UA", "DU", "AA", "UU":
		return true
	}
	return false
}

// ParseNumstat parses `git diff --numstat -z` output. A rename or copy carries
// its source in OrigPath; a binary file ("-" counts) carries Binary=true.
func ParseNumstat(out []byte) ([]facts.GitNumstat, error) {
	var stats []facts.GitNumstat
	recs := splitNUL(out)
	for i := 0; i < len(recs); i++ {
		added, rest, ok1 := strings.Cut(recs[i], "\t")
		deleted, path, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("numstat record %d: malformed %q", i+1, truncate(recs[i], 40))
		}
		n := facts.GitNumstat{Path: path}
		if added == "-" && deleted == "-" {
			n.Binary = true
		} else {
			a, errA := strconv.ParseInt(added, 10, 64)
			d, errD := strconv.ParseInt(deleted, 10, 64)
			if errA != nil || errD != nil || a < 0 || d < 0 {
				return nil, fmt.Errorf("numstat record %d: bad counts %q %q", i+1, added, deleted)
			}
			n.Added, n.Removed = a, d
		}
		if path == "" {
			if i+2 >= len(recs) {
				return nil, fmt.Errorf("numstat record %d: rename lacks its paths", i+1)
			}
			n.OrigPath, n.Path = recs[i+1], recs[i+2]
			i += 2
		}
		stats = append(stats, n)
	}
	return stats, nil
}

// splitNUL splits NUL-terminated records, tolerating a missing final NUL.
func splitNUL(out []byte) []string {
	out = bytes.TrimSuffix(out, []byte{0})
	if len(out) == 0 {
		return nil
	}
	parts := bytes.Split(out, []byte{0})
	recs := make([]string, len(parts))
	for i, p := range parts {
		recs[i] = string(p)
	}
	return recs
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
