package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
)

// termsPolicy evaluates by asking for the input's Rego terms, as a Rego
// policy does.
type termsPolicy struct{}

func (termsPolicy) Eval(_ context.Context, in *Input) (Result, error) {
	_, err := in.regoTerms()
	return Result{}, err
}

// signalling is namespace data that says when it is converted.
type signalling struct{ converted chan struct{} }

func (s signalling) Plain() map[string]any { close(s.converted); return map[string]any{"n": int64(1)} }

// panicking is namespace data whose conversion panics.
type panicking struct{}

func (panicking) Plain() map[string]any { panic("conversion failed") }

// A lazy Rego policy's first evaluation converts the input while it
// compiles: the compiler here waits for the conversion, which would never
// come if it ran only after.
func TestLazyRegoConvertsInputWhileCompiling(t *testing.T) {
	s := signalling{converted: make(chan struct{})}
	doc := facts.NewDocument()
	doc.Set("ns", facts.OK(s))
	l := &lazyPolicy{rego: true, compile: func(context.Context) (Policy, error) {
		select {
		case <-s.converted:
			return termsPolicy{}, nil
		case <-time.After(time.Minute): // a guard against hanging, not a speed limit
			t.Error("the input was not converted while the policy compiled")
			return termsPolicy{}, nil
		}
	}}
	if _, err := evalSafely(context.Background(), l, NewDocumentInput(doc, nil)); err != nil {
		t.Fatal(err)
	}
}

// A conversion that panics on the warming goroutine does not take the
// process down: the evaluation meets the panic itself and reports it.
func TestLazyRegoWarmingPanicIsTheEvaluationsError(t *testing.T) {
	doc := facts.NewDocument()
	doc.Set("ns", facts.OK(panicking{}))
	l := &lazyPolicy{rego: true, compile: func(context.Context) (Policy, error) { return termsPolicy{}, nil }}
	_, err := evalSafely(context.Background(), l, NewDocumentInput(doc, nil))
	if err == nil || !strings.Contains(err.Error(), "conversion failed") {
		t.Fatalf("err = %v, want the conversion's panic", err)
	}
}
