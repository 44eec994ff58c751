package shellwrites

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// guardFiles are the files of the guard in guardTree: the committed
// configuration tier and a host's hook wiring at the top of the tree.
var guardFiles = []string{"tausik/gates.json", "opencode.json"}

// guardRow is one command run in guardTree: setup runs first (its writes are
// not judged), then cmd is analysed and run. attack: cmd changes a guard
// file, and the analysis must report a write covering it; otherwise cmd
// leaves the guard alone, and the analysis must report no write covering
// it and nothing Unknown.
type guardRow struct {
	cmd, setup string
	attack     bool
}

var guardRows = []guardRow{
	// copies and extractions into a directory that holds the guard
	{cmd: `cp -r {X}/. .`, attack: true},
	{cmd: `cp -a {X}/. ./`, attack: true},
	{cmd: `tar xf a.tar`, attack: true},
	{cmd: `tar -C . -xf a.tar`, attack: true},
	{cmd: `unzip -o a.zip`, attack: true},
	{cmd: `rsync -a {X}/ ./`, attack: true},
	{cmd: `mv {X}/* .`, attack: true},
	{cmd: `ln -sf {X}/opencode.json .`, attack: true},
	{cmd: `find . -name gates.json -delete`, attack: true},
	{cmd: `find . -exec rm {} +`, attack: true},
	{cmd: `rm -rf t*/`, attack: true},
	// a symbolic link to the guard, then a write through it
	{cmd: `ln -s ../tausik src/l && cp {X}/opencode.json src/l/gates.json`, attack: true},
	{cmd: `ln -s ../../tausik/gates.json src/lib/g && echo x > src/lib/g`, setup: `mkdir src/lib`, attack: true},
	{cmd: `ln -sr tausik src/l && echo x > src/l/gates.json`, attack: true},
	{cmd: `ln -s -t src ../opencode.json && echo x > src/opencode.json`, attack: true},
	// git commands that rewrite the tree
	{cmd: `git checkout HEAD~1`, attack: true},
	{cmd: `git checkout HEAD~1 -- .`, attack: true},
	{cmd: `git checkout evil`, attack: true},
	{cmd: `git checkout -f`, setup: `echo person > tausik/gates.json`, attack: true},
	{cmd: `git checkout -b feat evil`, attack: true},
	{cmd: `git switch --detach HEAD~1`, attack: true},
	{cmd: `git switch evil`, attack: true},
	{cmd: `git reset --keep HEAD~1`, attack: true},
	{cmd: `git reset --hard HEAD~1`, attack: true},
	{cmd: `git reset --merge HEAD~1`, attack: true},
	{cmd: `git revert HEAD`, attack: true},
	{cmd: `git merge evil`, attack: true},
	{cmd: `git cherry-pick evil`, attack: true},
	{cmd: `git stash -u`, setup: `echo person > tausik/gates.json`, attack: true},
	{cmd: `git stash pop`, setup: `echo evil > tausik/gates.json && git stash -q`, attack: true},
	{cmd: `git read-tree HEAD~1 && git checkout-index -a -f`, attack: true},
	{cmd: `git restore --source=HEAD~1 .`, attack: true},
	{cmd: `git apply p.diff`, attack: true},
	{cmd: `git diff main evil > q.diff && git apply q.diff`, attack: true},
	{cmd: `git diff main evil > q.diff && patch -p1 < q.diff`, attack: true},
	{cmd: `git am p.mbox`, attack: true},
	{cmd: `cd src && git checkout HEAD~1`, attack: true},
	{cmd: `git -C src reset --hard HEAD~1`, attack: true},
	{cmd: `GIT_WORK_TREE=. git checkout HEAD~1`, attack: true},
	{cmd: `export GIT_DIR=.git; git reset -q --hard HEAD~1`, attack: true},
	// the same programs leaving the guard alone
	{cmd: `cp a.txt src/`},
	{cmd: `cp src/a .`},
	{cmd: `git checkout -b feat`},
	{cmd: `git switch -c feat`},
	{cmd: `git stash list`},
	{cmd: `git stash show`, setup: `echo evil > tausik/gates.json && git stash -q`},
	{cmd: `tar tf a.tar`},
	{cmd: `unzip -l a.zip`},
	{cmd: `find . -name x -print`},
	{cmd: `git subtree split --prefix=src -b only-src`},
	{cmd: `git apply s.diff`},
	{cmd: `rsync -a {X}/ src/`},
	{cmd: `tar -C src -xf a.tar`},
	{cmd: `ln -s a src/b && echo x > src/b`},
}

// TestTreeWritesCoverTheGuard runs each row with the real bash, git, tar,
// unzip and rsync in a throwaway repository whose tree holds guard files at
// its top, analysing the command first as the hook does. Each attack must
// really change a guard file, and the analysis must report a write of it,
// of a directory holding it, or of the whole work tree (an Unknown alone is
// not enough: agent_authority refuses writes, not unknowns). Each clean
// command must change no guard file, and be reported without a write
// covering one and without an Unknown.
func TestTreeWritesCoverTheGuard(t *testing.T) {
	for _, tool := range []string{"bash", "git", "tar", "zip", "unzip", "rsync", "patch"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the attacks: %v", tool, err)
		}
	}
	template, xTemplate := guardTree(t)
	rows := t.TempDir()
	for _, r := range guardRows {
		t.Run(strings.ReplaceAll(r.cmd, "/", "|"), func(t *testing.T) {
			tmp, err := os.MkdirTemp(rows, "row") // a subtest's own TempDir is named after its command
			if err != nil {
				t.Fatal(err)
			}
			dir, x := filepath.Join(tmp, "p"), filepath.Join(tmp, "x")
			for from, to := range map[string]string{template: dir, xTemplate: x} {
				if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
					t.Fatalf("copy the tree: %v %s", err, out)
				}
			}
			// The copy's files are new to the index: refresh it, as a
			// checkout made in place would be.
			runIn(t, dir, "git update-index -q --refresh || true")
			if r.setup != "" {
				runIn(t, dir, r.setup)
			}
			cmd := strings.ReplaceAll(r.cmd, "{X}", x)
			res := ShellIn(cmd, Options{Dir: dir, ReadFile: ReadRegularFile})
			writes := resolveWrites(dir, res.Writes)
			before := snapshot(t, dir)
			sh := exec.Command("bash", "-c", cmd)
			sh.Dir = dir
			sh.Env = gitEnv(dir)
			out, _ := sh.CombinedOutput() // a failing command may still have written
			after := snapshot(t, dir)
			var changed []string
			for _, g := range guardFiles {
				if before[g] != after[g] {
					changed = append(changed, g)
				}
			}
			switch {
			case r.attack && len(changed) == 0:
				t.Fatalf("the attack changed no guard file; output:\n%s", out)
			case !r.attack && len(changed) > 0:
				t.Fatalf("the clean command changed %v; output:\n%s", changed, out)
			case !r.attack && len(res.Unknown) > 0:
				t.Errorf("the clean command is reported Unknown: %+v", res.Unknown)
			}
			for _, g := range guardFiles {
				hit := coversGuard(writes, g)
				if r.attack && slices.Contains(changed, g) && !hit {
					t.Errorf("%s changed %s, reported only %v (unknown %+v)", cmd, g, writes, res.Unknown)
				}
				if !r.attack && hit {
					t.Errorf("%s leaves %s alone, but is reported writing %v", cmd, g, writes)
				}
			}
		})
	}
}

// resolveWrites makes ws relative to dir the way the hook resolves them
// before the command runs: a destination that is an existing directory
// receives Into, a write of a work tree is one of its top directory.
func resolveWrites(dir string, ws []Write) []string {
	var out []string
	for _, w := range ws {
		p := w.Path
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && w.Into != "" {
			p = path.Join(p, w.Into)
		}
		if w.WorkTree {
			for d := p; d != "/"; d = path.Dir(d) {
				if _, err := os.Lstat(path.Join(d, ".git")); err == nil {
					p = d
					break
				}
			}
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			rel = p
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// coversGuard reports whether a write (relative to the tree's top) is g, a
// directory holding g, or a glob whose elements may name g or a directory
// holding it.
func coversGuard(writes []string, g string) bool {
	ge := strings.Split(g, "/")
	for _, w := range writes {
		w = strings.TrimSuffix(path.Clean(w), "/")
		if w == "." || w == g || strings.HasPrefix(g, w+"/") {
			return true
		}
		we := strings.Split(w, "/")
		if len(we) > len(ge) {
			continue
		}
		match := true
		for i := range we {
			if ok, _ := path.Match(we[i], ge[i]); !ok {
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// gitEnv is the environment the rows run in: no user or system git
// configuration, an editor that accepts every message.
func gitEnv(home string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+home, "GIT_EDITOR=true")
}

func runIn(t *testing.T, dir, script string) {
	t.Helper()
	c := exec.Command("bash", "-ec", script)
	c.Dir = dir
	c.Env = gitEnv(dir)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// guardTree builds the repository every row starts from, and a directory
// outside it (x) holding other versions of the guard files. main's last
// commit changed tausik/gates.json (v1 → v2); the branch evil changes it
// again; p.diff and p.mbox carry evil's change, s.diff one to src/a; a.tar
// and a.zip hold an evil tausik/gates.json.
func guardTree(t *testing.T) (tree, x string) {
	base := t.TempDir()
	tree, x = filepath.Join(base, "tree"), filepath.Join(base, "x")
	for _, d := range []string{tree, x, filepath.Join(base, "staged")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runIn(t, x, `mkdir tausik && echo evil > tausik/gates.json && echo evil > opencode.json`)
	runIn(t, filepath.Join(base, "staged"), `mkdir tausik && echo evil > tausik/gates.json &&
		tar cf ../tree/a.tar tausik/gates.json && zip -q ../tree/a.zip tausik/gates.json`)
	runIn(t, tree, `git init -q -b main && git config user.name t && git config user.email t@example.com
		mkdir -p tausik src && echo v1 > tausik/gates.json && echo '{}' > opencode.json && echo a > src/a && echo a > a.txt
		git add tausik opencode.json src a.txt && git commit -qm one
		echo v2 > tausik/gates.json && git commit -qam two
		git checkout -qb evil && echo evil > tausik/gates.json && git commit -qam evil && git checkout -q main
		git diff main evil > p.diff && git format-patch -1 evil --stdout > p.mbox
		printf -- '--- a/src/a\n+++ b/src/a\n@@ -1 +1 @@\n-a\n+b\n' > s.diff`)
	return tree, x
}
