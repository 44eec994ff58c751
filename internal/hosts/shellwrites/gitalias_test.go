package shellwrites

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestGitAliasRecordsWhatItStandsFor pins the command an alias is recorded
// as: the git command it stands for, with git's global options and the
// arguments, so a gate judging argv sees `git p` (p = push) as a push.
func TestGitAliasRecordsWhatItStandsFor(t *testing.T) {
	repo := map[string]string{"p": "push", "pf": "push --force", "pp": "p", "st": "status", "qp": `'push' "ori"gin`}
	opts := Options{Dir: "/r", GitAlias: func(_, name string) (string, bool) {
		def, ok := repo[name]
		return def, ok
	}}
	for _, c := range []struct{ command, want string }{
		{"git p origin main", "git push origin main"},
		{"/usr/bin/git pf origin main", "/usr/bin/git push --force origin main"},
		{"git pp origin", "git push origin"},
		{"git -c alias.q=push q origin main", "git -c alias.q=push push origin main"},
		{"git -c alias.a=b -c alias.b=push a", "git -c alias.a=b -c alias.b=push push"},
		{"command git -C . p", "git -C . push"},
		{"echo origin | xargs git p", "git push {xargs input}"},
		{"git st", "git status"},
		{`git -c "alias.q='push'" q origin main`, "git -c alias.q='push' push origin main"},
		{"git qp main", "git push origin main"},
		{"git push origin main", "git push origin main"},
	} {
		r := ShellIn(c.command, opts)
		var got []string
		for _, cmd := range r.Commands {
			got = append(got, strings.Join(cmd.Argv, " "))
			if len(cmd.Argv) != len(cmd.Dynamic) {
				t.Errorf("%q: argv %q and dynamic %v differ in length", c.command, cmd.Argv, cmd.Dynamic)
			}
		}
		if !slices.Contains(got, c.want) {
			t.Errorf("%q: commands %q, want one %q", c.command, got, c.want)
		}
	}
}

// TestGitAliasWritesFromItsDirectory pins where an alias's writes land
// when git's global options move the directory: once, not once per alias.
func TestGitAliasWritesFromItsDirectory(t *testing.T) {
	opts := Options{Dir: "/r", GitAlias: func(_, name string) (string, bool) { return "checkout", name == "co" }}
	for command, want := range map[string]string{
		"git -C sub co -- f":            "sub/f",
		"git --work-tree=sub co -- f":   "sub/f",
		"cd a && git -C b co -- f":      "a/b/f",
		"git -c alias.k=co -C s k -- f": "s/f",
	} {
		r := ShellIn(command, opts)
		var got []string
		for _, w := range r.Writes {
			got = append(got, w.Path)
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q writes %q, want [%s]", command, got, want)
		}
	}
}

// TestGitPushEnvIsUnknown: a variable that redirects a push (a setting
// given through the environment, another repository, another transport)
// makes the push Unknown, which git_push_gate refuses; without one, or
// for a command that is no push, nothing changes.
func TestGitPushEnvIsUnknown(t *testing.T) {
	for command, unknown := range map[string]bool{
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.pushurl GIT_CONFIG_VALUE_0=/x git push origin main": true,
		"GIT_CONFIG_PARAMETERS=\"'url./x.pushinsteadof'='/o'\" git push origin main":                           true,
		"env GIT_DIR=/other/.git git push origin main":                                                         true,
		"export GIT_SSH_COMMAND=evil; git push origin main":                                                    true,
		"GIT_CONFIG_GLOBAL=/x git send-pack /o main":                                                           true,
		"HOME=/tmp/x git push origin main":                                                                     true,
		"XDG_CONFIG_HOME=/tmp/x git push origin main":                                                          true,
		"GIT_TRACE=1 git push origin main":                                                                     false,
		"GIT_CONFIG_COUNT=0 git status":                                                                        false,
	} {
		r := ShellIn(command, Options{Dir: "/r"})
		if got := len(r.Unknown) > 0; got != unknown {
			t.Errorf("%q: unknown %v (%+v), want %v", command, got, r.Unknown, unknown)
		}
	}
}

// TestSplitAliasAsGit holds splitAlias to the real git: each definition
// becomes an alias `rev-parse --sq-quote DEF`, which prints the words git
// split it into, and the words splitAlias gives are printed the same way;
// the definitions git refuses must be refused too.
func TestSplitAliasAsGit(t *testing.T) {
	for _, def := range []string{`push`, `'push'`, `"pu"sh origin`, `push  'a b'  c\ d`, `push "a\"b" 'c\d'`, "push\tx", `p"u"'s'h`} {
		words, ok := splitAlias("rev-parse --sq-quote " + def)
		if !ok {
			t.Errorf("%q: not split", def)
			continue
		}
		out, err := exec.Command("git", "-c", "alias.t=rev-parse --sq-quote "+def, "t").Output()
		if err != nil {
			t.Fatalf("git with alias %q: %v", def, err)
		}
		mine, err := exec.Command("git", append([]string{"rev-parse", "--sq-quote"}, words[2:]...)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(mine) {
			t.Errorf("%q: git splits it as %s, splitAlias as %s", def, out, mine)
		}
	}
	for _, bad := range []string{`push 'origin`, `push "x`, `push \`} {
		if _, ok := splitAlias(bad); ok {
			t.Errorf("%q: split, but git refuses it", bad)
		}
		if err := exec.Command("git", "-c", "alias.t="+bad, "t").Run(); err == nil {
			t.Errorf("%q: git accepts it, the test's premise is wrong", bad)
		}
	}
}
