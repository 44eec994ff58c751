package cli

// AgentMarkerNames are the environment variables that make a run an
// agent's, for tests that must run as a person.
func AgentMarkerNames() []string {
	out := make([]string, len(agentMarkers))
	for i, m := range agentMarkers {
		out[i] = m.env
	}
	return out
}
