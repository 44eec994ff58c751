package shellwrites

import "strings"

// opt is one option as a command reads it: its name ("t", "target-directory")
// and its value, if it takes one.
type opt struct {
	name  string
	value arg
}

// spec says which options of a command take a value: short is getopt's
// string ("t:S:" — a colon after a letter that takes one), long lists long
// names that take one. Options not listed are flags.
type spec struct {
	short string
	long  []string
	// stopAtOperand: options end at the first operand (POSIX; a wrapper's
	// command starts there). GNU tools otherwise permute.
	stopAtOperand bool
}

func (s spec) shortTakes(c byte) bool {
	i := strings.IndexByte(s.short, c)
	return i >= 0 && i+1 < len(s.short) && s.short[i+1] == ':'
}

// parse splits args (the command's name excluded) into options and operands,
// as getopt_long does: "--" ends options, "-" is an operand, a bundle like
// -ft DIR or -tDIR is read letter by letter. An argument known only at run
// time is an operand.
func (s spec) parse(args []arg) (opts []opt, operands []arg) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok || a.lit == "-" || !strings.HasPrefix(a.lit, "-"):
			operands = append(operands, a)
			if s.stopAtOperand {
				return opts, append(operands, args[i+1:]...)
			}
		case a.lit == "--":
			return opts, append(operands, args[i+1:]...)
		case strings.HasPrefix(a.lit, "--"):
			name, value, has := strings.Cut(a.lit[2:], "=")
			o := opt{name: name}
			if has {
				o.value = arg{lit: value, ok: true, raw: a.raw}
			} else if contains(s.long, name) && i+1 < len(args) {
				i++
				o.value = args[i]
			}
			opts = append(opts, o)
		default:
			bundle := a.lit[1:]
			for j := 0; j < len(bundle); j++ {
				o := opt{name: bundle[j : j+1]}
				if s.shortTakes(bundle[j]) {
					if j+1 < len(bundle) {
						o.value = arg{lit: bundle[j+1:], ok: true, raw: a.raw}
					} else if i+1 < len(args) {
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
	return opts, operands
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
