package shellwrites

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// show renders a Result as "path, dir(+name)" and the count of unknowns.
func show(r Result) (string, []string) {
	var ws []string
	for _, w := range r.Writes {
		switch {
		case w.Into != "":
			ws = append(ws, w.Path+"(+"+w.Into+")")
		case w.WorkTree:
			ws = append(ws, w.Path+"(work tree)")
		default:
			ws = append(ws, w.Path)
		}
	}
	var us []string
	for _, u := range r.Unknown {
		us = append(us, u.Text)
	}
	return strings.Join(ws, ", "), us
}

// shellCases: a command, the writes it must yield, and the text of each
// Unknown it must report.
var shellCases = []struct {
	cmd     string
	writes  string
	unknown []string
}{
	// redirections
	{`echo hi > a.txt`, "a.txt", nil},
	{`echo hi >> logs/a.log`, "logs/a.log", nil},
	{`make &> build.log`, "build.log", nil},
	{`make &>> build.log`, "build.log", nil},
	{`echo x >| forced.txt`, "forced.txt", nil},
	{`cat <> rw.txt`, "rw.txt", nil},
	{`echo x 2> err.txt 1>&2`, "err.txt", nil},
	{`ls >& all.txt`, "all.txt", nil},
	{`echo x >&2`, "", nil},
	{`echo x 2>&1 >&-`, "", nil},
	{`echo x > /dev/null 2> /dev/stderr`, "", nil},
	{`cat < in.txt`, "", nil},
	{"cat > src/a.py <<'EOF'\nprint(1)\nEOF", "src/a.py", nil},
	{"cat <<EOF > docs/b.md\n$HOME\nEOF", "docs/b.md", nil},
	{"cat <<< 'text' > out.txt", "out.txt", nil},
	{`echo x > "my file.txt"`, "my file.txt", nil},
	{`echo x > 'q'\''uote.txt'`, "q'uote.txt", nil},
	{`echo x > sp\ ace.txt`, "sp ace.txt", nil},
	{`echo x > /tmp/abs.txt`, "/tmp/abs.txt", nil},
	{`echo x > ~/home.txt`, "~/home.txt", nil},
	// lists, pipes, subshells, blocks, control flow
	{`echo a > a && echo b > b || echo c > c; echo d > d`, "a, b, c, d", nil},
	{`ls | tee out.txt | grep x > found.txt`, "out.txt, found.txt", nil},
	{`(cd sub && echo x > a.txt) ; echo y > b.txt`, "sub/a.txt, b.txt", nil},
	{`{ echo x; echo y; } > both.txt`, "both.txt", nil},
	{`if true; then touch yes; else touch no; fi`, "yes, no", nil},
	{`for f in a b; do echo $f > list.txt; done`, "list.txt", nil},
	{`while read l; do echo "$l" >> acc.txt; done < in.txt`, "acc.txt", nil},
	{`case x in x) rm gone;; esac`, "gone", nil},
	{`f() { touch in_func; }; f`, "in_func", nil},
	{`echo $(touch from_subst) > out`, "out, from_subst", nil},
	{`diff <(sort a) <(sort b) > d.txt`, "d.txt", nil},
	{`make 2> >(tee err.log >&2)`, "err.log", nil},
	{`sleep 1 & touch bg.txt`, "bg.txt", nil},
	{`! rm -f nope`, "nope", nil},
	// cd and friends
	{`cd docs && echo x > a.md`, "docs/a.md", nil},
	{`cd /abs && touch t`, "/abs/t", nil},
	{`cd "$DIR" && touch t`, "", []string{"t"}},
	{`pushd lib && touch x && popd && touch y`, "lib/x", []string{"y"}},
	// tee, cp, mv, install, ln
	{`echo x | tee -a one.txt two.txt`, "one.txt, two.txt", nil},
	{`echo x | sudo tee /etc/hosts > /dev/null`, "/etc/hosts", nil},
	{`cp a.py b.py`, "b.py(+a.py)", nil},
	{`cp -r src/ docs/`, "docs/src", nil},
	{`cp a b c dest`, "dest/a, dest/b, dest/c", nil},
	{`cp -t dest a b`, "dest/a, dest/b", nil},
	{`cp --target-directory=dest a`, "dest/a", nil},
	{`cp -T a b`, "b", nil},
	{`mv old.py new.py`, "old.py, new.py(+old.py)", nil},
	{`mv -f a b dir/`, "a, b, dir/a, dir/b", nil},
	{`install -m 0755 tool bin/`, "bin/tool", nil},
	{`install -d out/x out/y`, "out/x, out/y", nil},
	{`ln -sf ../target link`, "link(+target), ../target, target", nil},
	{`ln -s /usr/bin/python3`, "python3, /usr/bin/python3", nil},
	// rm, rmdir, touch, mkdir, truncate, dd
	{`rm -rf build dist`, "build, dist", nil},
	{`rm -- -weird`, "-weird", nil},
	{`rmdir empty`, "empty", nil},
	{`touch -d yesterday a b`, "a, b", nil},
	{`touch file{1,2}.txt`, "file1.txt, file2.txt", nil},
	{`touch n{1..3}`, "n1, n2, n3", nil},
	{`mkdir -p -m 755 a/b/c`, "a/b/c", nil},
	{`truncate -s 0 big.log`, "big.log", nil},
	{`dd if=/dev/zero of=disk.img bs=1M count=1`, "disk.img", nil},
	{`rm src/*.pyc`, "src/*.pyc", nil},
	// sed, perl, awk
	{`sed -i 's/a/b/' x.txt y.txt`, "x.txt, y.txt", nil},
	{`sed -i.bak -e 's/a/b/' x.txt`, "x.txt, x.txt.bak", nil},
	{`sed -i '' 's/a/b/' mac.txt`, "mac.txt", nil},
	{`sed --in-place -E 's/a/b/' g.txt`, "g.txt", nil},
	{`sed 's/a/b/' x.txt > y.txt`, "y.txt", nil},
	{`sed -n 's/i/j/p' x.txt`, "", nil},
	{`perl -pi -e 's/a/b/' p.txt`, "p.txt", nil},
	{`perl -i.orig -pe 's/a/b/' p.txt`, "p.txt", nil},
	{`perl -e 'open(F, ">x")'`, "", []string{`perl -e 'open(F, ">x")'`}},
	{`awk '{print $1}' in.txt > out.txt`, "out.txt", nil},
	{`awk '{print > "side.txt"}' in.txt`, "", []string{`awk '{print > "side.txt"}' in.txt`}},
	{`gawk -i inplace '{sub(/a/,"b")}1' f.txt`, "f.txt", nil},
	// git
	{`git checkout -- a.py b.py`, "a.py, b.py", nil},
	{`git checkout HEAD~1 -- lib/x.go`, "lib/x.go", nil},
	{`git checkout main`, ".(work tree)", []string{"git checkout main"}}, // switching branch rewrites the tree
	{`git restore src/a.py`, "src/a.py", nil},
	{`git restore --staged src/a.py`, "", nil},
	{`git restore -s HEAD --staged --worktree c.py`, "c.py", nil},
	{`git -C sub checkout -- f`, "sub/f", nil},
	{`git rm --cached keep.py`, "", nil},
	{`git rm old.py`, "old.py", nil},
	{`git mv a.py pkg/`, "a.py, pkg/a.py", nil},
	{`git clean -fdx`, ".", nil},
	{`git status && git diff > changes.patch`, "changes.patch", nil},
	// wrappers
	{`sudo -u root rm /etc/x`, "/etc/x", nil},
	{`env FOO=1 BAR=2 touch e.txt`, "e.txt", nil},
	{`env -C sub touch e.txt`, "sub/e.txt", nil},
	{`nohup rm -rf cache &`, "cache", nil},
	{`time rm t`, "t", nil},
	{`/usr/bin/time -o timing.txt make`, "timing.txt", nil},
	{`command rm c`, "c", nil},
	{`command -v rm`, "", nil},
	{`nice -n 10 timeout 5s touch slow`, "slow", nil},
	{`exec > log.txt`, "log.txt", nil},
	{`stdbuf -oL tee -a s.log`, "s.log", nil},
	{`FOO=bar touch assigned`, "assigned", nil},
	{`find . -name '*.pyc' -delete`, ".", nil},
	{`find build -type f -exec rm {} +`, "build", nil},
	{`find src -name '*.py'`, "", nil},
	// nested shells
	{`bash -c 'echo x > inner.txt'`, "inner.txt", nil},
	{`sh -ec "cd lib && touch deep"`, "lib/deep", nil},
	{`bash -c "$CMD"`, "", []string{`"$CMD"`}},
	{"bash <<'EOF'\ntouch from_heredoc\nEOF", "from_heredoc", nil},
	{`sudo sh -c 'echo 1 > /proc/sys/x'`, "/proc/sys/x", nil},
	// harmless
	{`ls -la`, "", nil},
	{`grep -rn TODO src | head`, "", nil},
	{`go test ./... 2>&1 | tail -5`, "", nil},
	{`python3 -m pytest -q`, "", nil},
	{`cat README.md`, "", nil},
	{`echo "a > b"`, "", nil},
	{`git log --oneline | head`, "", nil},
	{`./build.sh`, "", nil},
	// unknowns
	{`echo x > $OUT`, "", []string{"$OUT"}},
	{`echo x > "$DIR/file"`, "", []string{`"$DIR/file"`}},
	{`cp a "$(pick)"`, "", []string{`"$(pick)"`}},
	{`rm -rf $TMP/*`, "", []string{"$TMP/*"}},
	{`eval "rm x"`, "x", []string{`eval "rm x"`}},
	{`python3 -c 'open("f","w")'`, "", []string{`python3 -c 'open("f","w")'`}},
	{`node -e 'require("fs").writeFileSync("x","")'`, "", []string{`node -e 'require("fs").writeFileSync("x","")'`}},
	{`ruby -e 'File.write("x","")'`, "", []string{`ruby -e 'File.write("x","")'`}},
	{`find . -name '*.tmp' | xargs rm -f`, "", []string{"xargs rm -f"}},
	{`ls | xargs -I{} cp {} backup/`, "backup/{}", []string{"xargs -I{} cp {} backup/"}},
	{`echo x > $'ansi'`, "", []string{"$'ansi'"}},
	{`echo 'unterminated`, "", []string{`echo 'unterminated`}},
	{"python3 - <<'EOF'\nopen('x', 'w')\nEOF", "", []string{"python3 -"}},
}

func TestShell(t *testing.T) {
	if len(shellCases) < 60 {
		t.Fatalf("only %d cases", len(shellCases))
	}
	for _, c := range shellCases {
		got, unknown := show(Shell(c.cmd))
		if got != c.writes || !slices.Equal(unknown, c.unknown) {
			t.Errorf("%s\n  writes  %q, want %q\n  unknown %q, want %q", c.cmd, got, c.writes, unknown, c.unknown)
		}
	}
}

func TestShellUnknownSaysWhy(t *testing.T) {
	for cmd, reason := range map[string]string{
		`echo x > $OUT`:                      reasonDynamic,
		`cd "$D"; touch t`:                   reasonDir,
		`eval "$X"`:                          reasonEval,
		`ls | xargs rm`:                      reasonXargs,
		`xargs -a list.txt rm`:               reasonFromFile,
		`bash -c "$X"`:                       reasonShellC,
		`python -c 'print(1)'`:               reasonInline,
		`echo $((`:                           reasonParse,
		`git restore --pathspec-from-file=l`: reasonFromFile,
	} {
		r := Shell(cmd)
		if len(r.Unknown) != 1 || !strings.HasPrefix(r.Unknown[0].Reason, reason) {
			t.Errorf("%s: %+v, want one unknown: %s", cmd, r.Unknown, reason)
		}
	}
}

func TestShellNestingIsBounded(t *testing.T) {
	cmd := "touch x"
	for i := range 12 {
		cmd = fmt.Sprintf("bash <<'E%d'\n%s\nE%d", i, cmd, i)
	}
	r := Shell(cmd)
	if len(r.Writes) != 0 || len(r.Unknown) != 1 || r.Unknown[0].Reason != reasonTooDeep {
		t.Errorf("%+v", r)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestArgv(t *testing.T) {
	for _, c := range []struct {
		argv   []string
		writes string
	}{
		{[]string{"bash", "-lc", "echo x > codex.txt"}, "codex.txt"},
		{[]string{"rm", "-f", "a", "b"}, "a, b"},
		{[]string{"ls", "-la"}, ""},
		{[]string{"/bin/sh", "-c", "cd d && touch t"}, "d/t"},
		{[]string{"echo", "a > b"}, ""},
	} {
		if got, _ := show(Argv(c.argv)); got != c.writes {
			t.Errorf("%q: %q, want %q", c.argv, got, c.writes)
		}
	}
}

// BenchmarkShell is the cost of finding the writes of a typical agent
// command (a here-doc into a file, a pipeline, a cd, a wrapper).
func BenchmarkShell(b *testing.B) {
	cmd := "cd src && cat > app.py <<'EOF'\nprint(1)\nEOF\ngrep -rn TODO . | sudo tee -a ../notes.txt >/dev/null && sed -i 's/a/b/' app.py"
	for b.Loop() {
		if r := Shell(cmd); len(r.Writes) != 2 { // src/app.py (twice), notes.txt
			b.Fatalf("%+v", r)
		}
	}
}
