// Package app is tausik's application layer: the workflows a person, CI or
// an agent runs through the command line or the MCP server (starting,
// verifying and closing a task, recording a baseline, explaining a gate,
// showing the effective config…), built on the
// evaluation engine below it. cli and mcp call this package; it calls
// engine, store and the runners, never the other way round.
package app
