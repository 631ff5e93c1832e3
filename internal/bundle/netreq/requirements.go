// Package netreq derives a bundle's network requirements (which port, which
// direction, from where to where, for how long) from the objects themselves,
// read through internal/bundle/bundlemodel, so a customised port or address is what
// gets reported. Report.Tunnel carries the one flow that crosses the network
// as typed values, for programs that turn it into firewall rules.
package netreq

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// How long a requirement holds.
const (
	bootstrapPhaseOnly = "bootstrap phase only: open it before the agents start, remove it after teardown"
	whileServerRuns    = "while the server runs (bootstrap phase)"
	whileAgentsRun     = "while the agents run (bootstrap phase)"
)

// Scopes of a requirement.
const (
	scopeNetwork = "network" // crosses the network: firewalls and security groups must allow it
	scopeHost    = "host"    // stays on one host (or inside one pod)
)

// Requirement is one flow the bundle needs.
type Requirement struct {
	Purpose  string `json:"purpose"`
	Protocol string `json:"protocol"` // tcp or unix
	Port     int    `json:"port,omitempty"`
	Path     string `json:"path,omitempty"` // unix socket host path
	From     string `json:"from"`
	To       string `json:"to"`
	Scope    string `json:"scope"`
	Duration string `json:"duration"`
	Source   string `json:"source"` // the object and flag it was read from
	Note     string `json:"note,omitempty"`
}

// Report is everything a bundle needs from the network.
type Report struct {
	Bundle       string        `json:"bundle"`
	Enabled      bool          `json:"enabled"`
	Requirements []Requirement `json:"requirements"`
	Warnings     []string      `json:"warnings,omitempty"`
	// Tunnel is the network requirement as typed values; nil when the
	// bundle deploys no tunnel. It is not part of the printed report.
	Tunnel *Tunnel `json:"-"`
}

// Requirements derives the report; label names the bundle in output.
func Requirements(label string, b *bundlemodel.Bundle) (*Report, error) {
	r := &Report{Bundle: label, Requirements: []Requirement{}}
	if b.Server == nil && b.Agent == nil {
		return r, nil
	}
	if b.Server == nil || b.Agent == nil {
		return nil, fmt.Errorf("the bundle has a %s but no %s; it needs the server static pod and the agent DaemonSet", present(b), missing(b))
	}
	r.Enabled = true
	tunnel, err := agentTunnel(b, r)
	if err != nil {
		return nil, err
	}
	local, err := localFlows(b)
	if err != nil {
		return nil, err
	}
	r.Requirements = append([]Requirement{tunnel}, local...)
	return r, nil
}

func present(b *bundlemodel.Bundle) string {
	if b.Server != nil {
		return "server pod"
	}
	return "agent DaemonSet"
}

func missing(b *bundlemodel.Bundle) string {
	if b.Server == nil {
		return "server static pod"
	}
	return "agent DaemonSet"
}

// agentTunnel is the one flow that crosses the network: every agent dials
// the server's agent port on the bootstrap IP.
func agentTunnel(b *bundlemodel.Bundle, r *Report) (Requirement, error) {
	t, err := newTunnel(b)
	if err != nil {
		return Requirement{}, err
	}
	r.Tunnel = &t
	if t.DialPort != t.Port {
		r.Warnings = append(r.Warnings, fmt.Sprintf("agents dial port %d (--proxy-server-port) but the server listens on %d (--agent-port): the tunnel cannot connect until they agree", t.DialPort, t.Port))
	}
	to := "the bootstrap host " + hostOrUnset(t)
	if bind, _ := b.Server.Flags.Lookup("agent-bind-address"); bind != "" && bind != t.Host {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the server binds its agent port to %s (--agent-bind-address) but agents dial %s", bind, t.Host))
	}
	from := "every node the agent DaemonSet runs on (" + nodeScope(b.Agent.Spec) + "), "
	note := "pod traffic leaving a node is normally SNATed to the node's IP, so allow the machine network CIDR"
	if t.HostNetwork {
		from += "node network (hostNetwork)"
		note = "agents use the node's own IP (hostNetwork), so allow the machine network CIDR"
	} else {
		from += "pod network"
	}
	return Requirement{
		Purpose: "agent tunnel (mutual TLS)", Protocol: "tcp", Port: t.Port, From: from, To: to,
		Scope: scopeNetwork, Duration: bootstrapPhaseOnly, Note: note,
		Source: fmt.Sprintf("%s --agent-port; %s --proxy-server-host, --proxy-server-port", b.Server.Object.ID(), b.Agent.Object.ID()),
	}, nil
}

func hostOrUnset(t Tunnel) string {
	switch {
	case t.Host == "":
		return "(--proxy-server-host not set: agents dial 127.0.0.1)"
	case t.Addr.IsValid():
		return t.Addr.String()
	}
	return t.Host
}

// nodeScope describes which nodes the DaemonSet schedules on.
func nodeScope(spec *corev1.PodSpec) string {
	var parts []string
	if len(spec.NodeSelector) > 0 {
		keys := make([]string, 0, len(spec.NodeSelector))
		for k, v := range spec.NodeSelector {
			if v != "" {
				k += "=" + v
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts = append(parts, "nodes labelled "+strings.Join(keys, ","))
	}
	all := false
	for _, t := range spec.Tolerations {
		if t.Operator == corev1.TolerationOpExists && t.Key == "" {
			all = true
		}
	}
	switch {
	case all:
		parts = append(parts, "any taint tolerated")
	case len(spec.Tolerations) > 0:
		parts = append(parts, fmt.Sprintf("%d tolerations", len(spec.Tolerations)))
	default:
		parts = append(parts, "untainted nodes only")
	}
	return strings.Join(parts, "; ")
}
