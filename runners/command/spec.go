package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/runners/command/runcache"
)

// Parser names how a command's machine output becomes facts.
type Parser string

// The parsers. Each names the output it reads; a command without one is
// judged by exit code and output alone.
const (
	ParserNone   Parser = ""       // exit code and captured output only
	ParserRuff   Parser = "ruff"   // `ruff check --output-format json` on stdout
	ParserPytest Parser = "pytest" // JUnit XML (junit_family=xunit1) written to {junitxml}
	ParserMypy   Parser = "mypy"   // "file:line[:col]: severity: message  [code]" lines
	ParserLines  Parser = "lines"  // "file:line[:col]: message" lines (go vet, compilers)
	ParserBandit Parser = "bandit" // `bandit -f json` on stdout

	ParserTsc         Parser = "tsc"         // `tsc --pretty false`: "file(line,col): error TS…: message" lines
	ParserEslint      Parser = "eslint"      // `eslint -f json` on stdout
	ParserJest        Parser = "jest"        // jest's `--json` report (vitest's json reporter too), written to {report}
	ParserNodeTest    Parser = "node-test"   // `node --test`'s JUnit reporter, written to {report}
	ParserGolangci    Parser = "golangci"    // golangci-lint's JSON on stdout
	ParserHelm        Parser = "helm"        // `helm lint`: "[SEVERITY] file: message" lines
	ParserKubeconform Parser = "kubeconform" // `kubeconform -output json` on stdout
)

// Placeholders a Spec's argv may hold.
const (
	// FilesArg, as a whole argument, expands to the scoped files, one
	// argument each. A command holding it runs only when some file matches.
	FilesArg = "{files}"
	// JUnitArg, anywhere inside an argument, becomes the path of a JUnit XML
	// report in a temp directory removed after the run.
	JUnitArg = "{junitxml}"
	// ReportArg, anywhere inside an argument, becomes the path of the
	// tool's machine-readable report (JSON or JUnit XML, as its parser
	// reads) in a temp directory removed after the run.
	ReportArg = "{report}"
)

// PythonEnv names the environment variable that picks the Python interpreter
// the built-in pytest gate runs ("python3" when unset). A machine whose first
// python3 on PATH lacks pytest points it at one that has it.
const PythonEnv = "TAUSIK_PYTHON"

// DefaultTimeout applies when a Spec leaves Timeout zero.
const DefaultTimeout = 5 * time.Minute

// Spec describes one command gate's command. The engine fills it from the
// gate's bundle and the config; the working directory is always the project
// root.
type Spec struct {
	// Name is the gate's name and the facts namespace the results go under.
	Name string
	// Argv is the command: executable first, then arguments, with FilesArg
	// and JUnitArg placeholders. It is never given to a shell.
	Argv []string
	// Extensions keeps only scoped files with one of these extensions
	// (".py"; case-insensitive); empty keeps every file. A command without
	// {files} runs only when some scoped file has one of them: a go vet of the
	// whole module has nothing to judge in a change that touches no Go file.
	Extensions []string
	// Exclude leaves scoped files out, by the patterns compileExclude
	// documents ("testdata/", "**/fixtures/*/tree/", "gen/*.py").
	Exclude []string
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// Env adds KEY=VALUE entries to the inherited environment.
	Env []string
	// Parser reads the tool's machine output into diagnostics or test results.
	Parser Parser
	// PerRoot makes the command a stack gate's: it runs once in each root
	// of its stack that the stacks namespace says the tool judges (the
	// registry entry called Name), with the root as its working directory,
	// on the scoped files under that root; see Runner.Gather.
	PerRoot bool
	// Variants are, for a PerRoot command whose roots use different
	// runners (js_test: node, jest, vitest), each variant's command; a
	// root without a variant runs Argv with Parser.
	Variants map[string]Variant
	// Cache, when set, lets the run of a stack gate in one root be kept in
	// the fact cache and reused while nothing the key covers changed (see
	// runcache.Spec and WithCache); nil runs the tool on every evaluation.
	Cache *runcache.Spec
}

// Variant is one of a stack gate's commands.
type Variant struct {
	Argv   []string
	Parser Parser
}

// usesFiles reports whether the command takes the scoped files.
func (s Spec) usesFiles() bool { return slices.Contains(s.Argv, FilesArg) }

// Python returns the interpreter the built-in pytest gate runs.
func Python() string {
	if p := PythonFromEnv(); p != "" {
		return p
	}
	return "python3"
}

// PythonFromEnv returns the interpreter TAUSIK_PYTHON names, "" when unset.
// The operator's environment outranks any config file.
func PythonFromEnv() string { return strings.TrimSpace(os.Getenv(PythonEnv)) }

// Defaults returns the built-in command gates' specs: ruff, pytest, mypy,
// bandit, go_vet and go_test, each named after its gate. pytest runs the whole
// suite (no {files}), with the legacy JUnit family so every case carries its
// file and line, and writes no bytecode or cache into the project: a .pyc
// left from a run in the same second as an edit of the same size would be
// trusted by the next run; it, go_vet and go_test run only when a file of their language
// is in scope. Every spec leaves DefaultExclude out: the linters are not given
// those files, and a whole-project command does not run for them alone.
func Defaults() []Spec {
	py := []string{".py", ".pyi"}
	return append([]Spec{
		{Name: "ruff", Argv: []string{"ruff", "check", "--output-format", "json", "--no-cache", FilesArg},
			Extensions: py, Exclude: DefaultExclude, Timeout: 2 * time.Minute, Parser: ParserRuff},
		{Name: "pytest", Argv: []string{Python(), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", "--rootdir=.", "--junitxml=" + JUnitArg},
			Env:        []string{"PYTHONDONTWRITEBYTECODE=1"},
			Extensions: py, Exclude: DefaultExclude, Timeout: 15 * time.Minute, Parser: ParserPytest},
		{Name: "mypy", Argv: []string{"mypy", "--show-column-numbers", "--no-color-output", FilesArg},
			Extensions: py, Exclude: DefaultExclude, Timeout: 5 * time.Minute, Parser: ParserMypy},
		{Name: "bandit", Argv: []string{"bandit", "-q", "-f", "json", FilesArg},
			Extensions: []string{".py"}, Exclude: DefaultExclude, Timeout: 5 * time.Minute, Parser: ParserBandit},
		{Name: "go_vet", Argv: []string{"go", "vet", "./..."}, Extensions: []string{".go"}, Exclude: DefaultExclude,
			Timeout: 5 * time.Minute, Parser: ParserLines},
		{Name: "go_test", Argv: []string{"go", "test", "./..."}, Extensions: []string{".go"}, Exclude: DefaultExclude,
			Timeout: 15 * time.Minute},
	}, StackSpecs()...)
}

// DefaultAllowed returns the argv prefixes the built-in gates run, which any
// command gate may start with: `ruff check`, `python3 -m pytest` (and
// `$TAUSIK_PYTHON -m pytest` when set), `pytest`, `mypy`, `bandit`, `go vet`,
// `go test`, and the stack gates' commands (RegisterStack). Prefixes, not executables: an allowed interpreter must not
// let a committed config run any script it names (`python3 tools/x.py`).
func DefaultAllowed() [][]string {
	list := [][]string{{"ruff", "check"}, {"python3", "-m", "pytest"}, {"pytest"}, {"mypy"}, {"bandit"}, {"go", "vet"}, {"go", "test"}}
	if p := PythonFromEnv(); p != "" && p != "python3" {
		list = append(list, []string{p, "-m", "pytest"})
	}
	return append(list, stackAllowed()...)
}

// programFlags name a program for the tool to run (go's -exec, -toolexec,
// -vettool; mypy's --python-executable). An argv matched by a prefix that
// does not itself hold the flag may not add one: `go vet -vettool=x` would
// run whatever x is under the allowance for `go vet`.
var programFlags = []string{"-exec", "-toolexec", "-vettool", "--exec", "--toolexec", "--vettool", "--python-executable"}

// AllowedArgv reports whether argv starts with one of the prefixes allow:
// its executable matches the prefix's first item as Allowed does, the
// following items are equal, and what comes after the prefix names no other
// program (programFlags).
func AllowedArgv(argv []string, allow [][]string) bool {
	return slices.ContainsFunc(allow, func(p []string) bool { return matchPrefix(argv, p) })
}

func matchPrefix(argv, p []string) bool {
	if len(p) == 0 || len(argv) < len(p) || !allowed(argv[0], p[:1]) || !slices.Equal(argv[1:len(p)], p[1:]) {
		return false
	}
	for _, a := range argv[len(p):] {
		for _, f := range programFlags {
			if a == f || strings.HasPrefix(a, f+"=") {
				return false
			}
		}
	}
	return true
}

// FormatAllowed renders prefixes for messages: "ruff check, go vet".
func FormatAllowed(allow [][]string) string {
	parts := make([]string, len(allow))
	for i, p := range allow {
		parts[i] = strings.Join(p, " ")
	}
	return strings.Join(parts, ", ")
}

// metachars are refused in configured arguments. There is no shell to
// interpret them, so a command that holds one was written for a shell and
// would not do what its author meant.
const metachars = ";|&$`<>()\n\r"

// reserved namespaces belong to other runners; a command gate may not take them.
var reserved = []string{"schema", "request", "files", "python", "git", "verify", "task",
	"session", "hosts", "renar", "config", "store", "decision"}

var (
	// Compiled on first use, not at every process start (docs/performance.md).
	namePattern        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]{0,62}$`) })
	placeholderPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z_]+\}`) })
	envKeyPattern      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// validate checks spec against the allow-list and the argv rules.
func validate(spec Spec, allow [][]string) error {
	if !namePattern().MatchString(spec.Name) {
		return fmt.Errorf("%w: gate name %q must be lower case letters, digits, '-' or '_'", ErrBadSpec, spec.Name)
	}
	if slices.Contains(reserved, spec.Name) {
		return fmt.Errorf("%w: gate name %q is taken by another runner's facts", ErrBadSpec, spec.Name)
	}
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return fmt.Errorf("%w: command gate %q has no command", ErrBadSpec, spec.Name)
	}
	for i, arg := range spec.Argv {
		if strings.Contains(arg, FilesArg) && arg != FilesArg {
			return fmt.Errorf("%w: command gate %q: argument %d %q: %s must stand alone, it expands to one argument per file",
				ErrBadSpec, spec.Name, i, arg, FilesArg)
		}
	}
	if i := slices.Index(spec.Argv, FilesArg); i == 0 {
		return fmt.Errorf("%w: command gate %q: the executable cannot be %s", ErrBadSpec, spec.Name, FilesArg)
	}
	if err := checkArgv(fmt.Sprintf("command gate %q", spec.Name), spec.Argv, []string{FilesArg, JUnitArg, ReportArg}, allow); err != nil {
		return err
	}
	if err := validParser(spec.Name, spec.Parser); err != nil {
		return err
	}
	for v, vs := range spec.Variants {
		if err := checkArgv(fmt.Sprintf("command gate %q variant %q", spec.Name, v), vs.Argv, []string{FilesArg, JUnitArg, ReportArg}, allow); err != nil {
			return err
		}
		if err := validParser(spec.Name, vs.Parser); err != nil {
			return err
		}
	}
	for _, kv := range spec.Env {
		key, _, ok := strings.Cut(kv, "=")
		if !ok || !envKeyPattern().MatchString(key) {
			return fmt.Errorf("%w: command gate %q: env entry %q is not KEY=VALUE", ErrBadSpec, spec.Name, kv)
		}
		if strings.HasPrefix(key, "LD_") || strings.HasPrefix(key, "DYLD_") {
			return fmt.Errorf("%w: command gate %q: env %s would load code into an allowed executable", ErrNotAllowed, spec.Name, key)
		}
	}
	for _, ext := range spec.Extensions {
		if strings.TrimPrefix(ext, ".") == "" || strings.ContainsAny(ext, `/\`) {
			return fmt.Errorf("%w: command gate %q: bad extension %q", ErrBadSpec, spec.Name, ext)
		}
	}
	if _, err := compileExclude(spec.Exclude); err != nil {
		return fmt.Errorf("command gate %q: %w", spec.Name, err)
	}
	if spec.Timeout < 0 {
		return fmt.Errorf("%w: command gate %q: negative timeout", ErrBadSpec, spec.Name)
	}
	return nil
}

// CheckArgv applies the rules a command gate's argv lives under to any
// command tausik starts from configuration (a generator, an MCP server):
// no shell metacharacter in any argument, no placeholder outside known, and
// an argv that starts with an allowed prefix (AllowedArgv). what names the command in errors
// ("generator claude"). It returns ErrMetachar, ErrBadSpec or ErrNotAllowed.
func CheckArgv(what string, argv, known []string, allow [][]string) error {
	return checkArgv(what, argv, known, allow)
}

func checkArgv(what string, argv, known []string, allow [][]string) error {
	if len(argv) == 0 || argv[0] == "" {
		return fmt.Errorf("%w: %s has no command", ErrBadSpec, what)
	}
	for i, arg := range argv {
		if j := strings.IndexAny(arg, metachars); j >= 0 {
			return fmt.Errorf("%w: %s: argument %d %q holds %q; commands run without a shell, "+
				"so pipes, redirects, substitutions and command lists are refused: write each argument as its own list item",
				ErrMetachar, what, i, arg, arg[j:j+1])
		}
		for _, ph := range placeholderPattern().FindAllString(arg, -1) {
			if !slices.Contains(known, ph) {
				return fmt.Errorf("%w: %s: argument %d %q: unknown placeholder %s (known: %s)",
					ErrBadSpec, what, i, arg, ph, strings.Join(known, ", "))
			}
		}
	}
	if !AllowedArgv(argv, allow) {
		return fmt.Errorf("%w: %s: %q starts with no allowed command [%s]; add its prefix to the allowed commands in the config to let it run",
			ErrNotAllowed, what, strings.Join(argv, " "), FormatAllowed(allow))
	}
	return nil
}

// Allowed reports whether exe may run as the first item of an allowed
// prefix: a bare name must be a bare entry, a path an exact entry.
func Allowed(exe string, allow []string) bool { return allowed(exe, allow) }

// allowed reports whether exe may run. A bare name matches a bare entry and
// is found on PATH; a path (holding a separator) must equal an entry, so an
// allowed name cannot be smuggled in from another directory.
func allowed(exe string, allow []string) bool {
	if !strings.ContainsRune(exe, '/') && !strings.ContainsRune(exe, filepath.Separator) {
		return slices.Contains(allow, exe)
	}
	clean := filepath.Clean(exe)
	for _, a := range allow {
		if strings.ContainsRune(a, '/') && filepath.Clean(a) == clean {
			return true
		}
	}
	return false
}

// validParser checks that p names a parser.
func validParser(gate string, p Parser) error {
	switch p {
	case ParserNone, ParserRuff, ParserPytest, ParserMypy, ParserLines, ParserBandit,
		ParserTsc, ParserEslint, ParserJest, ParserNodeTest, ParserGolangci, ParserHelm, ParserKubeconform:
		return nil
	}
	if slices.Contains(stackParsers, p) {
		return nil
	}
	return fmt.Errorf("%w: command gate %q: unknown parser %q", ErrBadSpec, gate, p)
}
