// Package app is tausik's application layer: the workflows a person, CI or
// an agent runs through the command line or the MCP server (recording a
// baseline, explaining a gate, showing the effective config…; the task
// workflows are in taskflow), built on the
// evaluation engine below it. cli and mcp call this package; it calls
// engine, store and the runners, never the other way round.
package app
