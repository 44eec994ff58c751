package hosts

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"


	"github.com/tausik/tausik/internal/hosts/shellwrites"
)

// guardPaths are the paths the grammar writes: two in the scope (src/),
// three outside it.
var guardPaths = []string{"src/a.txt", "src/new.txt", "other/b.txt", "other/new.txt", "top.txt"}

// guardCommands is a small grammar of writing commands; %[1]s and %[2]s are
// two of guardPaths.
var guardCommands = []string{
	"echo x > %[1]s",
	"echo x >> %[1]s",
	"cp %[2]s %[1]s",
	"mv %[2]s %[1]s",
	"touch %[1]s",
	"mkdir -p %[1]s.d",
	"sed -i s/a/z/ %[1]s",
	"echo x | tee %[1]s",
	"bash -c 'echo x > %[1]s'",
	`python3 -c 'open("%[1]s", "w").write("x")'`,
	"tar -cf %[1]s src",
	"git checkout -- %[2]s && echo y > %[1]s",
	"rm -f %[1]s",
	"ln -sf a.txt %[1]s",
	"f=%[1]s; echo x > $f",
	"cd other && echo x > $(basename %[1]s)",
}

// guardCommand builds the command the fuzzer's three numbers choose.
func guardCommand(tmpl, a, b uint8) string {
	return fmt.Sprintf(guardCommands[int(tmpl)%len(guardCommands)],
		guardPaths[int(a)%len(guardPaths)], guardPaths[int(b)%len(guardPaths)])
}

// guardTree is a git repository with a task scoped to src/ started in it.
func guardTree(t *testing.T) (string, func(string) string) {
	t.Helper()
	return scopedGitProject(t, map[string]string{"src/a.txt": "a\n", "other/b.txt": "a\n", "top.txt": "a\n"})
}

// snapshot hashes every file and link under root but .git and .tausik:
// the ground truth the backstop is checked against.
func snapshot(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == ".tausik" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		var b []byte
		if d.Type()&fs.ModeSymlink != 0 {
			s, err := os.Readlink(p)
			if err != nil {
				return err
			}
			b = []byte("link:" + s)
		} else if b, err = os.ReadFile(p); err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// outOfScope lists the paths outside src/ that differ between two snapshots.
func outOfScope(before, after map[string][32]byte) []string {
	var out []string
	for p, h := range after {
		if bh, ok := before[p]; (!ok || bh != h) && !strings.HasPrefix(p, "src/") {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !strings.HasPrefix(p, "src/") {
			out = append(out, p)
		}
	}
	return out
}

// FuzzGuard: a writing command from a small grammar is parsed
// (shellwrites.Shell), judged by the pre-write hook, really run with bash in
// a throwaway repository whose task is scoped to src/, then checked by the
// post-tool-use backstop. It fails when a path outside src/ changed while
// the pre-write verdict was allow and the backstop stayed silent.
func FuzzGuard(f *testing.F) {
	for i := range guardCommands {
		f.Add(uint8(i), uint8(2+i%3), uint8(i%2)) // a write outside src/
	}
	f.Fuzz(func(t *testing.T, tmpl, a, b uint8) {
		command := guardCommand(tmpl, a, b)
		_ = shellwrites.Shell(command) // the parser under test must not panic
		root, getenv := guardTree(t)
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
		code, _, stderr := runHook(t, "claude", root, getenv, Pre, string(payload))
		if code != 0 {
			if code != 2 {
				t.Fatalf("%q: pre-tool-use exit %d: %s", command, code, stderr)
			}
			return // refused before it ran
		}
		before := snapshot(t, root)
		run := exec.Command("bash", "-c", command)
		run.Dir = root
		var out bytes.Buffer
		run.Stdout, run.Stderr = &out, &out
		_ = run.Run() // a command that fails may still have written
		changed := outOfScope(before, snapshot(t, root))
		post := strings.Replace(string(payload), "PreToolUse", "PostToolUse", 1)
		code, stdout, stderr := runHook(t, "claude", root, getenv, Post, post)
		if code != 0 {
			t.Fatalf("%q: post-tool-use exit %d: %s", command, code, stderr)
		}
		reported := strings.Contains(stdout, `"decision":"block"`)
		t.Logf("%q: allowed before it ran; changed outside src/ %v; backstop reported %v", command, changed, reported)
		if len(changed) > 0 && !reported {
			t.Fatalf("%q was allowed before it ran, changed %v outside src/, and the backstop stayed silent", command, changed)
		}
		for _, p := range changed {
			if !strings.Contains(stdout, p) {
				t.Errorf("%q changed %s outside src/; the report does not name it: %s", command, p, stdout)
			}
		}
	})
}
