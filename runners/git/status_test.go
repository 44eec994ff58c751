package git

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// gitRaw runs git in dir the way the runner does (its environment and global
// options) and returns stdout untrimmed; exit status 1 is not a failure.
func gitRaw(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	out, err := newGitCmd("git", dir).run(context.Background(), args...)
	if err != nil && exitCode(err) != 1 {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// gitMayFail runs git in the repo, for commands expected to fail (a merge
// that stops on conflicts).
func (r *repo) gitMayFail(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.root
	_ = cmd.Run()
}

// porcelainV1 reads `git status --porcelain=v1 -z` the plain way. It is the
// oracle ParseStatus must agree with: the facts are v1's entries.
func porcelainV1(t *testing.T, dir string) []facts.GitStatusEntry {
	t.Helper()
	out := gitRaw(t, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--find-renames")
	var es []facts.GitStatusEntry
	recs := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i < len(recs) && recs[i] != ""; i++ {
		xy := recs[i][:2]
		e := facts.GitStatusEntry{Path: recs[i][3:], Index: xy[:1], Worktree: xy[1:], Untracked: xy == "??", Unmerged: isUnmerged(xy)}
		if strings.ContainsAny(xy, "RC") {
			i++
			e.OrigPath = recs[i]
		}
		es = append(es, e)
	}
	return es
}

// edgeNames are paths that porcelain output must carry unharmed.
var edgeNames = []string{
	"sp ace.txt", " leading space", "trailing space ", "new\nline.txt", "ta\tb.txt", `quo"te.txt`,
	"naïve café.txt", "a -> b.txt", `back\slash.txt`, "日本/語.txt",
}

// edgeRepo is a repository in the middle of a merge that stopped on all seven
// kinds of conflict, with a dirty submodule (new commits, modified and
// untracked content) and, around them, every other state status reports:
// modified in the index and the work tree, renamed with and without edits,
// deleted, a type change, intent to add, removed from the index but kept on
// disk, untracked and ignored files, under names with spaces, newlines, tabs,
// quotes and non-ASCII letters.
func edgeRepo(t *testing.T) *repo {
	t.Helper()
	r := newRepo(t)
	r.write(".gitignore", "*.log\n")
	for i, n := range edgeNames {
		r.write(n, strings.Repeat("line\n", i+3))
	}
	for _, n := range []string{"both.txt", "deleted_ours.txt", "deleted_theirs.txt", "staged.txt", "mixed.txt", "gone.txt", "kept.txt", "typechange.txt"} {
		r.write(n, "base\nof "+n+"\n")
	}
	r.write("orig.txt", "a file both sides rename\nto different names\nso the merge\nmust stop\n")
	sub := filepath.Join(r.root, "sub")
	subRepo := &repo{t: t, root: sub}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	subRepo.git("init", "-q", "-b", "main")
	subRepo.write("s.txt", "s\n")
	subRepo.commitAt("sub", t0)
	r.commitAt("base", t0) // records sub as a gitlink

	r.git("checkout", "-q", "-b", "other")
	r.write("both.txt", "theirs\n")
	r.write("added.txt", "theirs\n")
	r.git("rm", "-q", "deleted_theirs.txt")
	r.write("deleted_ours.txt", "theirs\n")
	r.git("mv", "orig.txt", "theirs_name.txt")
	r.commitAt("other", t0)
	r.git("checkout", "-q", "main")
	r.write("both.txt", "ours\n")
	r.write("added.txt", "ours\n")
	r.git("rm", "-q", "deleted_ours.txt")
	r.write("deleted_theirs.txt", "ours\n")
	r.git("mv", "orig.txt", "ours_name.txt")
	r.commitAt("ours", t0)
	r.gitMayFail("merge", "-q", "other")

	subRepo.write("s.txt", "s2\n")
	subRepo.commitAt("sub moves", t0)
	subRepo.write("s.txt", "dirty\n")
	subRepo.write("u.txt", "untracked\n")
	r.write("staged.txt", "staged\n")
	r.git("add", "staged.txt")
	r.write("mixed.txt", "staged\n")
	r.git("add", "mixed.txt")
	r.write("mixed.txt", "staged\nthen edited\n")
	r.git("rm", "-q", "gone.txt")
	r.git("rm", "-q", "--cached", "kept.txt")
	if err := os.Remove(filepath.Join(r.root, "typechange.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("kept.txt", filepath.Join(r.root, "typechange.txt")); err != nil {
		t.Fatal(err)
	}
	for i, n := range edgeNames {
		switch i % 3 {
		case 0:
			r.write(n, "edited\n")
		case 1:
			r.git("mv", n, "renamed "+strings.ReplaceAll(n, "/", "_"))
		}
		r.write("untracked/"+strings.ReplaceAll(n, "/", "-"), "new\n")
	}
	if err := os.MkdirAll(filepath.Join(r.root, "moved"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("mv", "sp ace.txt", "moved/sp ace.txt") // renamed after an edit: "RM"
	r.write("ita.txt", "intent\n")
	r.git("add", "-N", "ita.txt")
	r.write("debug.log", "ignored\n")
	return r
}

func TestParseStatusMatchesPorcelainV1(t *testing.T) {
	t.Parallel()
	r := edgeRepo(t)
	out := gitRaw(t, r.root, statusArgs...)
	st, err := ParseStatus(out)
	if err != nil {
		t.Fatalf("%v\n%q", err, out)
	}
	// v2 prints conflicts after the other changes, v1 among them; the runner
	// sorts by path, after which the two agree.
	want := porcelainV1(t, r.root)
	byPath(st.Entries)
	byPath(want)
	if dump(st.Entries) != dump(want) {
		t.Fatalf("v2 read as\n%s\nv1 says\n%s", dump(st.Entries), dump(want))
	}
	if head := strings.TrimSpace(r.git("rev-parse", "HEAD")); st.Head != head || st.Unborn {
		t.Fatalf("head %q unborn %v, want %s", st.Head, st.Unborn, head)
	}
	// The repository must really show what it is built to show.
	kinds := map[string]bool{}
	for _, e := range st.Entries {
		kinds[e.Index+e.Worktree] = true
		if e.OrigPath != "" {
			kinds["rename"] = true
		}
	}
	for _, k := range []string{"DD", "AU", "UD", "UA", "DU", "AA", "UU", " M", "M ", "MM", "D ", " T", " A", "??", "rename"} {
		if !kinds[k] {
			t.Errorf("no %q entry in\n%s", k, dump(st.Entries))
		}
	}
	if e := findEntry(st.Entries, "sub"); e == nil || e.Worktree != "M" {
		t.Errorf("submodule: %+v", e)
	}
	for _, n := range edgeNames {
		if findEntry(st.Entries, "untracked/"+strings.ReplaceAll(n, "/", "-")) == nil {
			t.Errorf("untracked %q missing", n)
		}
	}
}

func TestParseStatusUnbornAndClean(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	st, err := ParseStatus(gitRaw(t, r.root, statusArgs...))
	if err != nil || !st.Unborn || st.Head != "" || len(st.Entries) != 0 {
		t.Fatalf("empty repository: %+v %v", st, err)
	}
	r.write("a.txt", "a\n")
	r.git("add", "a.txt")
	r.write("b.txt", "b\n")
	st, err = ParseStatus(gitRaw(t, r.root, statusArgs...))
	if want := porcelainV1(t, r.root); err != nil || !st.Unborn || dump(byPath(st.Entries)) != dump(byPath(want)) {
		t.Fatalf("unborn: %+v %v", st, err)
	}
	head := r.commitAt("one", t0)
	st, err = ParseStatus(gitRaw(t, r.root, statusArgs...))
	if err != nil || st.Unborn || st.Head != head || len(st.Entries) != 0 {
		t.Fatalf("clean: %+v %v", st, err)
	}
}

// TestParseStatusCutShort feeds every prefix of real output: each parses or
// fails, none panics, and whatever parses keeps the entries' shape.
func TestParseStatusCutShort(t *testing.T) {
	t.Parallel()
	out := gitRaw(t, edgeRepo(t).root, statusArgs...)
	for n := range len(out) {
		st, err := ParseStatus(out[:n])
		if err == nil {
			checkEntries(t, st.Entries, out[:n])
		}
	}
}

func TestParseStatusRejects(t *testing.T) {
	t.Parallel()
	const oid = "# branch.oid 0123456789abcdef0123456789abcdef01234567\x00"
	const modes = "100644 100644 100644 0123456789abcdef0123456789abcdef01234567 0123456789abcdef0123456789abcdef01234567"
	for _, bad := range []string{
		"",                       // no branch.oid
		"# branch.oid 12345\x00", // not an object name
		"# branch.oid (initial)\x00" + oid,
		oid + "1 .M N... 100644 100644 100644 x y\x00", // no path
		oid + "1 .Z N... " + modes + " a\x00",          // unknown letter
		oid + "1 AA N... " + modes + " a\x00",          // a conflict outside a "u" record
		oid + "2 UR N... " + modes + " R100 n\x00o\x00",
		oid + "1 .M X... " + modes + " a\x00",        // bad submodule state
		oid + "1 .M  N... " + modes + " a\x00",       // empty field
		oid + "2 R. N... " + modes + " R100 new\x00", // rename without source
		oid + "2 R. N... " + modes + " R100 new\x00\x00",
		oid + "2 R. N... " + modes + " X100 new\x00old\x00",       // bad score
		oid + "u MM N... 100644 100644 100644 100644 a b c p\x00", // not a conflict
		oid + "? \x00",
		oid + "x what\x00",
		oid + "?? v1 syntax\x00",
	} {
		if st, err := ParseStatus([]byte(bad)); err == nil {
			t.Errorf("%q: no error, got %+v", bad, st)
		}
	}
	in := oid + "# branch.head main\x00# branch.upstream origin/main\x00# branch.ab +? -?\x00! ignored\x00"
	if st, err := ParseStatus([]byte(in)); err != nil || len(st.Entries) != 0 || st.Head == "" {
		t.Fatalf("headers and ignored entries: %+v %v", st, err)
	}
}

func FuzzParseStatus(f *testing.F) {
	const oid = "# branch.oid 0123456789abcdef0123456789abcdef01234567\x00"
	const modes = "100644 100644 100644 0123456789abcdef0123456789abcdef01234567 0123456789abcdef0123456789abcdef01234567"
	for _, s := range []string{
		"", oid, "# branch.oid (initial)\x00? a\x00", oid + "1 .M N... " + modes + " a b\x00",
		oid + "2 R. N... " + modes + " R100 n\x00o\x00", oid + "u UU N... 100644 100644 100644 100644 a b c p q\x00",
		oid + "1 .M SCMU 160000 160000 160000 a b sub\x00", oid + "! i\x00", "\x00\x00", oid + "2 .R N... " + modes + " C5 n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if st, err := ParseStatus(in); err == nil {
			checkEntries(t, st.Entries, in)
		}
	})
}

// checkEntries asserts the shape every parsed entry has.
func checkEntries(t *testing.T, es []facts.GitStatusEntry, in []byte) {
	t.Helper()
	for _, e := range es {
		if e.Path == "" || len(e.Index) != 1 || len(e.Worktree) != 1 ||
			!strings.Contains(" MTADRCU?", e.Index) || !strings.Contains(" MTADRCU?", e.Worktree) ||
			e.Untracked != (e.Index == "?") || e.Unmerged != isUnmerged(e.Index+e.Worktree) {
			t.Fatalf("bad entry %+v from %q", e, in)
		}
	}
}

// byPath sorts entries as the runner does.
func byPath(es []facts.GitStatusEntry) []facts.GitStatusEntry {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Path < es[j].Path })
	return es
}

func findEntry(es []facts.GitStatusEntry, path string) *facts.GitStatusEntry {
	for i := range es {
		if es[i].Path == path {
			return &es[i]
		}
	}
	return nil
}

// TestParseNumstatPatch splits one diff printing both formats and checks
// each half against git printing that format alone.
func TestParseNumstatPatch(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	for i, n := range edgeNames {
		r.write(n, strings.Repeat("line\n", i+3))
	}
	r.write("script.sh", "echo\n")
	r.commitAt("base", t0)
	for i, n := range edgeNames {
		switch i % 3 {
		case 0:
			r.write(n, "edited\n\n+++ b/not a header\n")
		case 1:
			r.git("mv", n, "renamed "+strings.ReplaceAll(n, "/", "_"))
		default:
			r.git("rm", "-q", n)
		}
	}
	r.write("bin.dat", "\x00\x01\x02")
	r.git("add", "bin.dat")
	if err := os.Chmod(filepath.Join(r.root, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"HEAD", emptyTrees["sha1"]} {
		checkNumstatPatch(t, r.root, from)
	}
	if s, p, err := ParseNumstatPatch(nil); err != nil || s != nil || p != nil {
		t.Fatalf("no changes: %v %q %v", s, p, err)
	}
	for _, bad := range []string{"1\t0\ta\x00", "1\t0\ta", "x\x00\x00diff", "0\t0\t\x00old\x00"} {
		if _, _, err := ParseNumstatPatch([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// checkNumstatPatch compares the two halves of one diff from the tree-ish
// from to the work tree with git printing each format alone.
func checkNumstatPatch(t *testing.T, dir, from string) {
	t.Helper()
	opts := []string{"--no-ext-diff", "--no-textconv", "--find-renames", from, "--"}
	patchOpts := []string{"--unified=0", "--no-color", "--src-prefix=a/", "--dst-prefix=b/"}
	both := gitRaw(t, dir, append(append([]string{"diff", "--numstat", "-z", "--patch"}, patchOpts...), opts...)...)
	stats, patch, err := ParseNumstatPatch(both)
	if err != nil {
		t.Fatalf("from %s: %v", from, err)
	}
	wantStats, err := ParseNumstat(gitRaw(t, dir, append([]string{"diff", "--numstat", "-z"}, opts...)...))
	if err != nil {
		t.Fatal(err)
	}
	wantPatch := gitRaw(t, dir, append(append([]string{"diff"}, patchOpts...), opts...)...)
	if dump(stats) != dump(wantStats) || len(stats) == 0 {
		t.Fatalf("from %s: numstat\n%s\nwant\n%s", from, dump(stats), dump(wantStats))
	}
	if !bytes.Equal(patch, wantPatch) {
		t.Fatalf("from %s: patch\n%s\nwant\n%s", from, patch, wantPatch)
	}
}

func FuzzParseNumstatPatch(f *testing.F) {
	for _, s := range []string{"", "\x00", "1\t2\ta\x00\x00diff --git a/a b/a\n", "0\t0\t\x00o\x00n\x00\x00x", "-\t-\tb\x00\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		stats, patch, err := ParseNumstatPatch(in)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(in, patch) {
			t.Fatalf("patch %q is not the end of %q", patch, in)
		}
		for _, s := range stats {
			if s.Added < 0 || s.Removed < 0 || s.Path == "" {
				t.Fatalf("bad stat %+v", s)
			}
		}
	})
}
