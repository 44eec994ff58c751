// Package getopt splits a command's arguments into options and operands as
// the command itself reads them (getopt_long: clustered short letters, a
// value attached or in the next argument, long names abbreviated to a unique
// prefix, "--"), given a Spec of which options take a value, and holds the
// Specs of the programs the shell analysis reads. It sees only arguments:
// what an option means is the caller's.
package getopt

import (
	"slices"
	"strings"
)

// Arg is what Parse needs of an argument of type A.
type Arg[A any] interface {
	// Literal is the argument's value; ok is false when it is known only
	// at run time (then it is read as an operand).
	Literal() (value string, ok bool)
	// Part is the argument a value attached to this one stands for: DIR in
	// -tDIR or --target-directory=DIR.
	Part(value string) A
}

// Opt is one option as a command reads it: its name ("t",
// "target-directory") and its value, if it takes one (the zero A if not).
type Opt[A any] struct {
	Name  string
	Value A
}

// Spec says which options of a command take a value: Short is getopt's
// string ("t:S:i::" — one colon after a letter that takes a value, two when
// the value is optional and only attached), Long lists the long names that
// take a value, Optional those whose value is only given with "=", Flags
// those that take none.
type Spec struct {
	Short    string
	Long     []string
	Optional []string
	Flags    []string
	// StopAtOperand: options end at the first operand (POSIX; a wrapper's
	// command starts there). GNU tools otherwise permute.
	StopAtOperand bool
	// Strict: every option the command accepts is listed, so one that is
	// not (or an abbreviation matching several) is reported as unmodelled.
	Strict bool
}

// Kind is how a short option takes a value.
type Kind int

// The kinds of short option.
const (
	Unlisted Kind = iota - 1 // a letter the Spec does not list
	Flag                     // takes no value
	Required                 // takes a value: the rest of its argument, or the next one
	Attached                 // takes an optional value, only the rest of its argument
)

// ShortKind is how the short option c takes a value.
func (s Spec) ShortKind(c byte) Kind {
	i := strings.IndexByte(s.Short, c)
	if i < 0 || c == ':' {
		return Unlisted
	}
	switch {
	case strings.HasPrefix(s.Short[i+1:], "::"):
		return Attached
	case strings.HasPrefix(s.Short[i+1:], ":"):
		return Required
	}
	return Flag
}

// longName resolves a long option as getopt_long does: an exact name, or a
// prefix of exactly one name. ok is false for an unknown or ambiguous one;
// then name is what was written.
func (s Spec) longName(written string) (name string, ok bool) {
	var match string
	n := 0
	for _, list := range [][]string{s.Long, s.Optional, s.Flags} {
		for _, l := range list {
			if l == written {
				return l, true
			}
			if strings.HasPrefix(l, written) && l != match {
				match = l
				n++
			}
		}
	}
	if n == 1 {
		return match, true
	}
	return written, false
}

// Parse splits args (the command's name excluded) into options and
// operands, as getopt_long does: "--" ends options, "-" is an operand, a
// bundle like -ft DIR or -tDIR is read letter by letter, a long option may
// be abbreviated to a unique prefix. An argument known only at run time is
// an operand.
func Parse[A Arg[A]](s Spec, args []A) (opts []Opt[A], operands []A) {
	opts, operands, _ = ParseStrict(s, args)
	return opts, operands
}

// ParseStrict is Parse that also returns the first option a Strict spec
// does not model ("" when there is none, and always for a spec that is not
// Strict).
func ParseStrict[A Arg[A]](s Spec, args []A) (opts []Opt[A], operands []A, bad string) {
	note := func(o string) {
		if s.Strict && bad == "" {
			bad = o
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		lit, ok := a.Literal()
		switch {
		case !ok || lit == "-" || !strings.HasPrefix(lit, "-"):
			operands = append(operands, a)
			if s.StopAtOperand {
				return opts, append(operands, args[i+1:]...), bad
			}
		case lit == "--":
			return opts, append(operands, args[i+1:]...), bad
		case strings.HasPrefix(lit, "--"):
			written, value, hasValue := strings.Cut(lit[2:], "=")
			name, ok := s.longName(written)
			if !ok {
				note("--" + written)
			}
			o := Opt[A]{Name: name}
			switch {
			case hasValue:
				o.Value = a.Part(value)
			case slices.Contains(s.Long, name) && i+1 < len(args):
				i++
				o.Value = args[i]
			}
			opts = append(opts, o)
		default:
			bundle := lit[1:]
			for j := 0; j < len(bundle); j++ {
				o := Opt[A]{Name: bundle[j : j+1]}
				kind := s.ShortKind(bundle[j])
				if kind == Unlisted {
					note("-" + o.Name)
				}
				if kind == Required || kind == Attached {
					if j+1 < len(bundle) {
						o.Value = a.Part(bundle[j+1:])
					} else if kind == Required && i+1 < len(args) {
						i++
						o.Value = args[i]
					}
					opts = append(opts, o)
					break
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, operands, bad
}

// Has reports whether any of names was given.
func Has[A any](opts []Opt[A], names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.Name) {
			return true
		}
	}
	return false
}

// Value is the last value given to any of names; found is false when none
// of them was given.
func Value[A any](opts []Opt[A], names ...string) (v A, found bool) {
	for _, o := range opts {
		if slices.Contains(names, o.Name) {
			v, found = o.Value, true
		}
	}
	return v, found
}

// Values are all the values given to any of names, in order.
func Values[A any](opts []Opt[A], names ...string) []A {
	var out []A
	for _, o := range opts {
		if slices.Contains(names, o.Name) {
			out = append(out, o.Value)
		}
	}
	return out
}
