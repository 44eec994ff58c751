// Package gate is the gate model below the evaluation core: a gate bundle's
// gate.yaml (Meta: triggers, severity, facts, params), loading a directory of
// bundles into Gates with their compiled (or lazily compiled) policies and
// fixtures, and scaffolding a new team bundle. It reads policies through
// package policy and knows nothing of configuration tiers or decisions.
package gate
