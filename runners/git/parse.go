package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
)

// Status is `git status --porcelain=v2 -z --branch` parsed: HEAD's commit and
// the entries, told in porcelain v1's terms (the facts' terms).
type Status struct {
	// Head is the full object name of HEAD; "" when Unborn.
	Head string
	// Unborn is git's "(initial)": the current branch has no commit yet.
	Unborn bool
	// Entries are in v2's order (conflicts after the other changes, untracked
	// last; v1 puts conflicts among the changes, so sort by path to compare),
	// paths relative to the top of the work tree.
	Entries []facts.GitStatusEntry
}

// v2Letters are the X and Y codes a porcelain v2 change record may carry;
// "." is v1's " " (unchanged).
const v2Letters = ".MTADRCU"

// ParseStatus parses `git status --porcelain=v2 -z --branch` output into the
// entries porcelain v1 would print for the same state: "." becomes " ", an
// untracked path is "??" and a conflict keeps its two letters. Ignored entries
// are dropped (the runner never asks for them), as are the headers other than
// branch.oid, which must be present. Malformed input is an error, never a
// panic or a guess.
func ParseStatus(out []byte) (Status, error) {
	var st Status
	sawOID := false
	recs := splitNUL(out)
	for i := 0; i < len(recs); i++ {
		rec, n := recs[i], i+1
		kind, rest, _ := strings.Cut(rec, " ")
		var e facts.GitStatusEntry
		var err error
		switch kind {
		case "#":
			key, val, _ := strings.Cut(rest, " ")
			if key != "branch.oid" {
				continue // branch.head, upstream, ab: the runner reads them elsewhere or not at all
			}
			if sawOID {
				return Status{}, fmt.Errorf("status record %d: second branch.oid", n)
			}
			sawOID = true
			switch {
			case val == "(initial)":
				st.Unborn = true
			case isObjectName(val):
				st.Head = val
			default:
				return Status{}, fmt.Errorf("status record %d: bad branch.oid %q", n, truncate(val, 80))
			}
			continue
		case "1": // XY sub mH mI mW hH hI path
			if e, _, err = changeRecord(rest, 7); err == nil {
				err = notConflict(e)
			}
		case "2": // XY sub mH mI mW hH hI Xscore path, then the source path
			var f []string
			if e, f, err = changeRecord(rest, 8); err == nil {
				err = notConflict(e)
			}
			if err == nil && !isScore(f[7]) {
				err = fmt.Errorf("bad score %q", truncate(f[7], 8))
			}
			if err == nil {
				if i++; i >= len(recs) || recs[i] == "" {
					return Status{}, fmt.Errorf("status record %d: rename of %q lacks its source path", n, e.Path)
				}
				e.OrigPath = recs[i]
			}
		case "u": // XY sub m1 m2 m3 mW h1 h2 h3 path
			if e, _, err = changeRecord(rest, 9); err == nil && !isUnmerged(e.Index+e.Worktree) {
				err = fmt.Errorf("%q is not a conflict", e.Index+e.Worktree)
			}
			e.Unmerged = true
		case "?":
			e = facts.GitStatusEntry{Path: rest, Index: "?", Worktree: "?", Untracked: true}
			if rest == "" {
				err = fmt.Errorf("untracked record without a path")
			}
		case "!":
			continue
		default:
			err = fmt.Errorf("malformed %q", truncate(rec, 40))
		}
		if err != nil {
			return Status{}, fmt.Errorf("status record %d: %w", n, err)
		}
		st.Entries = append(st.Entries, e)
	}
	if !sawOID {
		return Status{}, fmt.Errorf("status lacks the branch.oid header")
	}
	return st, nil
}

// changeRecord reads a "1", "2" or "u" record after its kind: XY, the
// submodule state, fields-2 more fields (modes, object names, a score) and the
// path, which may hold spaces. It returns the fields too, path last.
func changeRecord(rest string, fields int) (facts.GitStatusEntry, []string, error) {
	f := strings.SplitN(rest, " ", fields+1)
	if len(f) != fields+1 || f[fields] == "" {
		return facts.GitStatusEntry{}, nil, fmt.Errorf("malformed %q", truncate(rest, 80))
	}
	xy, sub := f[0], f[1]
	if len(xy) != 2 || strings.IndexByte(v2Letters, xy[0]) < 0 || strings.IndexByte(v2Letters, xy[1]) < 0 {
		return facts.GitStatusEntry{}, nil, fmt.Errorf("unknown status %q", truncate(xy, 8))
	}
	if len(sub) != 4 || (sub != "N..." && sub[0] != 'S') {
		return facts.GitStatusEntry{}, nil, fmt.Errorf("bad submodule state %q", truncate(sub, 8))
	}
	for _, field := range f[2:fields] {
		if field == "" {
			return facts.GitStatusEntry{}, nil, fmt.Errorf("malformed %q", truncate(rest, 80))
		}
	}
	v1 := strings.ReplaceAll(xy, ".", " ")
	return facts.GitStatusEntry{Path: f[fields], Index: v1[:1], Worktree: v1[1:]}, f, nil
}

// notConflict rejects conflict letters outside a "u" record, where v1's
// reading (a conflict is known by its letters) would disagree with v2's.
func notConflict(e facts.GitStatusEntry) error {
	if xy := e.Index + e.Worktree; strings.Contains(xy, "U") || isUnmerged(xy) {
		return fmt.Errorf("conflict %q outside a conflict record", xy)
	}
	return nil
}

// isUnmerged reports whether XY is one of the seven conflict states.
func isUnmerged(xy string) bool {
	switch xy {
	case "DD", "AU", "UD", "UA", "DU", "AA", "UU":
		return true
	}
	return false
}

// isScore reports whether s is a rename or copy score ("R100", "C75").
func isScore(s string) bool {
	if len(s) < 2 || (s[0] != 'R' && s[0] != 'C') {
		return false
	}
	_, err := strconv.ParseUint(s[1:], 10, 16)
	return err == nil
}

// isObjectName reports whether s is a full SHA-1 or SHA-256 object name.
func isObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := range len(s) {
		if !strings.ContainsRune("0123456789abcdef", rune(s[i])) {
			return false
		}
	}
	return true
}

// ParseNumstat parses `git diff --numstat -z` output. A rename or copy carries
// its source in OrigPath; a binary file ("-" counts) carries Binary=true.
func ParseNumstat(out []byte) ([]facts.GitNumstat, error) {
	stats, _, sep, err := readNumstat(out)
	if err != nil {
		return nil, err
	}
	if sep {
		return nil, fmt.Errorf("numstat record %d: empty", len(stats)+1)
	}
	return stats, nil
}

// ParseNumstatPatch splits `git diff --numstat -z --patch` output into the
// numstat and the patch that follows the empty record git puts between them.
func ParseNumstatPatch(out []byte) ([]facts.GitNumstat, []byte, error) {
	if len(out) == 0 {
		return nil, nil, nil
	}
	stats, patch, sep, err := readNumstat(out)
	if err != nil {
		return nil, nil, err
	}
	if !sep {
		return nil, nil, fmt.Errorf("numstat is not followed by a patch")
	}
	return stats, patch, nil
}

// readNumstat reads NUL-terminated numstat records up to the end of out or an
// empty record, and returns what follows that record and whether there was one.
func readNumstat(out []byte) (stats []facts.GitNumstat, rest []byte, sep bool, err error) {
	next := func() (string, bool) {
		if len(out) == 0 {
			return "", false
		}
		rec, after, _ := bytes.Cut(out, []byte{0})
		out = after
		return string(rec), true
	}
	for n := 1; ; n++ {
		rec, ok := next()
		switch {
		case !ok:
			return stats, nil, false, nil
		case rec == "":
			return stats, out, true, nil
		}
		added, rest, ok1 := strings.Cut(rec, "\t")
		deleted, path, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 {
			return nil, nil, false, fmt.Errorf("numstat record %d: malformed %q", n, truncate(rec, 40))
		}
		s := facts.GitNumstat{Path: path}
		if added == "-" && deleted == "-" {
			s.Binary = true
		} else {
			a, errA := strconv.ParseInt(added, 10, 64)
			d, errD := strconv.ParseInt(deleted, 10, 64)
			if errA != nil || errD != nil || a < 0 || d < 0 {
				return nil, nil, false, fmt.Errorf("numstat record %d: bad counts %q %q", n, added, deleted)
			}
			s.Added, s.Removed = a, d
		}
		if path == "" {
			orig, ok1 := next()
			path, ok2 := next()
			if !ok1 || !ok2 || orig == "" || path == "" {
				return nil, nil, false, fmt.Errorf("numstat record %d: rename lacks its paths", n)
			}
			s.OrigPath, s.Path = orig, path
		}
		stats = append(stats, s)
	}
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
