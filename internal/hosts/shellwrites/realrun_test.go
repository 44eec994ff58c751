package shellwrites

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttacksRunForReal runs every row marked run with the real bash in a
// throwaway tree and checks the attack first: the command must change a
// path outside src/ (or the row proves nothing), and then the analysis must
// have reported that path as a Write (itself, a directory holding it, or a
// pattern matching it) or reported an Unknown. A row whose program is not
// installed is skipped, naming the program.
func TestAttacksRunForReal(t *testing.T) {
	for _, tool := range []string{"bash", "git", "tar", "zip", "sed", "patch", "python3", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the attacks: %v", tool, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "downloaded") }))
	defer srv.Close()
	template := fixtureTree(t)
	n := 0
	for _, r := range rows {
		if !r.run {
			continue
		}
		n++
		t.Run(strings.ReplaceAll(r.cmd, "/", "|"), func(t *testing.T) {
			if r.needs != "" {
				if _, err := exec.LookPath(r.needs); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatalf("%s is not installed: .ci/run installs it, and CI runs every attack", r.needs)
					}
					t.Skipf("%s is not installed on this machine (.ci/run installs it)", r.needs)
				}
			}
			cmd := strings.ReplaceAll(r.cmd, "{URL}", srv.URL)
			dir := filepath.Join(t.TempDir(), "p")
			if out, err := exec.Command("cp", "-a", template, dir).CombinedOutput(); err != nil {
				t.Fatalf("copy the tree: %v %s", err, out)
			}
			before := snapshot(t, dir)
			sh := exec.Command("bash", "-c", cmd)
			sh.Dir = dir
			sh.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
			out, _ := sh.CombinedOutput() // a failing command may still have written
			changed := changedOutside(before, snapshot(t, dir))
			if len(changed) == 0 {
				t.Fatalf("the attack wrote nothing outside src/; output:\n%s", out)
			}
			res := ShellIn(cmd, Options{Dir: dir, ReadFile: ReadRegularFile})
			if len(res.Unknown) > 0 {
				return
			}
			after := snapshot(t, dir)
			for _, c := range changed {
				// A directory created on the way to a reported write (mkdir -p
				// a/b makes a) is that write's.
				if strings.HasPrefix(after[c], "d") && before[c] == "" && parentOfWrite(res.Writes, c) {
					continue
				}
				if !covered(res.Writes, c) {
					t.Errorf("%s changed %s, reported only %+v", cmd, c, res.Writes)
				}
			}
		})
	}
	if n < 100 {
		t.Errorf("only %d attacks run", n)
	}
}

// parentOfWrite reports whether dir holds a write.
func parentOfWrite(ws []Write, dir string) bool {
	for _, w := range ws {
		if strings.HasPrefix(path.Clean(w.Path), dir+"/") {
			return true
		}
	}
	return false
}

// covered reports whether a write names c, a directory holding it, or a
// pattern (X's of mktemp, * of split and backups) matching it.
func covered(ws []Write, c string) bool {
	for _, w := range ws {
		p := path.Clean(w.Path)
		cands := []string{p}
		if w.Into != "" {
			cands = append(cands, path.Join(p, w.Into))
		}
		for _, q := range cands {
			pat := strings.TrimRight(q, "X") + strings.Repeat("?", len(q)-len(strings.TrimRight(q, "X")))
			if q == "." || c == q || strings.HasPrefix(c, q+"/") {
				return true
			}
			if ok, _ := path.Match(pat, c); ok {
				return true
			}
		}
	}
	return false
}

// fixtureTree builds the tree every attack starts from: src/ (the scope),
// other/ beside it, a patch, an archive of each kind and a git repository
// with a change not yet committed (other/d).
func fixtureTree(t *testing.T) string {
	root := filepath.Join(t.TempDir(), "tree")
	files := map[string]string{
		"src/a": "old\nold2\nold3\n", "src/b": "old\n", "other/b": "old\n", "other/d": "old\n",
		"other/script.sh": "touch other/x\n", "other/prog.py": "open('other/x','w')\n", "other/edcmds": "w other/x\nq\n",
		"urls.txt": "http://127.0.0.1:1/x\n", "script.sh": "true\n", "staged/other/t": "from the archive\n",
	}
	for k, v := range fixtureFiles {
		files[k] = v
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "other/empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "src/a"), 0o600); err != nil { // chmod --reference=src/a changes other/b
		t.Fatal(err)
	}
	run := func(args ...string) {
		c := exec.Command(args[0], args[1:]...)
		c.Dir = root
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
	}
	run("tar", "cf", "a.tar", "-C", "staged", "other/t")
	run("bash", "-c", "cd staged && zip -q ../a.zip other/t")
	if _, err := exec.LookPath("cpio"); err == nil {
		run("bash", "-c", "cd staged && echo other/t | cpio -o --quiet > ../list.cpio")
	}
	run("rm", "-r", "staged")
	run("git", "init", "-q", "-b", "main")
	run("git", "config", "user.name", "t")
	run("git", "config", "user.email", "t@example.com")
	run("git", "add", "-A")
	run("git", "commit", "-qm", "init")
	if err := os.WriteFile(filepath.Join(root, "other/d"), []byte("dirty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "other/b"), old, old); err != nil {
		t.Fatal(err)
	}
	return root
}

// snapshot maps each path under root (.git left out: git's own state is not
// a file of the project) to its kind, mode, content and, for files, time.
func snapshot(t *testing.T, root string) map[string]string {
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == ".git" {
			return fs.SkipDir
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		state := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			state += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			state += fmt.Sprintf(" %x %d", sha256.Sum256(b), info.ModTime().UnixNano())
		}
		m[rel] = state
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// changedOutside lists the paths that appeared, vanished or changed outside
// src/ (the root itself left out).
func changedOutside(before, after map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range []map[string]string{before, after} {
		for p := range m {
			if seen[p] || p == "." || p == "src" || strings.HasPrefix(p, "src/") {
				continue
			}
			seen[p] = true
			if before[p] != after[p] {
				out = append(out, p)
			}
		}
	}
	return out
}
