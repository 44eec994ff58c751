package shellwrites

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// braces expands a word's brace expressions as bash does ({a,b} lists and
// {1..3} integer or letter sequences) into the words it stands for. Past
// maxBraceWords the whole analysis stops (a bound): a word kept as written
// would name a path that is never written.
func (j *job) braces(word *syntax.Word) []*syntax.Word {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{word}
	}
	out := j.expandParts(cp.Parts)
	words := make([]*syntax.Word, len(out))
	for i, parts := range out {
		words[i] = &syntax.Word{Parts: parts}
	}
	return words
}

// expandParts returns every part list parts stands for.
func (j *job) expandParts(parts []syntax.WordPart) [][]syntax.WordPart {
	j.step()
	for i, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		elems := j.braceElems(br)
		if elems == nil { // not a valid sequence: bash keeps it as written
			elems = [][]syntax.WordPart{{&syntax.Lit{Value: braceText(br)}}}
		}
		rest := j.expandParts(parts[i+1:])
		if len(elems)*len(rest) > maxBraceWords {
			panic(bound(reasonBrace))
		}
		var out [][]syntax.WordPart
		for _, e := range elems {
			for _, inner := range j.expandParts(e) {
				if len(out)+len(rest) > maxBraceWords {
					panic(bound(reasonBrace))
				}
				for _, r := range rest {
					out = append(out, concat(parts[:i], inner, r))
				}
			}
		}
		return out
	}
	return [][]syntax.WordPart{parts}
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

// braceElems lists the alternatives of one brace expression, nil for a
// sequence bash does not expand.
func (j *job) braceElems(br *syntax.BraceExp) [][]syntax.WordPart {
	if !br.Sequence {
		out := make([][]syntax.WordPart, len(br.Elems))
		for i, e := range br.Elems {
			out[i] = e.Parts
		}
		return out
	}
	if len(br.Elems) < 2 {
		return nil
	}
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	lo, err1 := strconv.Atoi(from)
	hi, err2 := strconv.Atoi(to)
	chars := err1 != nil || err2 != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil
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
	if (hi-lo)/step >= maxBraceWords || (hi-lo)/step < 0 {
		panic(bound(reasonBrace))
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
		if len(out) > maxBraceWords || n+step < n != (step < 0) { // past the bound, or the step overflows
			break
		}
	}
	if len(out) > maxBraceWords {
		panic(bound(reasonBrace))
	}
	return out
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
