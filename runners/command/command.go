// Package command is the runner behind command gates (ruff, pytest, mypy,
// bandit, go_vet, go_test and teams' own): it runs one tool as argv, never
// through a shell, over the scoped files, and records what happened.
//
// Namespaces: one per command gate, named after the gate ("ruff", "pytest",
// a team's "eslint"), holding a facts.Command. A policy reads
// input.ruff.exit_code, input.ruff.diagnostics, input.pytest.tests and so on.
// Status ok means the tool ran to an exit code and its machine output (if it
// has a parser) was read; unavailable with reason "no_files" means no scoped
// file matched the command's extensions and exclusions (for a command that
// takes {files}, or one that judges a language), so there is nothing to judge; error
// means the tool could not be judged (reasons in facts.Command's doc).
//
// Safety: the argv must start with an allowed prefix (the built-in gates'
// commands by default), arguments holding shell metacharacters are refused rather than
// escaped, the tool runs in the project root with its own process group, and
// a timeout kills the group.
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
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command/runcache"
)

// Output limits: how much of a stream the facts quote, and how much is kept
// for a parser to read.
const (
	DefaultOutputCap = 64 << 10
	parseLimit       = 64 << 20
)

// Runner runs one command gate's command. It is immutable after New and safe
// for concurrent use.
type Runner struct {
	spec    Spec
	exts    []string
	exclude pathpat.Set
	outCap  int
	confine []string        // writable directories when the tool runs sandboxed; nil: unconfined
	rc      *runcache.Cache // keeps the runs of a cached spec (WithCache); nil keeps none
}

// Option tunes a Runner at construction.
type Option func(*options)

type options struct {
	allow   [][]string
	outCap  int
	confine []string
	rc      *runcache.Cache
}

// WithAllowlist replaces the allowed commands (DefaultAllowed when not
// given) with executables, each allowed with any arguments: bare names,
// found on PATH, or exact paths.
func WithAllowlist(entries ...string) Option {
	return func(o *options) {
		o.allow = make([][]string, len(entries))
		for i, e := range entries {
			o.allow[i] = []string{e}
		}
	}
}

// WithAllowed replaces the allowed commands (DefaultAllowed when not given)
// with argv prefixes (see AllowedArgv).
func WithAllowed(prefixes ...[]string) Option {
	return func(o *options) { o.allow = slices.Clone(prefixes) }
}

// WithSandbox runs the tool in a sandbox (internal/sandbox) where only
// writable, and the runner's own report directory, can be written: a fixture
// run's temp copy. Where the machine allows no sandbox the tool runs
// unconfined; the caller says so (sandbox.Available).
func WithSandbox(writable ...string) Option {
	return func(o *options) { o.confine = append([]string{}, writable...) }
}

// WithOutputCap sets how many bytes of stdout and of stderr the facts quote
// (DefaultOutputCap when not given or not positive).
func WithOutputCap(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.outCap = n
		}
	}
}

// New validates spec and returns its runner. A spec is refused, with an error
// naming the gate and the offending argument, when its executable is not on
// the allow-list (ErrNotAllowed), an argument holds a shell metacharacter
// (ErrMetachar), or it is otherwise malformed (ErrBadSpec).
func New(spec Spec, opts ...Option) (*Runner, error) {
	o := options{allow: DefaultAllowed(), outCap: DefaultOutputCap}
	for _, opt := range opts {
		opt(&o)
	}
	spec.Argv = slices.Clone(spec.Argv)
	spec.Env = slices.Clone(spec.Env)
	spec.Extensions = slices.Clone(spec.Extensions)
	spec.Exclude = slices.Clone(spec.Exclude)
	if err := validate(spec, o.allow); err != nil {
		return nil, err
	}
	if spec.Timeout == 0 {
		spec.Timeout = DefaultTimeout
	}
	if spec.Parser == ParserPytest && !slices.ContainsFunc(spec.Argv, func(a string) bool { return strings.Contains(a, JUnitArg) }) {
		// Without a report there is nothing to parse; junit_family=xunit1
		// keeps each case's file and line.
		spec.Argv = append(spec.Argv, "-o", "junit_family=xunit1", "--junitxml="+JUnitArg)
	}
	exts := make([]string, len(spec.Extensions))
	for i, e := range spec.Extensions {
		exts[i] = "." + strings.ToLower(strings.TrimPrefix(e, "."))
	}
	exclude, err := compileExclude(spec.Exclude)
	if err != nil {
		return nil, err
	}
	return &Runner{spec: spec, exts: exts, exclude: exclude, outCap: o.outCap, confine: o.confine, rc: o.rc}, nil
}

// Namespace implements runners.Runner: the gate's name.
func (r *Runner) Namespace() string { return r.spec.Name }

// Spec returns the validated spec, with defaults filled in.
func (r *Runner) Spec() Spec {
	s := r.spec
	s.Argv, s.Env, s.Extensions, s.Exclude = slices.Clone(s.Argv), slices.Clone(s.Env), slices.Clone(s.Extensions), slices.Clone(s.Exclude)
	return s
}

// Gather implements runners.Runner: select the files, run the tool, parse its
// output. It never panics on tool output and never reports ok for a run it
// could not read.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if r.spec.PerRoot {
		return r.gatherRoots(ctx, s)
	}
	res := &facts.Command{
		Name: r.spec.Name, Argv: []string{}, Files: []string{}, UsesFiles: r.spec.usesFiles(),
		ExitCode: -1, Parser: string(r.spec.Parser), Diagnostics: []facts.Diagnostic{},
	}
	var args []string
	if res.UsesFiles || len(r.exts) > 0 || len(r.exclude) > 0 {
		scoped, err := s.ScopedFiles(ctx)
		if err != nil {
			return facts.Error(fmt.Sprintf("list scoped files: %v", err))
		}
		files, fileArgs := r.selectFiles(s.Root, scoped)
		if len(files) == 0 {
			res.Detail = "no file in scope"
			if len(r.exts) > 0 {
				res.Detail += " has extension " + strings.Join(r.exts, ", ")
			}
			if len(r.exclude) > 0 {
				res.Detail += " outside the excluded paths (" + strings.Join(r.spec.Exclude, ", ") + ")"
			}
			return facts.Namespace{Status: facts.StatusUnavailable, Reason: ReasonNoFiles, Data: res}
		}
		if res.UsesFiles {
			res.Files, args = files, fileArgs
		}
	}
	run := r.runOnce(ctx, s.Root, s.Root, r.spec.Argv, r.spec.Parser, args)
	res.Argv = run.argv
	res.Ran, res.ExitCode, res.Detail = run.out.ran, run.out.exitCode, run.out.detail
	res.DurationMS = run.out.duration.Milliseconds()
	res.Stdout, res.StdoutTrunc = run.out.stdout.report(r.outCap)
	res.Stderr, res.StderrTrunc = run.out.stderr.report(r.outCap)
	res.StdoutBytes, res.StderrBytes = run.out.stdout.total, run.out.stderr.total
	if !run.out.ran {
		return facts.Namespace{Status: facts.StatusError, Reason: run.out.reason, Data: res}
	}
	if run.parseErr != nil {
		res.Detail = run.parseDetail(r.spec.Argv[0], res.ExitCode, res.Stderr)
		return facts.Namespace{Status: facts.StatusError, Reason: ReasonParseError, Data: res}
	}
	res.Diagnostics, res.Tests = run.diags, run.tests
	if res.Diagnostics == nil {
		res.Diagnostics = []facts.Diagnostic{}
	}
	return facts.OK(res)
}

// runResult is one run of the tool and what its output said.
type runResult struct {
	argv     []string // as recorded: report placeholders stay unexpanded
	out      outcome
	parseErr error
	diags    []facts.Diagnostic
	tests    *facts.TestReport
}

// parseDetail says why the output of a run that exited could not be read.
func (rr runResult) parseDetail(exe string, exit int, stderr string) string {
	d := fmt.Sprintf("%s exited %d; %v", exe, exit, rr.parseErr)
	if msg := firstLine(stderr); msg != "" {
		d += "; stderr: " + msg
	}
	return d
}

// runOnce runs the command tpl (with placeholders) in dir, files args, and
// parses its output with parser; paths in the findings are relative to dir.
// repo is the project root, writable in a sandboxed run.
func (r *Runner) runOnce(ctx context.Context, repo, dir string, tpl []string, parser Parser, args []string) runResult {
	var rr runResult
	reportDir := ""
	if parser.readsReport() {
		d, err := os.MkdirTemp("", "tausik-report-")
		if err != nil {
			rr.out = outcome{exitCode: -1, reason: ReasonStartFailed, detail: fmt.Sprintf("report dir: %v", err),
				stdout: newCapture(0, 0), stderr: newCapture(0, 0)}
			return rr
		}
		defer os.RemoveAll(d)
		reportDir = d
	}
	report := filepath.Join(reportDir, "report")
	if parser == ParserPytest || parser == ParserNodeTest {
		report += ".xml"
	} else if parser.readsReport() {
		report += ".json"
	}
	// The facts keep {junitxml} and {report} unexpanded: the temp path means
	// nothing after the run and would make equal runs differ.
	rr.argv = expand(tpl, args, "")
	argv := expand(tpl, args, report)

	var confine []string
	if r.confine != nil {
		confine = append(slices.Clone(r.confine), repo)
		if reportDir != "" {
			confine = append(confine, reportDir)
		}
	}
	rr.out = execute(ctx, dir, argv, r.spec.Env, confine, r.spec.Timeout, max(parseLimit, r.outCap), r.outCap/2)
	if rr.out.ran {
		rr.diags, rr.tests, rr.parseErr = parseOutput(parser, rr.out, dir, report)
	}
	return rr
}

// selectFiles keeps the scoped files that have a wanted extension, are not
// excluded and exist as regular files (a deleted file cannot be linted). It returns them as
// reported and as arguments: a path starting with "-" becomes "./-…" so no
// tool reads a file name as an option.
func (r *Runner) selectFiles(root string, scoped []string) (files, args []string) {
	files, args = []string{}, []string{}
	for _, rel := range scoped {
		if len(r.exts) > 0 && !slices.Contains(r.exts, strings.ToLower(path.Ext(rel))) {
			continue
		}
		if rel == "" || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || excluded(r.exclude, rel) {
			continue
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		arg := filepath.FromSlash(rel)
		if strings.HasPrefix(rel, "-") {
			arg = "." + string(filepath.Separator) + arg
		}
		files = append(files, rel)
		args = append(args, arg)
	}
	return files, args
}

// expand substitutes the placeholders of tpl: {files} becomes the file
// arguments, {junitxml} and {report} the report path (kept as written when
// report is "").
func expand(tpl, files []string, report string) []string {
	argv := make([]string, 0, len(tpl)+len(files))
	for _, a := range tpl {
		if a == FilesArg {
			argv = append(argv, files...)
			continue
		}
		if report != "" {
			a = strings.ReplaceAll(strings.ReplaceAll(a, JUnitArg, report), ReportArg, report)
		}
		argv = append(argv, a)
	}
	return argv
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
