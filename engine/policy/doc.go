// Package policy is the policy runtime below the evaluation core: it compiles
// a gate's Rego or CEL policy once per process, builds the input a policy
// reads (the facts document, converted to Rego terms at most once per
// namespace, plus params), evaluates it under the limits of its trigger
// (deadline, heap budget, CEL cost), and checks the shape of what it returns
// (violations, not-applicable and could-not-run reasons). It knows nothing of
// gate bundles, configuration or the decision log; package engine calls it.
package policy
