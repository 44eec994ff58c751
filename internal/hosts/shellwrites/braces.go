package shellwrites

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/tausik/tausik/internal/hosts/shellwrites/braces"
)

// braces expands a word's brace expressions into the words it stands for.
// Past maxBraceWords the whole analysis stops (a bound).
func (j *job) braces(word *syntax.Word) []*syntax.Word {
	words, err := braces.Expand(word, maxBraceWords, j.step)
	if err != nil {
		panic(bound(reasonBrace))
	}
	return words
}
