package kustbuild

import "testing"

func TestSpecReadsPatchedConfigWithoutGenerating(t *testing.T) {
	cases := []struct {
		overlay, family, mode string
		enabled               bool
		agentPort             int32
	}{
		{"ipv4", "ipv4", "http-connect", true, 8091},
		{"ipv6", "ipv6", "http-connect", true, 8091},
		{"dualstack", "dualstack", "http-connect", true, 8091},
		{"sno", "ipv4", "http-connect", false, 8091},
		{"upi", "ipv4", "http-connect", true, 9091},
	}
	for _, tc := range cases {
		// No bootstrap IP: generating would fail, inspecting must not.
		s, err := Spec(tc.overlay, Options{Getenv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", tc.overlay, err)
		}
		if s == nil {
			t.Fatalf("%s: no KonnectivityBundle config found", tc.overlay)
		}
		if s.IPFamily != tc.family || s.Mode != tc.mode || *s.Enabled != tc.enabled || s.Server.AgentPort != tc.agentPort {
			t.Errorf("%s: got family %s mode %s enabled %v agentPort %d", tc.overlay, s.IPFamily, s.Mode, *s.Enabled, s.Server.AgentPort)
		}
	}
}
