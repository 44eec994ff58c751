package engine

// FingerprintOf names violation v of gate exactly as the baseline does
// (gate, rule, file, and the policy's key or the message without its
// numbers), so that other outputs can track a finding across commits by
// the same identity the baseline holds it by.
func FingerprintOf(gate string, v Violation) Fingerprint { return fingerprintOf(gate, v) }
