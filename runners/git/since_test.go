package git

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
)

// changelogRepo has CHANGELOG.md and code.py committed at t0.
func changelogRepo(t *testing.T) *repo {
	r := newRepo(t)
	r.write("CHANGELOG.md", "# Changelog\n\n## 1.0\n- first\n")
	r.write("code.py", "x = 1\n")
	r.commitAt("base", t0)
	return r
}

func TestSinceTimeCountsCommittedUncommittedAndUntracked(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	start := t0.Add(time.Hour) // the task started after the base commit
	r.write("CHANGELOG.md", "# Changelog\n\n## 1.1\n- fixed the parser\n\n## 1.0\n- first\n")
	r.commitAt("during the task", start.Add(time.Hour))
	r.write("code.py", "x = 2\n")                // uncommitted
	r.write("notes/new file.md", "line one\n\n") // untracked
	r.write("logo.png", "\x89PNG\x00\x00")       // untracked binary

	g := mustOK(t, gather(t, r.root, start.UTC().Format(time.RFC3339Nano)))
	s := g.Since
	if s == nil || s.Kind != "time" || s.Time != "2026-05-01T11:00:00Z" {
		t.Fatalf("since: %s", dump(s))
	}
	if base := r.git("rev-list", "--max-parents=0", "HEAD"); s.Base != base {
		t.Fatalf("base %s, want the commit before the start %s", s.Base, base)
	}
	cl := findChange(g, "CHANGELOG.md")
	if cl == nil || cl.Added != 3 || cl.AddedNonBlank != 2 || cl.Untracked {
		t.Fatalf("CHANGELOG.md: %s", dump(cl))
	}
	if strings.Join(cl.Lines, "|") != "## 1.1|- fixed the parser|" {
		t.Fatalf("CHANGELOG.md lines %q", cl.Lines)
	}
	if c := findChange(g, "code.py"); c == nil || c.Added != 1 || c.Removed != 1 || c.Lines[0] != "x = 2" {
		t.Fatalf("code.py: %s", dump(c))
	}
	if c := findChange(g, "notes/new file.md"); c == nil || !c.Untracked || c.Added != 2 || c.AddedNonBlank != 1 {
		t.Fatalf("untracked: %s", dump(c))
	}
	if c := findChange(g, "logo.png"); c == nil || !c.Binary || c.Added != 0 || len(c.Lines) != 0 {
		t.Fatalf("binary: %s", dump(c))
	}
	if len(s.Files) != 4 {
		t.Fatalf("files:\n%s", dump(s.Files))
	}
}

func TestSinceTimeWhitespaceOnlyIsBlank(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	r.write("CHANGELOG.md", "# Changelog\n\n## 1.0\n- first\n   \n\t\n\u00a0\r\n")
	g := mustOK(t, gather(t, r.root, (t0.Add(time.Minute)).UTC().Format(time.RFC3339Nano)))
	cl := findChange(g, "CHANGELOG.md")
	if cl == nil || cl.Added != 3 || cl.AddedNonBlank != 0 {
		t.Fatalf("CHANGELOG.md: %s", dump(cl))
	}
}

func TestSinceTimeNothingChanged(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	g := mustOK(t, gather(t, r.root, (t0.Add(time.Minute)).UTC().Format(time.RFC3339Nano)))
	if g.Since == nil || len(g.Since.Files) != 0 || g.Since.Files == nil {
		t.Fatalf("since: %s", dump(g.Since))
	}
}

func TestSinceBeforeFirstCommitCountsEverything(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	g := mustOK(t, gather(t, r.root, (t0.Add(-time.Hour)).UTC().Format(time.RFC3339Nano)))
	if g.Since.Base != "" {
		t.Fatalf("base %q, want none", g.Since.Base)
	}
	if c := findChange(g, "CHANGELOG.md"); c == nil || c.Added != 4 || c.AddedNonBlank != 3 {
		t.Fatalf("CHANGELOG.md: %s", dump(c))
	}
}

func TestSinceOnUnbornBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("CHANGELOG.md", "- entry\n")
	r.git("add", "CHANGELOG.md")
	r.write("scratch.txt", "x\n")
	g := mustOK(t, gather(t, r.root, t0.UTC().Format(time.RFC3339Nano)))
	if c := findChange(g, "CHANGELOG.md"); c == nil || c.AddedNonBlank != 1 || c.Untracked {
		t.Fatalf("staged CHANGELOG.md: %s", dump(c))
	}
	if c := findChange(g, "scratch.txt"); c == nil || !c.Untracked {
		t.Fatalf("scratch.txt: %s", dump(c))
	}
}

func TestSinceRefUsesMergeBase(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "feature")
	r.write("feature.py", "y = 1\n")
	r.commitAt("feature work", t0.Add(time.Hour))
	r.git("checkout", "-q", "main")
	r.write("main-only.txt", "m\n")
	r.commitAt("main moves on", t0.Add(2*time.Hour))
	r.git("checkout", "-q", "feature")
	r.git("mv", "code.py", "renamed.py")

	g := mustOK(t, gather(t, r.root, "main"))
	s := g.Since
	if s.Kind != "ref" || s.Spec != "main" || s.Base != base {
		t.Fatalf("since: %s (want base %s)", dump(s), base)
	}
	var paths []string
	for _, f := range s.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "feature.py,renamed.py" {
		t.Fatalf("changed %v, want feature.py and renamed.py (main-only.txt is main's, not ours)", paths)
	}
	if c := findChange(g, "renamed.py"); c.OrigPath != "code.py" || c.Added != 0 {
		t.Fatalf("rename: %s", dump(c))
	}
}

func TestSinceDeletedFile(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	r.git("rm", "-q", "code.py")
	g := mustOK(t, gather(t, r.root, "HEAD"))
	if c := findChange(g, "code.py"); c == nil || !c.Deleted || c.Removed != 1 {
		t.Fatalf("code.py: %s", dump(c))
	}
}

func TestSinceDurationUsesClock(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	now := func() time.Time { return t0.Add(3 * time.Hour) }
	g := mustOK(t, gather(t, r.root, "2h", WithClock(now)))
	if g.Since.Kind != "time" || g.Since.Time != "2026-05-01T11:00:00Z" || g.Since.Spec != "2h" {
		t.Fatalf("since: %s", dump(g.Since))
	}
}

func TestSinceUnknownRefIsError(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	ns := gather(t, r.root, "no-such-branch")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "no-such-branch") {
		t.Fatalf("got %s %q", ns.Status, ns.Reason)
	}
	ns = gather(t, r.root, "--output=/tmp/x")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "must not start with '-'") {
		t.Fatalf("got %s %q", ns.Status, ns.Reason)
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in      string
		ref     string
		at      time.Time
		wantErr bool
	}{
		{in: ""},
		{in: "main", ref: "main"},
		{in: "HEAD~3", ref: "HEAD~3"},
		{in: "refs/heads/3h", ref: "refs/heads/3h"},
		{in: "2026-01-01T00:00:00Z", at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		{in: "2026-01-01T02:00:00+02:00", at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		{in: "@1767225600", at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		{in: "3h", at: now.Add(-3 * time.Hour)},
		{in: "-3h", wantErr: true},
		{in: "0s", wantErr: true},
		{in: "-x", wantErr: true},
		{in: "a b", wantErr: true},
		{in: "a\nb", wantErr: true},
	}
	for _, c := range cases {
		s, err := ParseSince(c.in, now)
		if (err != nil) != c.wantErr {
			t.Errorf("%q: err %v", c.in, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrBadSince) {
				t.Errorf("%q: err %v is not ErrBadSince", c.in, err)
			}
			continue
		}
		if s.Ref != c.ref || !s.Time.Equal(c.at) {
			t.Errorf("%q: got ref %q time %v", c.in, s.Ref, s.Time)
		}
	}
}

func TestSinceUntrackedAfterRmCached(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	r.git("rm", "-q", "--cached", "code.py")
	g := mustOK(t, gather(t, r.root, "HEAD"))
	if len(g.Since.Files) != 1 {
		t.Fatalf("files:\n%s", dump(g.Since.Files))
	}
	if c := g.Since.Files[0]; c.Path != "code.py" || !c.Untracked || c.Deleted || c.Added != 1 || c.Removed != 1 {
		t.Fatalf("code.py: %s", dump(c))
	}
}

func TestSinceRefOnUnbornBranch(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	r.git("checkout", "-q", "--orphan", "fresh") // keeps main's files, staged
	g := mustOK(t, gather(t, r.root, "main"))
	if !g.Unborn || g.Since == nil || g.Since.Kind != "ref" || g.Since.Base != "" {
		t.Fatalf("unborn %v since %s", g.Unborn, dump(g.Since))
	}
	if c := findChange(g, "CHANGELOG.md"); c == nil || c.Added != 4 || c.Untracked {
		t.Fatalf("CHANGELOG.md: %s", dump(c))
	}
	ns := gather(t, r.root, "no-such-branch")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, `"no-such-branch" is not a commit`) {
		t.Fatalf("got %s %q", ns.Status, ns.Reason)
	}
}

func TestSinceRefNotACommitOrUnrelated(t *testing.T) {
	t.Parallel()
	r := changelogRepo(t)
	r.git("checkout", "-q", "--orphan", "unrelated")
	r.git("rm", "-q", "-r", "--cached", ".")
	r.write("other.txt", "o\n")
	r.commitAt("unrelated root", t0)
	for spec, want := range map[string]string{
		"main":                   `"main" shares no history with HEAD`,
		"main:CHANGELOG.md":      `"main:CHANGELOG.md" is not a commit`,
		"main^{tree}":            `"main^{tree}" is not a commit`,
		"0000000000000000000000": `"0000000000000000000000" is not a commit`,
	} {
		ns := gather(t, r.root, spec)
		if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, want) || !strings.Contains(ns.Reason, ErrBadSince.Error()) {
			t.Errorf("%s: got %s %q, want %q", spec, ns.Status, ns.Reason, want)
		}
	}
}

func TestSinceSHA256Repository(t *testing.T) {
	t.Parallel()
	r := &repo{t: t, root: t.TempDir()}
	r.git("init", "-q", "-b", "main", "--object-format=sha256")
	r.write("CHANGELOG.md", "- one\n")
	r.commitAt("one", t0)
	r.write("CHANGELOG.md", "- one\n- two\n")
	g := mustOK(t, gather(t, r.root, t0.Add(-time.Hour).Format(time.RFC3339)))
	if len(g.Head) != 64 || g.Since.Base != "" {
		t.Fatalf("head %q base %q", g.Head, g.Since.Base)
	}
	if c := findChange(g, "CHANGELOG.md"); c == nil || c.Added != 2 || c.Removed != 0 {
		t.Fatalf("CHANGELOG.md: %s", dump(c))
	}
}

// TestEmptyTrees checks the built-in empty tree names against git's, and
// that a format the runner does not know is asked of git.
func TestEmptyTrees(t *testing.T) {
	t.Parallel()
	for format, want := range emptyTrees {
		r := &repo{t: t, root: t.TempDir()}
		r.git("init", "-q", "--object-format="+format)
		if got := strings.TrimSpace(string(gitRaw(t, r.root, "hash-object", "-t", "tree", "--stdin"))); got != want {
			t.Errorf("%s: git says %s, the runner %s", format, got, want)
		}
		got, err := emptyTree(context.Background(), newGitCmd("git", r.root), "a future format")
		if err != nil || got != want {
			t.Errorf("%s, asking git: %q %v", format, got, err)
		}
	}
}
