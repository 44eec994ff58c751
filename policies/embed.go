// Package policies embeds tausik's built-in gate bundles, one directory per
// gate (docs/writing-gates.md), so the binary judges a repository with no
// files of its own.
package policies

import "embed"

// FS holds the bundles. Non-directory entries at its root (this file) are
// not bundles and are skipped by the loader.
//
//go:embed all:*
var FS embed.FS
