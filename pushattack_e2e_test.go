package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// refsOf lists every ref of the repository at dir with its commit.
func refsOf(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "for-each-ref", "--format=%(refname) %(objectname)").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestGitPushGateResolvesWhereAPushGoes: a ticket a person issued for
// origin and main, and a push whose target comes from git's configuration
// (push.default, remote.origin.push, pushRemote, pushDefault, mirror,
// followTags), runs in another repository (cd, pushd, a subshell, sh -c, a
// branch, the payload's cwd in a clone inside the project) or hides behind
// an alias chain longer than the analysis follows. Each is refused by the
// real hook, and then, run for real, changes a bare remote beyond main on
// origin: each would have got through. A plain push, a bare push whose
// configuration sends main to origin, and a push from a subdirectory pass.
func TestGitPushGateResolvesWhereAPushGoes(t *testing.T) {
	bin := buildBinary(t)
	chain := ""
	for i := 1; i <= 9; i++ {
		chain += "git config alias.a" + strconv.Itoa(i) + " a" + strconv.Itoa(i+1) + "; "
	}
	attacks := []struct{ name, setup, command, cwd, why string }{
		{"matching", "git config push.default matching; git branch other; git push -q origin other~1:refs/heads/other", "git push origin", "", "push.default is matching"},
		{"upstream", "git config push.default upstream; git config branch.main.remote origin; git config branch.main.merge refs/heads/release", "git push origin", "", "this one pushes release"},
		{"remote push", "git config remote.origin.push refs/heads/main:refs/heads/release", "git push origin main", "", "remote.origin.push maps where main goes"},
		{"remote push bare", "git config remote.origin.push refs/heads/main:refs/heads/release", "git push origin", "", "this one pushes release"},
		{"push remote", "git config branch.main.pushRemote evil", "git push", "", "this one names evil"},
		{"push default", "git config remote.pushDefault evil", "git push", "", "this one names evil"},
		{"mirror", "git config remote.origin.mirror true", "git push origin", "", "remote.origin.mirror is true"},
		{"follow tags", "git tag -a -m t v1; git config push.followTags true", "git push origin main", "", "push.followTags is true"},
		{"cd", "", "cd ../other && git push origin main", "", "it is in the repository"},
		{"pushd", "", "pushd nested && git push origin main", "", "it is in the repository"},
		{"subshell", "", "(cd nested; git push origin main)", "", "it is in the repository"},
		{"sh -c", "", "sh -c 'cd nested && git push origin main'", "", "it is in the repository"},
		{"branch", "", "if true; then cd nested; fi; git push origin main", "", "in a directory known only when it runs"},
		{"payload cwd", "", "git push origin main", "nested", "it is in the repository"},
		{"alias chain", chain + "git config alias.a10 push", "git a1 evil main", "", "a ticket allows a plain git push with every word known"},
		{"alias in unknown dir", "git -C nested config alias.p push", `D=nested; cd "$D" && git p origin main`, "", "a ticket allows a plain git push"},
	}
	passes := []struct{ name, setup, command string }{
		{"plain", "", "git push origin main"},
		{"bare, simple to its upstream", "git config branch.main.remote origin; git config branch.main.merge refs/heads/main", "git push"},
		{"subdirectory", "mkdir -p sub", "cd sub && git push origin main"},
	}
	prepare := func(setup string) (root, base string) {
		t.Helper()
		root = pushProject(t)
		base = filepath.Dir(root)
		gitIn(t, base, "init", "-q", "--bare", "evil.git")
		gitIn(t, root, "remote", "add", "evil", filepath.Join(base, "evil.git"))
		gitIn(t, root, "push", "-q", "origin", "main")
		for _, clone := range []string{filepath.Join(base, "other"), filepath.Join(root, "nested")} {
			gitIn(t, base, "clone", "-q", "-b", "main", filepath.Join(base, "origin.git"), clone)
			shIn(t, clone, "git commit -q --allow-empty -m theirs")
		}
		shIn(t, root, "git commit -q --allow-empty -m two")
		if setup != "" {
			shIn(t, root, setup)
		}
		if code, out := pushBin(t, bin, root, nil, "", "push-ok", "origin", "main"); code != 0 {
			t.Fatalf("push-ok: exit %d:\n%s", code, out)
		}
		return root, base
	}
	for _, a := range attacks {
		root, base := prepare(a.setup)
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": filepath.Join(root, a.cwd), "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]string{"command": a.command}})
		if code, out := pushBin(t, bin, root, nil, string(payload), "hook", "claude", "pre-tool-use"); code != 2 || !strings.Contains(out, a.why) {
			t.Errorf("%s: %q: hook exit %d, want 2 with %q:\n%s", a.name, a.command, code, a.why, out)
		}
		// What the ticket allows: origin's main at HEAD, nothing else.
		allowed := strings.Replace(refsOf(t, filepath.Join(base, "origin.git")), revIn(t, root, "main~1"), revIn(t, root, "HEAD"), 1)
		before := refsOf(t, filepath.Join(base, "evil.git"))
		cmd := exec.Command("bash", "-c", a.command)
		cmd.Dir = filepath.Join(root, a.cwd)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %q for real: %v\n%s", a.name, a.command, err, out)
		}
		if refsOf(t, filepath.Join(base, "origin.git")) == allowed && refsOf(t, filepath.Join(base, "evil.git")) == before {
			t.Errorf("%s: %q for real did only what the ticket allows: the attack does not attack", a.name, a.command)
		}
	}
	for _, p := range passes {
		root, _ := prepare(p.setup)
		if code, out := pushHook(t, bin, root, p.command); code != 0 {
			t.Errorf("%s: %q: hook exit %d, want 0:\n%s", p.name, p.command, code, out)
		}
	}
}
