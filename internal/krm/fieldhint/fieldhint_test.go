package fieldhint

import (
	"reflect"
	"testing"
)

type (
	server struct {
		AgentPort int    `json:"agentPort"`
		Image     string `json:"image"`
	}
	agent struct {
		Keepalive string `json:"keepaliveTime"`
	}
	spec struct {
		Agent  agent    `json:"agent"`
		Server server   `json:"server"`
		Items  []server `json:"items"`
	}
	config struct {
		Spec spec `json:"spec"`
	}
)

func TestFor(t *testing.T) {
	root := reflect.TypeFor[config]()
	cases := []struct{ path, want string }{
		{"spec.agnet", `did you mean "agent"?`},
		// The misplaced field: its real paths, not the short near name "agent".
		{"spec.keepaliveTime", "it belongs at spec.agent.keepaliveTime"},
		{"spec.agentPort", "it belongs at spec.items[].agentPort or spec.server.agentPort"},
		{"spec.image", "it belongs at spec.items[].image or spec.server.image"},
		{"spec.server.agentport", `did you mean "agentPort"?`},
		{"spec.items[3].imag", `did you mean "image"?`},
		{"spec.zzzzzzzzzz", "known fields: agent, items, server"},
		{"spec.server.agentPort.x", ""}, // an int has no fields
		{"nosuch.x", ""},
	}
	for _, tc := range cases {
		if got := For(root, tc.path); got != tc.want {
			t.Errorf("For(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"nodeSelecter", "nodeSelector", 1}, {"abc", "", 3}, {"kitten", "sitting", 3}} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
