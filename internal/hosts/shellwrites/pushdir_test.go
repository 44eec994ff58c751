package shellwrites

import (
	"fmt"
	"strings"
	"testing"
)

// TestCommandDir pins the directory each command starts in, as the push
// gate reads it: cd, pushd, env -C and sudo -D move it; a subshell, a pipe
// side and sh -c keep their moves to themselves; a move that may not
// happen (a branch, the right side of && or ||, a loop body) or that goes
// where only the run knows (cd "$D", cd -, popd, pushd +N, a CDPATH the
// command sets, sudo -i, find -execdir) leaves it unknown ("?").
func TestCommandDir(t *testing.T) {
	for command, want := range map[string]string{
		"git push":                                  "git=.",
		"cd /x && git push":                         "cd=. git=/x",
		"cd ../o; git push":                         "cd=. git=../o",
		"(cd sub; git push); git status":            "cd=. git=sub git=.",
		"pushd ../o && git push":                    "pushd=. git=../o",
		"cd a | git push":                           "cd=. git=.",
		"sh -c 'cd a' && git push":                  "sh=. cd=. git=.",
		"sh -c 'cd a && git push'":                  "sh=. cd=. git=a",
		"env -C /e git push":                        "git=/e",
		"sudo -D /s git push":                       "git=/s",
		"sudo -i git push":                          "git=?",
		"cd a || exit 1; git push":                  "cd=. exit=a git=a",
		"true && cd a; git push":                    "true=. cd=. git=?",
		"git fetch && cd a && git push":             "git=. cd=. git=a",
		"cd a && cd b && git push; ls":              "cd=. cd=a git=a/b ls=?",
		"true || cd a && cd b && git push":          "true=. cd=. cd=? git=?",
		"{ true && cd a; } && git push":             "true=. cd=. git=?",
		"false || cd a; git push":                   "false=. cd=. git=?",
		"if true; then cd a; fi; git push":          "true=. cd=. git=?",
		"case x in x) cd a;; esac; git push":        "cd=. git=?",
		"for i in 1 2; do git push; cd a; done":     "git=. cd=. git=? cd=?",
		"while true; do cd /a; done; git push":      "true=. cd=. true=? cd=? git=?",
		"for i in 1; do git status; done; git push": "git=. git=.",
		`cd "$D" && git push`:                       "cd=. git=?",
		"cd - && git push":                          "cd=. git=?",
		"pushd a; popd; git push":                   "pushd=. popd=a git=?",
		"pushd +1 && git push":                      "pushd=. git=?",
		"pushd && git push":                         "pushd=. git=?",
		"CDPATH=/p; cd b && git push":               "cd=. git=?",
		"CDPATH=/p; cd ./b && git push":             "cd=. git=b",
		`find . -execdir git push \;`:               "find=. git=?",
		"cd ~/r && git push":                        "cd=. git=~/r",
		"cd -P l/.. && git push":                    "cd=. git=?",
		"cd -P l && git push":                       "cd=. git=l",
		"cd && git push":                            "cd=. git=~",
		"cd ~- && git push":                         "cd=. git=?",
		"cd ~+/x && git push":                       "cd=. git=?",
		"cd ~other && git push":                     "cd=. git=?",
		"cd() { command cd /e; }; cd x && git push": "cd=. cd=. cd=. git=/e",
		"f() { cd /e; }; cd /a; f; git push":        "cd=. cd=. f=/a cd=/a git=/e",
		"f() { f; }; f; git push":                   "f=. f=. f=. git=?",
	} {
		var got []string
		for _, c := range Shell(command).Commands {
			d := c.Dir
			switch {
			case c.DirUnknown:
				d = "?"
			case d == "":
				d = "."
			}
			got = append(got, c.Argv[0]+"="+d)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s\n  got  %s\n  want %s", command, g, want)
		}
	}
}

// TestCommandDirUnderAnInheritedCDPATH: a CDPATH the command starts with
// moves cd NAME as one it sets does.
func TestCommandDirUnderAnInheritedCDPATH(t *testing.T) {
	for command, want := range map[string]string{"cd b && git push": "?", "cd ./b && git push": "b", "cd /b && git push": "/b"} {
		cmds := ShellIn(command, Options{CDPath: true}).Commands
		d := cmds[len(cmds)-1].Dir
		if cmds[len(cmds)-1].DirUnknown {
			d = "?"
		}
		if d != want {
			t.Errorf("%s under CDPATH: git runs in %q, want %q", command, d, want)
		}
	}
}

// TestGitAliasChainPastBound: git follows an alias chain of any length
// (it stops only at a loop), so a chain longer than the analysis follows,
// or an alias in a directory known only at run time, is recorded with its
// subcommand known only at run time, which the push gate counts as a push.
func TestGitAliasChainPastBound(t *testing.T) {
	chain := map[string]string{}
	for i := 1; i <= 20; i++ {
		chain[fmt.Sprint("a", i)] = fmt.Sprint("a", i+1)
	}
	chain["a21"] = "push"
	opts := Options{Dir: "/r", GitAlias: func(_, name string) (string, bool) {
		def, ok := chain[name]
		return def, ok
	}}
	for command, want := range map[string]string{
		"git a1 origin main":               "git a9 origin main [false true false false]",
		"git a14 origin main":              "git push origin main [false false false false]",
		`cd "$D" && git a21 origin main`:   "git a21 origin main [false true false false]",
		"git -C x a1":                      "git -C x a9 [false false false true]",
		"git nosuchalias origin":           "git nosuchalias origin [false false false]",
		`cd "$D" && git status`:            "git status [false false]",
		`cd "$D" && git -c alias.q=push q`: "git -c alias.q=push push [false false false false]",
	} {
		r := ShellIn(command, opts)
		last := r.Commands[len(r.Commands)-1]
		if got := fmt.Sprint(strings.Join(last.Argv, " "), " ", last.Dynamic); got != want {
			t.Errorf("%s\n  got  %s\n  want %s", command, got, want)
		}
	}
}
