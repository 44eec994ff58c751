package policytest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine"
)

// gitFixtureGate is a team gate reading git facts, whose fixtures build
// repositories with git steps.
var gitFixtureGate = map[string]string{
	"changes/gate.yaml": `name: changes
description: fails on every changed path, to show what the git steps built
prevents: a change that this test gate objects to
phase: scoped
triggers: [commit]
severity: block
enabled: true
language: rego
facts: [git]
`,
	"changes/policy.rego": `package tausik.gates.changes

violations contains {"msg": sprintf("%s %s%s", [e.path, e.index, e.worktree]), "file": e.path} if {
	some e in input.git.changes
}

violations contains {"msg": sprintf("since %s: %s +%d", [input.git.since.base, f.path, f.added_non_blank]), "file": f.path} if {
	some f in input.git.since.files
}

not_applicable contains "no_git" if input.git.status != "ok"
`,
	"changes/fixtures/clean/case.yaml":  "description: a repository with one commit and nothing changed\ngit:\n  - commit: base\nexpect: {outcome: PASSED}\n",
	"changes/fixtures/clean/tree/a.txt": "a\n",
	"changes/fixtures/steps/case.yaml": `description: every kind of step
changed_since: "2025-12-31T00:30:00Z"
git:
  - commit: base
  - write: {b.txt: "b\n", c/d.txt: "d\n"}
  - apply: after
  - stage: [b.txt]
  - remove: [gone.txt]
  - commit: {message: second, date: "2025-12-31T01:00:00Z"}
  - write: {a.txt: "a2\n"}
expect:
  outcome: FAILED
  messages: ["a.txt  M", "since ", "a.txt +1", "b.txt +1", "c/d.txt +1", "e.txt +1", "gone.txt +0"]
  violations: 6
`,
	"changes/fixtures/steps/tree/a.txt":    "a\n",
	"changes/fixtures/steps/tree/gone.txt": "gone\n",
	"changes/fixtures/steps/after/e.txt":   "e\n",
	"changes/fixtures/no_repo/case.yaml":   "description: without git steps the tree is no repository\nexpect: {outcome: NOT_APPLICABLE}\n",
	"changes/fixtures/no_repo/tree/a.txt":  "a\n",
}

func TestGitFixtureSteps(t *testing.T) {
	e, err := engine.New(context.Background(), engine.Deps{Root: t.TempDir(), Builtin: bundleFS(gitFixtureGate), Runners: stdrunners.New(nil)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), e, Options{RequireTools: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, gr := range rep.Gates {
		for _, c := range gr.Cases {
			if !c.OK {
				t.Errorf("%s/%s: %v", gr.Gate, c.Name, c.Problems)
			}
		}
		if len(gr.Problems) > 0 {
			t.Errorf("%s: %v", gr.Gate, gr.Problems)
		}
	}
}

// buildRepo makes the same repository everywhere: fixed identity and dates,
// no user config, and local settings that outrank the user's global ones.
func TestBuildRepoIsHermetic(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_AUTHOR_NAME", "Someone Else")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = global\n[core]\n\texcludesFile = /etc/hostname\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []GitStep{{Op: "commit", Message: "one"}, {Op: "write", Files: map[string]string{"b.txt": "b\n"}}, {Op: "commit", Message: "two"}}
	if err := buildRepo(context.Background(), dir, fstest.MapFS{}, steps); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", dir, "log", "--format=%an <%ae> %aI %cI %s").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "tausik fixture <fixture@tausik.invalid> 2025-12-31T00:01:00+00:00 2025-12-31T00:01:00+00:00 two\n" +
		"tausik fixture <fixture@tausik.invalid> 2025-12-31T00:00:00+00:00 2025-12-31T00:00:00+00:00 one\n"
	if string(out) != want {
		t.Fatalf("log:\n%s\nwant:\n%s", out, want)
	}
	cfg, err := exec.Command("git", "-C", dir, "config", "--local", "core.excludesFile").Output()
	if err != nil || strings.TrimSpace(string(cfg)) != os.DevNull {
		t.Fatalf("core.excludesFile %q: %v", cfg, err)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Fatalf("HOME gained files: %v", entries)
	}
}

func TestGitStepErrors(t *testing.T) {
	cases := map[string]string{
		"git: {commit: x}":                            "git: want a list of steps",
		"git:\n  - {commit: x, write: {a: b}}":        "a step has exactly one of",
		"git:\n  - write: {../x: b}":                  `path "../x" must stay inside the tree`,
		"git:\n  - stage: [.git/config]":              "must stay inside the tree (and out of .git)",
		"git:\n  - apply: missing":                    `git[0].apply: "missing" is not a directory`,
		"git:\n  - apply: tree":                       `git[0].apply: "tree" is not a directory`,
		"git:\n  - commit: {message: m, date: today}": "want an RFC 3339 time",
		"git:\n  - remove: []":                        "name at least one path",
		"git:\n  - push: origin":                      "unknown",
	}
	for body, want := range cases {
		files := map[string]string{
			"gg/gate.yaml":                   gateYAML("gg", "rego"),
			"gg/policy.rego":                 "package tausik.gates.gg\n\nviolations contains {\"msg\": \"x\"} if false\n",
			"gg/fixtures/c/case.yaml":        "description: a case with bad git steps\n" + body + "\nexpect: {outcome: PASSED}\n",
			"gg/fixtures/c/tree/a.txt":       "a\n",
			"gg/fixtures/facts/case.yaml":    "description: a facts case cannot have git steps\ngit: []\nexpect: {outcome: PASSED}\n",
			"gg/fixtures/facts/facts.json":   `{"files": {"status": "ok", "files": []}}`,
			"gg/fixtures/facts/unused/x.txt": "x",
		}
		e, err := newTestEngine(t, t.TempDir(), files)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := e.Gate("gg")
		if _, d := loadCase(g, "c"); d == nil || !strings.Contains(d.Error(), want) {
			t.Errorf("%q: diagnostics %v, want %q", body, d, want)
		}
		if _, d := loadCase(g, "facts"); d == nil || !strings.Contains(d.Error(), "only a tree/ fixture can become a git repository") {
			t.Errorf("facts case with git: %v", d)
		}
	}
}
