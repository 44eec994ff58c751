package shellwrites

import (
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/shtext"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

// arg is one argument after brace expansion: its literal value when it has
// one (ok), and its text as written.
type arg struct {
	lit string
	ok  bool
	raw string
}

// opt is one option of a command, its value an arg.
type opt = getopt.Opt[arg]

// Literal is a's value for the option parser: ok false when it is known
// only at run time.
func (a arg) Literal() (string, bool) { return a.lit, a.ok }

// Part is a value attached to a's option (-tDIR, --suffix=.bak): known, and
// written as a is.
func (a arg) Part(value string) arg { return arg{lit: value, ok: true, raw: a.raw} }

// word turns a word into its arguments: brace expansion as bash does it
// (a{b,c} is two), quotes removed. A word with a parameter, command or
// arithmetic expansion has no literal value. It always returns at least one.
func (w *walker) word(word *syntax.Word) []arg {
	if word == nil || len(word.Parts) == 0 {
		return []arg{{ok: true}}
	}
	raw := w.text(word)
	xs := w.job.braces(word)
	w.job.spend(len(xs))
	var out []arg
	for _, x := range xs {
		lit, ok := literal(x.Parts)
		out = append(out, arg{lit: lit, ok: ok, raw: raw})
	}
	return out
}

// text is word as written in the source.
func (w *walker) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// literal is the value of parts with quotes removed, or ok=false when a part
// is only known at run time.
func literal(parts []syntax.WordPart) (string, bool) {
	// ~+ (the directory), ~- (the last one), ~N and ~user are the shell's
	// to expand; only ~ and ~/ (the home directory) are read here.
	if l, ok := parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") {
		if prefix, _, _ := strings.Cut(l.Value, "/"); prefix != "~" && (len(parts) == 1 || strings.Contains(l.Value, "/")) {
			return "", false
		}
	}
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(shtext.Unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(shtext.Unescape(lit.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
