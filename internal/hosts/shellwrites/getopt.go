package shellwrites

import "strings"

// opt is one option as a command reads it: its name ("t", "target-directory")
// and its value, if it takes one.
type opt struct {
	name  string
	value arg
}

// spec says which options of a command take a value: short is getopt's
// string ("t:S:i::" — one colon after a letter that takes a value, two when
// the value is optional and only attached), long lists the long names that
// take a value, optional those whose value is only given with "=", flags
// those that take none.
type spec struct {
	short    string
	long     []string
	optional []string
	flags    []string
	// stopAtOperand: options end at the first operand (POSIX; a wrapper's
	// command starts there). GNU tools otherwise permute.
	stopAtOperand bool
	// strict: every option the command accepts is listed, so one that is not
	// (or an abbreviation matching several) is reported as unmodelled.
	strict bool
}

// shortKind is 0 for a flag, 1 for a letter that takes a value, 2 for an
// optional attached value, -1 for a letter the spec does not list.
func (s spec) shortKind(c byte) int {
	i := strings.IndexByte(s.short, c)
	if i < 0 || c == ':' {
		return -1
	}
	switch {
	case strings.HasPrefix(s.short[i+1:], "::"):
		return 2
	case strings.HasPrefix(s.short[i+1:], ":"):
		return 1
	}
	return 0
}

// longName resolves a long option as getopt_long does: an exact name, or a
// prefix of exactly one name. ok is false for an unknown or ambiguous one;
// then name is what was written.
func (s spec) longName(written string) (name string, ok bool) {
	var match string
	n := 0
	for _, list := range [][]string{s.long, s.optional, s.flags} {
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

// parse splits args (the command's name excluded) into options and operands,
// as getopt_long does: "--" ends options, "-" is an operand, a bundle like
// -ft DIR or -tDIR is read letter by letter, a long option may be
// abbreviated to a unique prefix. An argument known only at run time is an
// operand.
func (s spec) parse(args []arg) (opts []opt, operands []arg) {
	opts, operands, _ = s.parseStrict(args)
	return opts, operands
}

// parseStrict is parse that also returns the first option a strict spec
// does not model ("" when there is none).
func (s spec) parseStrict(args []arg) (opts []opt, operands []arg, bad string) {
	note := func(o string) {
		if s.strict && bad == "" {
			bad = o
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok || a.lit == "-" || !strings.HasPrefix(a.lit, "-"):
			operands = append(operands, a)
			if s.stopAtOperand {
				return opts, append(operands, args[i+1:]...), bad
			}
		case a.lit == "--":
			return opts, append(operands, args[i+1:]...), bad
		case strings.HasPrefix(a.lit, "--"):
			written, value, hasValue := strings.Cut(a.lit[2:], "=")
			name, ok := s.longName(written)
			if !ok {
				note("--" + written)
			}
			o := opt{name: name}
			switch {
			case hasValue:
				o.value = arg{lit: value, ok: true, raw: a.raw}
			case contains(s.long, name) && i+1 < len(args):
				i++
				o.value = args[i]
			}
			opts = append(opts, o)
		default:
			bundle := a.lit[1:]
			for j := 0; j < len(bundle); j++ {
				o := opt{name: bundle[j : j+1]}
				kind := s.shortKind(bundle[j])
				if kind < 0 {
					note("-" + o.name)
				}
				if kind == 1 || kind == 2 {
					if j+1 < len(bundle) {
						o.value = arg{lit: bundle[j+1:], ok: true, raw: a.raw}
					} else if kind == 1 && i+1 < len(args) {
						i++
						o.value = args[i]
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// has reports whether any of names was given.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		if contains(names, o.name) {
			return true
		}
	}
	return false
}

// value is the last value given to any of names.
func value(opts []opt, names ...string) (arg, bool) {
	var v arg
	found := false
	for _, o := range opts {
		if contains(names, o.name) {
			v, found = o.value, true
		}
	}
	return v, found
}

// values are all the values given to any of names, in order.
func values(opts []opt, names ...string) []arg {
	var out []arg
	for _, o := range opts {
		if contains(names, o.name) {
			out = append(out, o.value)
		}
	}
	return out
}
