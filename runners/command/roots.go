package command

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command/runcache"
	"github.com/tausik/tausik/runners/stacks"
)

// ReasonNotUsed is the reason of a stack gate's namespace when the stacks
// namespace shows no root where the project uses its tool.
const ReasonNotUsed = "not_used"

// gatherRoots runs a stack gate's command (Spec.PerRoot) once in each root
// the stacks namespace gives the tool, that holds a scoped file of the
// command's (by extension, outside the exclusions; a file belongs to the
// deepest root holding it), with that root as the working directory and
// those files, root-relative, as {files}. Findings and test cases get
// repo-relative paths; Roots says how each run went. A root that could not
// run, or whose output could not be read, makes the namespace an error
// (with every root's run in its data); no root in scope is no_files.
func (r *Runner) gatherRoots(ctx context.Context, s *runners.Scope) facts.Namespace {
	res := &facts.Command{
		Name: r.spec.Name, Argv: expand(r.spec.Argv, nil, ""), Files: []string{}, UsesFiles: r.spec.usesFiles(),
		ExitCode: -1, Parser: string(r.spec.Parser), Diagnostics: []facts.Diagnostic{}, Roots: []facts.RootRun{},
	}
	sf, err := stacks.ForScope(ctx, s)
	if err != nil {
		return facts.Error(fmt.Sprintf("stacks: %v", err))
	}
	tool, ok := sf.Tools[r.spec.Name]
	if !ok || !tool.Used {
		res.Detail = "the project shows no root where " + r.spec.Name + " is used"
		return facts.Namespace{Status: facts.StatusUnavailable, Reason: ReasonNotUsed, Data: res}
	}
	scoped, err := s.ScopedFiles(ctx)
	if err != nil {
		return facts.Error(fmt.Sprintf("list scoped files: %v", err))
	}
	files := r.filesByRoot(s.Root, tool.Roots, scoped)
	status := facts.StatusOK
	reason := ""
	for _, root := range tool.Roots {
		fs := files[root.Dir]
		if len(fs) == 0 {
			continue
		}
		run := r.runRoot(ctx, s, root, fs, res)
		if run.Reason != "" && reason == "" {
			status, reason = facts.StatusError, run.Reason
			res.Detail = run.Dir + ": " + run.Detail
		}
		res.Roots = append(res.Roots, run)
	}
	if len(res.Roots) == 0 {
		res.Detail = "no file in scope lies in a root where " + r.spec.Name + " is used"
		if len(r.exts) > 0 {
			res.Detail += " and has extension " + strings.Join(r.exts, ", ")
		}
		return facts.Namespace{Status: facts.StatusUnavailable, Reason: ReasonNoFiles, Data: res}
	}
	res.Ran, res.ExitCode = true, 0
	var out, errs []string
	for _, run := range res.Roots {
		res.Ran = res.Ran && run.Ran
		if res.ExitCode == 0 || !run.Ran {
			res.ExitCode = run.ExitCode
		}
		res.DurationMS += run.DurationMS
		out = append(out, "== "+run.Dir+" ==\n"+run.Stdout)
		errs = append(errs, "== "+run.Dir+" ==\n"+run.Stderr)
	}
	res.Stdout, res.StdoutTrunc = joinCapped(out, r.outCap)
	res.Stderr, res.StderrTrunc = joinCapped(errs, r.outCap)
	res.StdoutBytes, res.StderrBytes = int64(len(res.Stdout)), int64(len(res.Stderr))
	if res.Tests != nil {
		countCases(res.Tests)
	}
	return facts.Namespace{Status: status, Reason: reason, Data: res}
}

// filesByRoot assigns each scoped file the command takes to the deepest
// root holding it; a root whose tool is given only some files (Files)
// keeps those.
func (r *Runner) filesByRoot(repo string, roots []stacks.ToolRoot, scoped []string) map[string][]string {
	dirs := make([]string, len(roots))
	only := map[string][]string{}
	for i, t := range roots {
		dirs[i] = t.Dir
		if t.Files != nil {
			only[t.Dir] = t.Files
		}
	}
	out := map[string][]string{}
	for _, f := range scoped {
		dir, ok := stacks.Owner(dirs, f)
		if !ok || f == "" || path.IsAbs(f) || strings.HasPrefix(f, "../") || excluded(r.exclude, f) {
			continue
		}
		if len(r.exts) > 0 && !slices.Contains(r.exts, strings.ToLower(path.Ext(f))) {
			continue
		}
		if list, limited := only[dir]; limited && !slices.Contains(list, within(dir, f)) {
			continue
		}
		info, err := os.Stat(filepath.Join(repo, filepath.FromSlash(f)))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		out[dir] = append(out[dir], f)
	}
	return out
}

// within returns the repo-relative f relative to the root dir.
func within(dir, f string) string {
	if dir == "." {
		return f
	}
	return strings.TrimPrefix(f, dir+"/")
}

// runRoot runs the command of root's variant in root with files
// (repo-relative), adding its findings, repo-relative, to res. A runner
// that caches (WithCache) takes a kept run of the same key instead, and
// keeps a fresh run that is a result when nothing the key covers changed
// while the tool ran.
func (r *Runner) runRoot(ctx context.Context, s *runners.Scope, root stacks.ToolRoot, files []string, res *facts.Command) facts.RootRun {
	tpl, parser := r.spec.Argv, r.spec.Parser
	if v, ok := r.spec.Variants[root.Variant]; ok {
		tpl, parser = v.Argv, v.Parser
	}
	args := make([]string, 0, len(files))
	for _, f := range files {
		a := filepath.FromSlash(within(root.Dir, f))
		if strings.HasPrefix(a, "-") {
			a = "." + string(filepath.Separator) + a
		}
		args = append(args, a)
	}
	run := facts.RootRun{Dir: root.Dir, Variant: root.Variant, Files: []string{}}
	if slices.Contains(tpl, FilesArg) {
		run.Files = files
	} else {
		args = nil
	}
	key, in := "", runcache.Run{}
	if r.rc != nil && r.spec.Cache != nil {
		in = runcache.Run{Gate: r.spec.Name, Variant: root.Variant, Dir: root.Dir, Argv: expand(tpl, args, ""), Parser: string(parser),
			Timeout: r.spec.Timeout, OutCap: r.outCap, Env: r.spec.Env, Spec: *r.spec.Cache}
		key = r.rc.Key(ctx, s, in, false)
	}
	// A task's verification runs every tool afresh: the receipt it signs
	// says what ran for it. The run is kept for the evaluations after.
	if k, ok := r.rc.Lookup(ctx, key); ok && s.Request.Trigger != TriggerVerify {
		k.Run.Cached = true
		return addTo(res, k)
	}
	got := r.runFresh(ctx, s.Root, root, tpl, parser, args, run)
	if key != "" && runcache.Keepable(got.Run) && r.rc.Key(ctx, s, in, true) == key {
		r.rc.Keep(ctx, key, got)
	}
	return addTo(res, got)
}

// runFresh runs tpl with args in root and returns run completed with the
// outcome and the findings, repo-relative.
func (r *Runner) runFresh(ctx context.Context, repo string, root stacks.ToolRoot, tpl []string, parser Parser, args []string, run facts.RootRun) runcache.Kept {
	dir := filepath.Join(repo, filepath.FromSlash(root.Dir))
	rr := r.runOnce(ctx, repo, dir, tpl, parser, args)
	run.Argv, run.Ran, run.ExitCode = rr.argv, rr.out.ran, rr.out.exitCode
	run.DurationMS = rr.out.duration.Milliseconds()
	run.Stdout, _ = rr.out.stdout.report(r.outCap)
	run.Stderr, _ = rr.out.stderr.report(r.outCap)
	switch {
	case !rr.out.ran:
		run.Reason, run.Detail = rr.out.reason, rr.out.detail
		return runcache.Kept{Run: run}
	case rr.parseErr != nil:
		run.Reason, run.Detail = ReasonParseError, rr.parseDetail(tpl[0], run.ExitCode, run.Stderr)
		return runcache.Kept{Run: run}
	}
	k := runcache.Kept{Run: run, Diags: []facts.Diagnostic{}}
	for _, d := range rr.diags {
		d.File = repoPath(repo, root.Dir, d.File)
		k.Diags = append(k.Diags, d)
		k.Run.Findings++
	}
	if rr.tests != nil {
		k.Cases = []facts.TestCase{}
		for _, c := range rr.tests.Cases {
			c.File, c.FailFile = repoPath(repo, root.Dir, c.File), repoPath(repo, root.Dir, c.FailFile)
			k.Cases = append(k.Cases, c)
			k.Run.Cases++
			if c.Outcome == "failed" || c.Outcome == "error" {
				k.Run.Findings++
			}
		}
	}
	return k
}

// addTo adds the root's files and findings k to res and returns its run.
func addTo(res *facts.Command, k runcache.Kept) facts.RootRun {
	res.Files = append(res.Files, k.Run.Files...)
	res.Diagnostics = append(res.Diagnostics, k.Diags...)
	if k.Cases != nil {
		if res.Tests == nil {
			res.Tests = &facts.TestReport{Cases: []facts.TestCase{}}
		}
		res.Tests.Cases = append(res.Tests.Cases, k.Cases...)
	}
	return k.Run
}

// repoPath makes a path a tool printed relative to its root dir (or
// absolute) repo-relative; a path outside the repository stays absolute,
// and "" stays "".
func repoPath(repo, dir, p string) string {
	if p == "" {
		return ""
	}
	if path.IsAbs(p) || filepath.IsAbs(p) {
		return relPath(repo, p)
	}
	return path.Clean(path.Join(dir, p))
}

// joinCapped joins the roots' streams, cut in the middle past n bytes.
func joinCapped(parts []string, n int) (string, bool) {
	s := strings.Join(parts, "\n")
	if len(s) <= n {
		return s, false
	}
	c := newCapture(len(s), n/2)
	_, _ = c.Write([]byte(s))
	return c.report(n)
}
