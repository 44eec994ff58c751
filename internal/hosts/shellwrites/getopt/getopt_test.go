package getopt

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// word is a test argument: "$X" stands for one known only at run time.
type word struct {
	lit   string
	known bool
}

func (w word) Literal() (string, bool) { return w.lit, w.known }

func (w word) Part(value string) word { return word{lit: value, known: true} }

func words(args []string) []word {
	out := make([]word, len(args))
	for i, a := range args {
		out[i] = word{lit: a, known: !strings.HasPrefix(a, "$")}
	}
	return out
}

// render writes what Parse found as util-linux getopt(1) prints it: each
// option, a value quoted after one that takes a value (” when an optional
// value is absent), "--", the operands quoted. An argument known only at run
// time is "?".
func render(s Spec, opts []Opt[word], ops []word) string {
	var b strings.Builder
	for _, o := range opts {
		valued := false
		if len(o.Name) == 1 {
			b.WriteString(" -" + o.Name)
			valued = s.ShortKind(o.Name[0]) >= Required
		} else {
			b.WriteString(" --" + o.Name)
			valued = slices.Contains(s.Long, o.Name) || slices.Contains(s.Optional, o.Name)
		}
		if valued {
			b.WriteString(quote(o.Value))
		}
	}
	b.WriteString(" --")
	for _, a := range ops {
		b.WriteString(quote(a))
	}
	return strings.TrimSpace(b.String())
}

func quote(a word) string {
	if !a.known && a.lit != "" {
		return " ?"
	}
	return " '" + a.lit + "'"
}

// getopt1 runs util-linux getopt(1), which reads args with glibc's
// getopt_long, on s; ok is false when it refuses them (an unknown or
// ambiguous option).
func getopt1(t *testing.T, s Spec, args []string) (out string, ok bool) {
	t.Helper()
	short := s.Short
	if s.StopAtOperand {
		short = "+" + short
	}
	var long []string
	for _, l := range s.Long {
		long = append(long, l+":")
	}
	for _, l := range s.Optional {
		long = append(long, l+"::")
	}
	long = append(long, s.Flags...)
	argv := []string{"-o", short}
	if len(long) > 0 {
		argv = append(argv, "-l", strings.Join(long, ","))
	}
	cmd := exec.Command("getopt", append(append(argv, "--"), args...)...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "POSIXLY_CORRECT=") && !strings.HasPrefix(e, "GETOPT_COMPATIBLE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	b, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return "", false
	}
	if err != nil {
		t.Fatalf("getopt %q: %v", argv, err)
	}
	return strings.TrimSpace(string(b)), true
}

var testSpec = Spec{Strict: true, Short: "fvt:i::", Long: []string{"target-directory", "suffix"},
	Optional: []string{"backup"}, Flags: []string{"force", "verbose", "version"}}

// TestParseAsGetopt: each command line is read as glibc's getopt_long reads
// it, shown by util-linux getopt(1) run on the same spec: bundles, values
// attached or in the next argument, optional values only attached,
// abbreviations, permuted operands, "--" and "-", options that end at the
// first operand; what getopt refuses (an unknown option, an ambiguous
// abbreviation) a Strict spec reports.
func TestParseAsGetopt(t *testing.T) {
	if _, err := exec.LookPath("getopt"); err != nil {
		t.Fatalf("util-linux getopt is needed: %v", err)
	}
	for _, c := range []struct {
		s    Spec
		args string
	}{
		{testSpec, "-ft DIR a b"},
		{testSpec, "-tDIR a"},
		{testSpec, "a -f b -v"},
		{testSpec, "--target-directory DIR a --suffix=.b"},
		{testSpec, "--targ=DIR a --suf .b"},
		{testSpec, "--backup a --backup=numbered b --back=t"},
		{testSpec, "-i a -i.bak b -fi.c"},
		{testSpec, "a -- -f --force"},
		{testSpec, "- a"},
		{testSpec, "--verb a"},
		{testSpec, "--ver a"},
		{testSpec, "-x a"},
		{testSpec, "--frobnicate a"},
		{testSpec, "-f --target-directory=a=b c"},
		{Spec{Short: "u:", Long: []string{"user"}, StopAtOperand: true}, "-u root cmd -f --user x"},
		{Spec{StopAtOperand: true}, "cmd -v"},
		{Cp, "-a --backup=numbered -S .b -t dir x y"},
		{Cp, "--no-target-directory --preserve=mode src dst"},
		{Tar, "-xzf a.tgz -C dir --strip-components=1 member"},
		{Tar, "--create --file=out.tar --remove-files a b"},
		{Sed, "-i.bak -e p f"},
		{Sed, "-n --in-place f --expression=p"},
		{Sort, "-o out -k2 f -r"},
		{Git, "-C dir -c a=b status -s"},
		{Rm, "-rf --one-file-system a --preserve-root=all"},
	} {
		args := strings.Fields(c.args)
		want, ok := getopt1(t, c.s, args)
		opts, ops, bad := ParseStrict(c.s, words(args))
		if !ok {
			if c.s.Strict && bad == "" {
				t.Errorf("%q: getopt refuses it, ParseStrict reports no option it does not model", c.args)
			}
			continue
		}
		if bad != "" {
			t.Errorf("%q: getopt takes it, ParseStrict reports %q", c.args, bad)
		}
		if got := render(c.s, opts, ops); got != want {
			t.Errorf("%q:\n got %s\nwant %s", c.args, got, want)
		}
	}
}

// TestParseBeyondGetopt: what getopt(1) cannot show. An argument known only
// at run time is an operand (and ends a StopAtOperand spec's options), or
// the value of the option before it; the
// first option a Strict spec does not model is the one reported, and a spec
// that is not Strict reports none; a value missing at the end is left empty.
func TestParseBeyondGetopt(t *testing.T) {
	loose := testSpec
	loose.Strict = false
	for _, c := range []struct {
		s               Spec
		args, want, bad string
	}{
		{testSpec, "$X -f a", "-f -- ? 'a'", ""},
		{testSpec, "-t $X a", "-t ? -- 'a'", ""},
		{Spec{StopAtOperand: true, Short: "v"}, "$X -v", "-- ? '-v'", ""},
		{testSpec, "-x -y --zz a", "-x -y --zz -- 'a'", "-x"},
		{testSpec, "--ver -x", "--ver -x --", "--ver"},
		{loose, "-x --zz a", "-x --zz -- 'a'", ""},
		{testSpec, "a -t", "-t '' -- 'a'", ""},
		{testSpec, "--suffix", "--suffix '' --", ""},
	} {
		opts, ops, bad := ParseStrict(c.s, words(strings.Fields(c.args)))
		if got := render(c.s, opts, ops); got != c.want || bad != c.bad {
			t.Errorf("%q: got %s (bad %q), want %s (bad %q)", c.args, got, bad, c.want, c.bad)
		}
		if o, p := Parse(c.s, words(strings.Fields(c.args))); render(c.s, o, p) != render(c.s, opts, ops) {
			t.Errorf("%q: Parse and ParseStrict differ", c.args)
		}
	}
}

// TestOptionQueries: Has finds any of its names, Value is the last value
// given to any of them, Values all of them in order.
func TestOptionQueries(t *testing.T) {
	opts, _ := Parse(testSpec, words(strings.Fields("-t a -f --target-directory b -tc x")))
	if !Has(opts, "x", "f") || Has(opts, "v", "verbose") {
		t.Errorf("Has: -f given, -v not: %v", opts)
	}
	if v, ok := Value(opts, "t", "target-directory"); !ok || v.lit != "c" {
		t.Errorf("Value = %q, %v; want the last, c", v.lit, ok)
	}
	if _, ok := Value(opts, "suffix"); ok {
		t.Error("Value of an option not given is found")
	}
	var got []string
	for _, v := range Values(opts, "t", "target-directory") {
		got = append(got, v.lit)
	}
	if strings.Join(got, " ") != "a b c" {
		t.Errorf("Values = %q, want a b c", got)
	}
}

// TestTablesWellFormed: each table's short string names each letter once
// and only letters and digits, and no long name is listed twice (in one list
// or across Long, Optional and Flags), so a name's kind is never in doubt;
// a Strict table accepts --help and --version like every GNU tool.
func TestTablesWellFormed(t *testing.T) {
	tables := map[string]Spec{
		"Sudo": Sudo, "Env": Env, "Nice": Nice, "Timeout": Timeout, "Stdbuf": Stdbuf, "Ionice": Ionice, "Time": Time,
		"Xargs": Xargs, "Exec": Exec, "Strace": Strace, "Flock": Flock, "Watch": Watch, "Su": Su,
		"Cp": Cp, "Mv": Mv, "Ln": Ln, "Install": Install, "Tee": Tee, "Rm": Rm, "Rmdir": Rmdir, "Unlink": Unlink,
		"Shred": Shred, "Touch": Touch, "Mkdir": Mkdir, "Truncate": Truncate, "Chmod": Chmod, "Chown": Chown,
		"Sort": Sort, "Uniq": Uniq, "Split": Split, "Csplit": Csplit, "Mktemp": Mktemp, "Sed": Sed, "Patch": Patch,
		"Tar": Tar, "Cpio": Cpio, "Curl": Curl, "Wget": Wget, "Rsync": Rsync,
		"Git": Git, "GitRestore": GitRestore, "GitCheckout": GitCheckout, "GitRm": GitRm, "GitClean": GitClean,
		"GitClone": GitClone, "GitWorktree": GitWorktree, "GitApply": GitApply, "GitSwitch": GitSwitch, "GitInit": GitInit,
	}
	for name, s := range tables {
		letters := strings.ReplaceAll(s.Short, ":", "")
		for i := 0; i < len(letters); i++ {
			c := letters[i]
			if strings.IndexByte(letters, c) != i || !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				t.Errorf("%s: short letter %q repeated or not a letter", name, c)
			}
		}
		seen := map[string]bool{}
		for _, l := range slices.Concat(s.Long, s.Optional, s.Flags) {
			if seen[l] || len(l) < 2 {
				t.Errorf("%s: long name %q listed twice or too short", name, l)
			}
			seen[l] = true
		}
		if s.Strict && (!seen["help"] || !seen["version"]) {
			t.Errorf("%s: a Strict table without --help or --version", name)
		}
	}
}

// TestShortKind: one colon takes a value, two an optional attached one.
func TestShortKind(t *testing.T) {
	s := Spec{Short: "ab:c::"}
	for c, want := range map[byte]Kind{'a': Flag, 'b': Required, 'c': Attached, 'z': Unlisted, ':': Unlisted} {
		if got := s.ShortKind(c); got != want {
			t.Errorf("ShortKind(%q) = %d, want %d", c, got, want)
		}
	}
}
