package toolcall

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"sync"

	"github.com/tausik/tausik/facts"
)

// secretMasker masks every match of the secret_scan detectors in force.
type secretMasker struct {
	res []*regexp.Regexp
	bad string // a detector that does not compile: nothing is recorded
}

// masker returns the masker of detectors, the secret_scan gate's resolved
// detectors param (name → regular expression).
func masker(ds map[string]any) secretMasker {
	names := make([]string, 0, len(ds))
	for n := range ds {
		names = append(names, n)
	}
	sort.Strings(names)
	var m secretMasker
	for _, n := range names {
		s, _ := ds[n].(string)
		re, err := compiled(s)
		if err != nil {
			m.bad = n
			return m
		}
		m.res = append(m.res, re)
	}
	return m
}

// detectorRes holds the detectors compiled so far, by source: a resident
// evaluator masks every call with the same few.
var detectorRes sync.Map

// compiled is the regular expression s, compiled once per process.
func compiled(s string) (*regexp.Regexp, error) {
	if re, ok := detectorRes.Load(s); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(s)
	if err == nil {
		detectorRes.Store(s, re)
	}
	return re, err
}

// mask replaces each match in s with its first four characters and its
// length, as secret_scan's messages show it.
func (m secretMasker) mask(s string) string {
	if m.bad != "" {
		return fmt.Sprintf("[not recorded: the secret_scan detector %s does not compile]", m.bad)
	}
	for _, re := range m.res {
		s = re.ReplaceAllStringFunc(s, func(x string) string {
			r := []rune(x)
			return fmt.Sprintf("%s…[secret, %d characters]", string(r[:min(4, len(r))]), len(r))
		})
	}
	return s
}

func (m secretMasker) all(xs []string) []string {
	out := slices.Clone(xs)
	for i, x := range out {
		out[i] = m.mask(x)
	}
	return out
}

// Redacted is c as a decision records it, every secret detectors (the
// secret_scan gate's resolved detectors param; nil: none) find masked
// before the command is cut to its recorded length.
func Redacted(c *Call, detectors map[string]any) *Record {
	if c == nil {
		return nil
	}
	m := masker(detectors)
	cp := *c
	cp.Command = m.mask(c.Command)
	cp.Writes = m.all(c.Writes)
	if len(c.Unknown) > 0 {
		cp.Unknown = make([]facts.UnknownWrite, len(c.Unknown))
		for i, u := range c.Unknown {
			cp.Unknown[i] = facts.UnknownWrite{Text: m.mask(u.Text), Reason: u.Reason}
		}
	}
	return cp.record()
}
