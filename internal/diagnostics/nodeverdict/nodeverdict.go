// Package nodeverdict names, for each node that should run a Konnectivity
// agent, why its agent is not connected, read through the bootstrap
// kube-apiserver alone (no pod logs, exec or port-forward, which need the
// tunnel): the agent DaemonSet, its pods with their container states, the
// namespace's events and the nodes, plus the handshakes the server's log
// shows it refused. Each line carries its fix; the summary is the cause
// most nodes share. When the node side cannot be read (no kubeconfig, a
// missing permission, an unreachable kube-apiserver) the report says so and
// why, and names no cause: it never guesses.
package nodeverdict

import (
	"context"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// Cause is why one node's agent is not connected, or that it is.
type Cause string

// The causes, in the order they are looked for on a node.
const (
	NoDaemonSet       Cause = "daemonset-missing"   // the agent DaemonSet is not in the cluster yet
	NotSelected       Cause = "node-not-selected"   // the DaemonSet's nodeSelector leaves the node out
	TaintNotTolerated Cause = "taint-not-tolerated" // a taint the agent does not tolerate
	NodeNotReady      Cause = "node-not-ready"      // the node's kubelet does not report Ready
	NoPod             Cause = "no-pod"              // the DaemonSet made no pod for the node
	NotScheduled      Cause = "not-scheduled"       // the pod exists, the scheduler refuses the node
	ImagePull         Cause = "image-pull"          // the agent image cannot be pulled
	SecretMissing     Cause = "secret-missing"      // the agent's Secret cannot be mounted
	ConfigError       Cause = "config-error"        // CreateContainerConfigError
	CrashLoop         Cause = "crash-loop"          // the agent exits and is restarted
	PodNotRunning     Cause = "pod-not-running"     // any other waiting or ended state
	NotReady          Cause = "not-ready"           // running, not ready yet
	HandshakeRefused  Cause = "handshake-refused"   // the server refused the node's TLS handshake
	PortBlocked       Cause = "port-blocked"        // running, never ready, no attempt reached the server
	ServerDown        Cause = "server-down"         // the pod is ready, the server is not running: nothing is confirmed
	NotCounted        Cause = "not-counted"         // the pod is ready, the server counts fewer agents than ready pods
	Connected         Cause = "connected"           // the pod is ready and the server counts its agent
)

// Line is the verdict on one node.
type Line struct {
	Node    string `json:"node"`
	Address string `json:"address,omitempty"` // the node's address the agent dials from
	Pod     string `json:"pod,omitempty"`
	Cause   Cause  `json:"cause"`
	Detail  string `json:"detail"`
	Fix     string `json:"fix,omitempty"`
}

// Report is the node side: one line per node, and the cause most share.
type Report struct {
	// Seen is false when the node side could not be read; Unseen says why
	// (the missing verb and resource, no kubeconfig, the API error).
	Seen   bool   `json:"seen"`
	Unseen string `json:"unseen,omitempty"`
	// Summary is the cause shared by most nodes whose agent is not
	// connected, with the count and the first such node's fix.
	Summary *Summary `json:"summary,omitempty"`
	Nodes   []Line   `json:"nodes,omitempty"`
	// agents is the server's own count the lines were confirmed against,
	// for Brief.
	agents int
}

// Summary is the cause shared by most nodes that are not connected.
type Summary struct {
	Cause  Cause  `json:"cause"`
	Nodes  int    `json:"nodes"`  // how many nodes have it
	Of     int    `json:"of"`     // of how many not connected
	Detail string `json:"detail"` // the first such node's line
	Fix    string `json:"fix"`
}

// Input says where the agents are and what the server saw.
type Input struct {
	Namespace, DaemonSet string // the agent DaemonSet, from the rendered bundle
	// Tunnel is where agents dial, as the bundle model read it; Port is
	// the server's --agent-port.
	Tunnel bundlemodel.Tunnel
	Port   int
	// Refused are the handshakes the server's log shows it refused;
	// LogRead says whether that log was read at all (without it, "no
	// attempt reached the server" cannot be said).
	Refused []Handshake
	LogRead bool
	// Grace is how long a running agent may stay not ready before its
	// node's port is suspected; 0 = 30s.
	Grace time.Duration
	Now   time.Time // zero = time.Now()
	// Root is the rendered host root, for the `ports` command in a fix;
	// "" = /.
	Root string
	// Server is the server's own view of its agents. A pod's Ready bit is
	// the kubelet's: it can be stale, or belong to another server, so a
	// line says connected only when the server agrees (confirm.go).
	Server Server
}

// Server is what the proxy-server itself says about its agents.
type Server struct {
	// Down says why the server is not running (its socket or /healthz);
	// "" when it answers.
	Down string
	// Agents is how many agents the server counts (its metrics); Counted
	// is false when they could not be read.
	Agents  int
	Counted bool
}

func (in *Input) root() string {
	if in.Root == "" {
		return "/"
	}
	return in.Root
}

// Unseeable is the report when there is no client: it names why.
func Unseeable(why string) *Report {
	return &Report{Unseen: "cannot see the node side: " + why}
}

// Judge reads the cluster read-only and gives one line per node.
func Judge(ctx context.Context, c Reader, in Input) *Report {
	if in.Grace <= 0 {
		in.Grace = 30 * time.Second
	}
	if in.Now.IsZero() {
		in.Now = time.Now()
	}
	st, err := read(ctx, c, in)
	if err != nil {
		return Unseeable(err.Error())
	}
	rep := &Report{Seen: true}
	for i := range st.nodes {
		rep.Nodes = append(rep.Nodes, st.judge(&st.nodes[i]))
	}
	rep.agents = confirm(rep.Nodes, in.Server)
	rep.Summary = summarize(rep.Nodes)
	return rep
}
