package nodeverdict

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
)

// TestConfirm: a node whose agent pod is Ready is called connected only
// when the server runs and counts at least as many agents as there are
// ready pods; otherwise every such line, and the summary, say what is
// known instead. Lines of pods that are not ready keep their own cause.
func TestConfirm(t *testing.T) {
	three := []runtime.Object{daemonSet(), node("m0", "10.0.0.11"), node("m1", "10.0.0.12"), node("m2", "10.0.0.13"),
		pod("m0", running(true)), pod("m1", running(true)), pod("m2", running(true))}
	mixed := []runtime.Object{daemonSet(), node("m0", "10.0.0.11"), node("m1", "10.0.0.12"),
		pod("m0", running(true)), pod("m1", waiting("ErrImagePull", "manifest unknown"))}
	cases := []struct {
		name    string
		objs    []runtime.Object
		server  Server
		want    []Cause // per node, in name order
		detail  string  // in every ready pod's line
		fix     string  // in every ready pod's fix; "" = none
		summary Cause   // "" = no summary
		brief   string
	}{
		{name: "the server counts every ready pod", objs: three, server: Server{Agents: 3, Counted: true},
			want:   []Cause{Connected, Connected, Connected},
			detail: "agent pod ready, and the server counts 3 agents for 3 ready pods",
			brief:  "every node's agent is connected (3), and the server counts 3 agents"},
		{name: "the server counts fewer agents than ready pods", objs: three, server: Server{Agents: 1, Counted: true},
			want:    []Cause{NotCounted, NotCounted, NotCounted},
			detail:  "agent pod ready per kubelet, but the server counts 1 agent for 3 ready pods",
			fix:     "--proxy-server-host must be this bootstrap host",
			summary: NotCounted, brief: "not-counted on 3 of 3 node(s) not connected, e.g. m0: agent pod ready per kubelet, but the server counts 1 agent for 3 ready pods"},
		{name: "the server counts none", objs: three, server: Server{Agents: 0, Counted: true},
			want:    []Cause{NotCounted, NotCounted, NotCounted},
			detail:  "the server counts 0 agents for 3 ready pods",
			fix:     "read the agent's log on m",
			summary: NotCounted, brief: "not-counted on 3 of 3"},
		{name: "the server is not running", objs: three, server: Server{Down: "server health: http://127.0.0.1:2041/healthz: connection refused"},
			want:    []Cause{ServerDown, ServerDown, ServerDown},
			detail:  "agent pod ready; the server is not running, so no connection is confirmed (server health: http://127.0.0.1:2041/healthz: connection refused)",
			fix:     "start the server first",
			summary: ServerDown, brief: "server-down on 3 of 3 node(s) not connected, e.g. m0: agent pod ready; the server is not running"},
		{name: "down wins over a stale count", objs: three, server: Server{Down: "socket: missing", Agents: 3, Counted: true},
			want: []Cause{ServerDown, ServerDown, ServerDown}, detail: "the server is not running", fix: "start the server", summary: ServerDown},
		{name: "the server's metrics unreadable", objs: three, server: Server{},
			want:   []Cause{NotCounted, NotCounted, NotCounted},
			detail: "the server's agent count could not be read, so no connection is confirmed", fix: "read the server's metrics",
			summary: NotCounted},
		{name: "one ready, one not: the count covers the ready one", objs: mixed, server: Server{Agents: 1, Counted: true},
			want: []Cause{Connected, ImagePull}, detail: "the server counts 1 agent for 1 ready pod", summary: ImagePull},
		{name: "one ready, one not, server down: the pull still leads on a tie", objs: mixed, server: Server{Down: "socket: missing"},
			want: []Cause{ServerDown, ImagePull}, detail: "no connection is confirmed", fix: "start the server", summary: ImagePull},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := input()
			in.Server = tc.server
			rep := Judge(context.Background(), clientsetReader{fake.NewClientset(tc.objs...)}, in)
			if len(rep.Nodes) != len(tc.want) {
				t.Fatalf("%d lines; want %d: %+v", len(rep.Nodes), len(tc.want), rep.Nodes)
			}
			for i, l := range rep.Nodes {
				if l.Cause != tc.want[i] {
					t.Errorf("%s: cause %s (%s); want %s", l.Node, l.Cause, l.Detail, tc.want[i])
				}
				if l.Cause == ImagePull {
					continue
				}
				if !strings.Contains(l.Detail, tc.detail) {
					t.Errorf("%s: detail %q does not say %q", l.Node, l.Detail, tc.detail)
				}
				if (tc.fix == "") != (l.Fix == "") || !strings.Contains(l.Fix, tc.fix) {
					t.Errorf("%s: fix %q; want one saying %q", l.Node, l.Fix, tc.fix)
				}
				if l.Cause != Connected && strings.Contains(l.String(), "connected to the server") {
					t.Errorf("%s: an unconfirmed line claims a connection: %s", l.Node, l)
				}
			}
			switch {
			case tc.summary == "" && rep.Summary != nil:
				t.Errorf("summary %+v; want none", rep.Summary)
			case tc.summary != "" && (rep.Summary == nil || rep.Summary.Cause != tc.summary):
				t.Errorf("summary %+v; want %s", rep.Summary, tc.summary)
			}
			if !strings.Contains(rep.Brief(), tc.brief) {
				t.Errorf("brief %q does not say %q", rep.Brief(), tc.brief)
			}
		})
	}
}
