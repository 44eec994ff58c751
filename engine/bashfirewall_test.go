package engine_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/hosts/shellwrites"
	"github.com/tausik/tausik/policies"
)

// fakeRoot is the project root the table's absolute paths are relative to.
const fakeRoot = "/work/proj"

// builtinGate loads the built-in gate name.
func builtinGate(t *testing.T, name string) *gate.Gate {
	t.Helper()
	e, err := engine.New(context.Background(), engine.Deps{Root: t.TempDir(), Builtin: policies.FS, Runners: stdrunners.New(nil)})
	if err != nil {
		t.Fatal(err)
	}
	g, ok := e.Gate(name)
	if !ok {
		t.Fatalf("no gate %s", name)
	}
	return g
}

// verdictWord is "pass", "refuse" or "ask" for v.
func verdictWord(v engine.Verdict) string {
	switch {
	case v.Outcome == engine.Passed:
		return "pass"
	case v.Outcome == engine.Failed && v.Ask:
		return "ask"
	case v.Outcome == engine.Failed:
		return "refuse"
	}
	return v.Outcome
}

// firewallTable is each command's exact verdict. Lookalikes that only
// print or search for a dangerous command pass.
var firewallTable = []struct{ cmd, want string }{
	// recursive delete by force
	{"rm -rf /", "refuse"},
	{"rm -rf /*", "refuse"},
	{"rm -fr /", "refuse"},
	{"rm -Rf /", "refuse"},
	{"rm -r -f /", "refuse"},
	{"rm -f -r /", "refuse"},
	{"rm --recursive --force /", "refuse"},
	{"rm --recur --fo /", "refuse"},
	{"rm -rfv //", "refuse"},
	{"rm -rf -- /", "refuse"},
	{"sudo rm -rf /", "refuse"},
	{"sudo -u root rm -rf /", "refuse"},
	{"env FOO=1 rm -rf /", "refuse"},
	{"nohup rm -rf / &", "refuse"},
	{"time rm -rf ~", "refuse"},
	{"rm -rf ~", "refuse"},
	{"rm -rf ~/", "refuse"},
	{"rm -rf $HOME", "refuse"},
	{`rm -rf "$HOME"`, "refuse"},
	{"rm -rf $(pwd)", "refuse"},
	{"rm -rf .", "refuse"},
	{"rm -rf ./", "refuse"},
	{"rm -rf .git", "refuse"},
	{"rm -rf ./.git/", "refuse"},
	{"rm -rf " + fakeRoot, "refuse"},
	{"cd /tmp && rm -rf /", "refuse"},
	{`bash -c "rm -rf /"`, "refuse"},
	{`sh -c 'sudo rm -rf ~'`, "refuse"},
	{"ls | xargs echo; (rm -rf /)", "refuse"},
	{"echo $(rm -rf /)", "refuse"},
	{"rm -rf build", "pass"},
	{"rm -rf ./dist node_modules", "pass"},
	{"rm -r /", "pass"},
	{"rm -f /", "pass"},
	{"rm -rf ~/tmp/cache", "pass"},
	{"rm -rf .gitignore", "pass"},
	{`echo "rm -rf /"`, "pass"},
	{`grep 'rm -rf /' notes.txt`, "pass"},
	{`git commit -m "rm -rf / is refused"`, "pass"},
	{`printf '%s\n' 'rm -rf ~'`, "pass"},
	// disks
	{"mkfs.ext4 /dev/sda1", "refuse"},
	{"sudo mkfs -t ext4 /dev/sdb", "refuse"},
	{"mke2fs /dev/nvme0n1p1", "refuse"},
	{"dd if=/dev/zero of=/dev/sda bs=1M", "refuse"},
	{"dd if=img.iso of=/dev/nvme0n1", "refuse"},
	{"sudo dd of=/dev/mmcblk0 if=x.img", "refuse"},
	{"dd if=/dev/zero of=disk.img bs=1M count=10", "pass"},
	{"echo hi > /dev/sda", "refuse"},
	{"cat img >> /dev/vdb", "refuse"},
	{"echo x | sudo tee /dev/sdc", "refuse"},
	{"echo hi > /dev/null", "pass"},
	{"echo 'mkfs.ext4 /dev/sda'", "pass"},
	{`echo "dd of=/dev/sda"`, "pass"},
	// fork bombs
	{":(){ :|:& };:", "refuse"},
	{":(){ :|: & }; :", "refuse"},
	{"bomb(){ bomb|bomb& }; bomb", "refuse"},
	{"function f { f | f & }; f", "refuse"},
	{"echo ':(){ :|:& };:'", "pass"},
	{"while :; do sleep 1; done", "pass"},
	{": > out.txt", "pass"},
	// SQL that drops data
	{`psql -c "DROP TABLE users"`, "refuse"},
	{`psql -d app -c 'drop   database app'`, "refuse"},
	{`mysql -e "TRUNCATE TABLE logs"`, "refuse"},
	{`mariadb -e "truncate table logs"`, "refuse"},
	{`sqlite3 app.db "DROP TABLE t"`, "refuse"},
	{"psql app <<'EOF'\nDROP TABLE users;\nEOF", "refuse"},
	{`psql -c "SELECT * FROM users"`, "pass"},
	{`echo "DROP TABLE users" | wc -c`, "pass"},
	{`grep -i "drop table" migrations.sql`, "pass"},
	{`psql -c "SELECT 'dropped tables'"`, "pass"},
	{`psql -f drop.sql`, "ask"},
	{`psql app --file=drop.sql`, "ask"},
	{`sqlite3 app.db < drop.sql`, "ask"},
	{`mysql app < drop.sql`, "ask"},
	{`echo 'DROP TABLE x' | psql`, "refuse"},
	{"cat <<'EOF' | sqlite3 app.db\nDROP TABLE t;\nEOF", "refuse"},
	{`echo 'SELECT 1' | psql`, "pass"},
	{`echo "psql -f drop.sql"`, "pass"},
	{`shred /dev/sda`, "refuse"},
	{`sudo wipefs -a /dev/sdb`, "refuse"},
	{`shred -u notes.txt`, "pass"},
	{`echo x | xargs rm -rf`, "refuse"},
	{`find . -name '*.o' | xargs rm -f`, "pass"},
	{`find / -delete`, "refuse"},
	{`find ~ -type f -delete`, "refuse"},
	{`find . -name '*.pyc' -delete`, "pass"},
	{`echo "find / -delete"`, "pass"},
	// git: asked
	{"git push --force origin main", "ask"},
	{"git push -f origin master", "ask"},
	{"git push origin main --force-with-lease", "ask"},
	{"git push --force-with-lease=main origin main", "ask"},
	{"git push origin +main", "ask"},
	{"git push origin +HEAD:main", "ask"},
	{"git push origin +feature:refs/heads/main", "ask"},
	{"git push -fu origin main", "ask"},
	{"git push -f", "ask"},
	{"git push --force origin", "ask"},
	{"git push -f origin HEAD", "ask"},
	{"git push --force --all origin", "ask"},
	{"git -C repo push -f origin main", "ask"},
	{"sudo git push -f origin main", "ask"},
	{"git push --force origin feature", "pass"},
	{"git push origin +feature", "pass"},
	{"git push origin main", "pass"},
	{"git push -u origin feature", "pass"},
	{"git push -o ci.skip origin main", "pass"},
	{`echo "git push --force origin main"`, "pass"},
	{`git commit -m "git push --force"`, "pass"},
	{"git reset --hard", "ask"},
	{"git reset --hard HEAD~1", "ask"},
	{"git reset --soft HEAD~1", "pass"},
	{"git clean -fd", "ask"},
	{"git clean -df", "ask"},
	{"git clean -fdx", "ask"},
	{"git clean -f -d", "ask"},
	{"git clean --force -d", "ask"},
	{"git clean -f", "pass"},
	{"git clean -n -d", "pass"},
	{"git checkout -- .", "ask"},
	{"git checkout .", "ask"},
	{"git checkout -- src/a.py", "pass"},
	{"git checkout main", "pass"},
	{"git restore .", "ask"},
	{"git restore --worktree --staged .", "ask"},
	{"git restore --staged .", "pass"},
	{"git restore src/a.py", "pass"},
	{"git status && git diff", "pass"},
	// refused beats asked within one call
	{"git reset --hard && rm -rf /", "refuse"},
}

// TestBashFirewallTable drives bash_firewall from command text, through
// the real Claude adapter (a Bash hook payload, normalised as the hook
// normalises it) into the tool namespace's commands, and holds each command
// to its exact verdict.
func TestBashFirewallTable(t *testing.T) {
	g := builtinGate(t, "bash_firewall")
	counts := map[string]int{}
	for _, c := range firewallTable {
		v, err := engine.EvalGate(context.Background(), g, g.DefaultParams(), hostToolDoc(t, c.cmd))
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		counts[c.want]++
		if got := verdictWord(v); got != c.want {
			t.Errorf("%q: got %s, want %s (%+v)", c.cmd, got, c.want, v.Violations)
		}
	}
	if len(firewallTable) < 80 || counts["pass"] < 20 || counts["ask"] < 10 || counts["refuse"] < 20 {
		t.Errorf("the table is too thin: %d commands %v", len(firewallTable), counts)
	}
}

// The converter's argv agree with the hook's own shell analysis
// (shellwrites), dynamic words blanked as the namespace has them, for
// every command of the table that shellwrites sees the same way.
func TestToolCommandsAgreeWithShellwrites(t *testing.T) {
	agree := 0
	for _, c := range firewallTable {
		var mine, theirs [][]string
		for _, x := range toolCommands(t, c.cmd) {
			var argv []string
			for _, w := range x.(map[string]any)["argv"].([]any) {
				argv = append(argv, w.(string))
			}
			mine = append(mine, argv)
		}
		for _, x := range shellwrites.Shell(c.cmd).Commands {
			argv := slices.Clone(x.Argv)
			for i, d := range x.Dynamic {
				if d {
					argv[i] = ""
				}
			}
			theirs = append(theirs, argv)
		}
		if slices.EqualFunc(mine, theirs, slices.Equal) {
			agree++
		}
	}
	if agree < len(firewallTable)*9/10 {
		t.Errorf("only %d of %d commands parse to the same argv", agree, len(firewallTable))
	}
}
