package cli

import "github.com/tausik/tausik/internal/app"

// AgentMarkerNames are the environment variables that make a run an
// agent's, for tests that must run as a person.
func AgentMarkerNames() []string { return app.AgentMarkers() }
