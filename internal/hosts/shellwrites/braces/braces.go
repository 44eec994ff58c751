// Package braces expands bash's brace expressions ({a,b}, {1..9..2},
// {a..e}) in words of mvdan.cc/sh's syntax tree, as bash does before a
// command runs, within a bound on the words one expansion yields: the
// shell analysis judges each word a command will really see.
package braces

import (
	"errors"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// ErrTooMany is an expansion past its bound.
var ErrTooMany = errors.New("the brace expansion yields too many words")

// Expand expands a word's brace expressions as bash does ({a,b} lists and
// {1..3} integer or letter sequences) into the words it stands for. Past
// limit words it returns ErrTooMany, never a partial list: a word kept as
// written would name a path that is never written. step is called once per
// unit of work: the caller's clock.
func Expand(word *syntax.Word, limit int, step func()) ([]*syntax.Word, error) {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{word}, nil
	}
	x := expander{limit: limit, step: step}
	out, err := x.parts(cp.Parts)
	if err != nil {
		return nil, err
	}
	words := make([]*syntax.Word, len(out))
	for i, parts := range out {
		words[i] = &syntax.Word{Parts: parts}
	}
	return words, nil
}

// expander is one expansion: its bound and its caller's step.
type expander struct {
	limit int
	step  func()
}

// parts returns every part list parts stands for.
func (x expander) parts(parts []syntax.WordPart) ([][]syntax.WordPart, error) {
	x.step()
	for i, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		elems, err := x.elems(br)
		if err != nil {
			return nil, err
		}
		if elems == nil { // not a valid sequence: bash keeps it as written
			elems = [][]syntax.WordPart{{&syntax.Lit{Value: braceText(br)}}}
		}
		rest, err := x.parts(parts[i+1:])
		if err != nil {
			return nil, err
		}
		if len(elems)*len(rest) > x.limit {
			return nil, ErrTooMany
		}
		var out [][]syntax.WordPart
		for _, e := range elems {
			inners, err := x.parts(e)
			if err != nil {
				return nil, err
			}
			for _, inner := range inners {
				if len(out)+len(rest) > x.limit {
					return nil, ErrTooMany
				}
				for _, r := range rest {
					out = append(out, concat(parts[:i], inner, r))
				}
			}
		}
		return out, nil
	}
	return [][]syntax.WordPart{parts}, nil
}

// braceText is an invalid sequence as written ({a..zz}).
func braceText(br *syntax.BraceExp) string {
	s := "{"
	for i, e := range br.Elems {
		if i > 0 {
			s += ".."
		}
		s += e.Lit()
	}
	return s + "}"
}

func concat(a, b, c []syntax.WordPart) []syntax.WordPart {
	out := make([]syntax.WordPart, 0, len(a)+len(b)+len(c))
	return append(append(append(out, a...), b...), c...)
}

// elems lists the alternatives of one brace expression, nil for a
// sequence bash does not expand.
func (x expander) elems(br *syntax.BraceExp) ([][]syntax.WordPart, error) {
	if !br.Sequence {
		out := make([][]syntax.WordPart, len(br.Elems))
		for i, e := range br.Elems {
			out[i] = e.Parts
		}
		return out, nil
	}
	if len(br.Elems) < 2 {
		return nil, nil
	}
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	lo, err1 := strconv.Atoi(from)
	hi, err2 := strconv.Atoi(to)
	chars := err1 != nil || err2 != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil, nil
		}
		lo, hi = int(from[0]), int(to[0])
	}
	step := 1
	if len(br.Elems) > 2 {
		if n, err := strconv.Atoi(br.Elems[2].Lit()); err == nil && n != 0 {
			step = min(max(n, -n), 1<<32)
		}
	}
	if lo > hi {
		step = -step
	}
	if (hi-lo)/step >= x.limit || (hi-lo)/step < 0 {
		return nil, ErrTooMany
	}
	var out [][]syntax.WordPart
	for n := lo; (step > 0 && n <= hi) || (step < 0 && n >= hi); n += step {
		v := strconv.Itoa(n)
		if chars {
			v = string(rune(n))
		}
		if width := max(len(from), len(to)); !chars && (from[0] == '0' || to[0] == '0' || (from[0] == '-' && len(from) > 1 && from[1] == '0')) && len(v) < width {
			v = zeroPad(n, width)
		}
		out = append(out, []syntax.WordPart{&syntax.Lit{Value: v}})
		if len(out) > x.limit || n+step < n != (step < 0) { // past the bound, or the step overflows
			break
		}
	}
	if len(out) > x.limit {
		return nil, ErrTooMany
	}
	return out, nil
}

// zeroPad writes n in width characters with leading zeros, as bash pads
// {01..10}.
func zeroPad(n, width int) string {
	neg := n < 0
	if neg {
		n = -n
		width--
	}
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	if neg {
		s = "-" + s
	}
	return s
}
