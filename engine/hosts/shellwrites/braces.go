package shellwrites

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds brace expansion; a word that would expand to more is
// kept as written (its directory part still decides where it lands).
const maxBraceWords = 256

// braces expands a word's brace expressions as bash does ({a,b} lists and
// {1..3} integer or letter sequences) into the words it stands for.
func braces(word *syntax.Word) []*syntax.Word {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{word}
	}
	out := expandParts(cp.Parts)
	if out == nil {
		return []*syntax.Word{word}
	}
	words := make([]*syntax.Word, len(out))
	for i, parts := range out {
		words[i] = &syntax.Word{Parts: parts}
	}
	return words
}

// expandParts returns every part list parts stands for, or nil when there
// would be more than maxBraceWords.
func expandParts(parts []syntax.WordPart) [][]syntax.WordPart {
	for i, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		elems := braceElems(br)
		rest := expandParts(parts[i+1:])
		if elems == nil || rest == nil || len(elems)*len(rest) > maxBraceWords {
			return nil
		}
		var out [][]syntax.WordPart
		for _, e := range elems {
			for _, inner := range expandParts(e) {
				for _, r := range rest {
					out = append(out, concat(parts[:i], inner, r))
				}
				if len(out) > maxBraceWords {
					return nil
				}
			}
		}
		return out
	}
	return [][]syntax.WordPart{parts}
}

func concat(a, b, c []syntax.WordPart) []syntax.WordPart {
	out := make([]syntax.WordPart, 0, len(a)+len(b)+len(c))
	return append(append(append(out, a...), b...), c...)
}

// braceElems lists the alternatives of one brace expression.
func braceElems(br *syntax.BraceExp) [][]syntax.WordPart {
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
	if lo > hi {
		step = -1
	}
	var out [][]syntax.WordPart
	for n := lo; ; n += step {
		v := strconv.Itoa(n)
		if chars {
			v = string(rune(n))
		}
		out = append(out, []syntax.WordPart{&syntax.Lit{Value: v}})
		if n == hi || len(out) > maxBraceWords {
			break
		}
	}
	if len(out) > maxBraceWords {
		return nil
	}
	return out
}
