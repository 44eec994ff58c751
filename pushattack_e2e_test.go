package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shIn runs command with sh in root, as an agent's shell would, with a
// committer identity; it fails the test when the command fails.
func shIn(t *testing.T, root, command string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", command, err, out)
	}
}

// revIn is the commit ref names in the repository at dir, "" when it has none.
func revIn(t *testing.T, dir, ref string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "-q", ref).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// TestGitPushGateSeesEveryPush runs each spelling of a push an agent's
// shell call can use, first through the real hook (the only ticket is for
// an earlier commit: git_push_gate must refuse it) and then for real against the bare remote,
// which must then hold the new commit: each spelling really pushes, and
// each is seen.
func TestGitPushGateSeesEveryPush(t *testing.T) {
	bin := buildBinary(t)
	root := pushProject(t)
	remote := filepath.Join(filepath.Dir(root), "origin.git")
	gitIn(t, root, "config", "alias.p", "push")
	gitIn(t, root, "config", "alias.pq", "'push'")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	forms := []struct{ command, ref string }{
		{filepath.Join(strings.TrimSpace(string(execPath)), "git-push") + " origin main", "main"},
		{"git send-pack " + remote + " main", "main"},
		{"git subtree push --prefix=sub origin split", "split"},
		{"echo main | xargs git push origin", "main"},
		{"env git push origin main", "main"},
		{"command git push origin main", "main"},
		{"sh -c 'git push origin main'", "main"},
		{"git p origin main", "main"},
		{"git -c alias.q=push q origin main", "main"},
		{"git pq origin main", "main"},
		{`git -c "alias.r='push'" r origin main`, "main"},
	}
	if _, err := exec.LookPath("parallel"); err == nil {
		forms = append(forms, struct{ command, ref string }{"parallel --will-cite git push origin ::: main", "main"})
	} else {
		t.Log("GNU parallel is not installed (Debian package parallel): its form is judged by the fixtures only")
	}
	// The store, and a ticket for a commit every form moves past.
	if code, out := pushBin(t, bin, root, nil, "", "push-ok"); code != 0 {
		t.Fatalf("push-ok: exit %d:\n%s", code, out)
	}
	for i, f := range forms {
		writeIn(t, root, "sub/n.txt", f.command+"\n")
		gitIn(t, root, "add", "-A")
		gitIn(t, root, "commit", "-q", "-m", "form "+f.command)
		code, out := pushHook(t, bin, root, f.command)
		if code != 2 || !strings.Contains(out, "git_push_gate: git push needs a push ticket") {
			t.Errorf("form %d %q: hook exit %d, want 2 from git_push_gate:\n%s", i, f.command, code, out)
		}
		before := revIn(t, remote, f.ref)
		shIn(t, root, f.command)
		after := revIn(t, remote, f.ref)
		if after == "" || after == before {
			t.Errorf("form %d %q did not push: %s is %q before and %q after", i, f.command, f.ref, before, after)
		}
	}
}

// TestGitPushGateTicketBinding holds a ticket a person issued for origin
// and main to what the agent's call pushes: a call that redirects the push
// (and really sends it elsewhere), a remote redirected after the ticket,
// a call that commits first (and really pushes the
// new commit), sends another commit, more refs, a delete or a force is
// refused; the plain push and a forced one on a forced ticket pass.
func TestGitPushGateTicketBinding(t *testing.T) {
	bin := buildBinary(t)
	root := pushProject(t)
	evil := filepath.Join(filepath.Dir(root), "evil.git")
	gitIn(t, filepath.Dir(root), "init", "-q", "--bare", evil)
	remote := filepath.Join(filepath.Dir(root), "origin.git")
	gitIn(t, root, "push", "-q", "origin", "main")
	old := revIn(t, root, "HEAD")
	writeIn(t, root, "a.txt", "two\n")
	gitIn(t, root, "commit", "-q", "-am", "two")
	issue := func(args ...string) {
		t.Helper()
		if code, out := pushBin(t, bin, root, nil, "", append([]string{"push-ok"}, args...)...); code != 0 {
			t.Fatalf("push-ok %v: exit %d:\n%s", args, code, out)
		}
	}
	refused := func(command, why string) {
		t.Helper()
		issue("origin", "main")
		if code, out := pushHook(t, bin, root, command); code != 2 || !strings.Contains(out, why) {
			t.Errorf("%q: hook exit %d, want 2 with %q:\n%s", command, code, out, why)
		}
	}

	home := filepath.Join(filepath.Dir(root), "home") // a user config that redirects origin's pushes
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	writeIn(t, home, ".gitconfig", "[url \""+evil+"\"]\n\tpushInsteadOf = "+remote+"\n")
	redirects := []struct{ command, why string }{
		{"HOME=" + home + " git push origin main", "a GIT_ variable set by the command changes where or what git pushes"},
		{"git -c remote.origin.pushurl=" + evil + " push origin main", "changes where or what the push sends"},
		{"git -c url." + evil + ".pushInsteadOf=" + remote + " push origin main", "changes where or what the push sends"},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.pushurl GIT_CONFIG_VALUE_0=" + evil + " git push origin main",
			"a GIT_ variable set by the command changes where or what git pushes"},
	}
	for _, r := range redirects {
		refused(r.command, r.why)
		shIn(t, root, r.command)
		if got := revIn(t, evil, "main"); got != revIn(t, root, "HEAD") {
			t.Errorf("%q did not send the push elsewhere: evil.git main is %q", r.command, got)
		}
		gitIn(t, evil, "update-ref", "-d", "refs/heads/main")
	}
	if got := revIn(t, remote, "main"); got != old {
		t.Fatalf("origin main moved to %q: the redirected pushes went there", got)
	}
	// Redirected in the repository's config after the ticket (an earlier
	// call's git config): the ticket recorded where origin pushed.
	issue("origin", "main")
	gitIn(t, root, "config", "remote.origin.pushurl", evil)
	if code, out := pushHook(t, bin, root, "git push origin main"); code != 2 || !strings.Contains(out, "and a push to origin now goes to "+evil) {
		t.Errorf("origin redirected after the ticket: hook exit %d, want 2 from other_url:\n%s", code, out)
	}
	gitIn(t, root, "config", "--unset", "remote.origin.pushurl")

	commitThenPush := "git commit -q --allow-empty -m x && git push -q origin main"
	refused(commitThenPush, "the call also runs git commit -q --allow-empty -m x, which may move HEAD")
	ticketed := revIn(t, root, "HEAD")
	shIn(t, root, commitThenPush)
	if got := revIn(t, remote, "main"); got == ticketed || got != revIn(t, root, "HEAD") {
		t.Errorf("origin main is %q: the real run did not push a commit made after the ticket", got)
	}

	for command, why := range map[string]string{
		"git push origin " + old + ":main": "this push sends " + old[:12],
		"git push origin HEAD:release":     "the ticket allows a push of branch main only, and this one pushes release",
		"git push --tags origin main":      "sends every ref --tags names",
		"git push --delete origin main":    "this push deletes a branch",
		"git push origin :main":            "this push deletes a branch",
		"git push --force origin main":     "does not allow a forced update",
		"git push origin +main":            "does not allow a forced update",
		"git -C sub push origin main":      "git -C sub pushes from another repository",
	} {
		refused(command, why)
	}

	issue()
	if code, out := pushHook(t, bin, root, "git push origin main 2>&1 | tail -5"); code != 0 {
		t.Errorf("a ticket from push-ok on main, git push origin main | tail: exit %d:\n%s", code, out)
	}
	issue("--force", "origin", "main")
	if code, out := pushHook(t, bin, root, "git push --force origin main"); code != 0 || strings.Contains(out, "git_push_gate") {
		t.Errorf("a forced ticket, git push --force: exit %d (bash_firewall may ask, git_push_gate must pass):\n%s", code, out)
	}
}
