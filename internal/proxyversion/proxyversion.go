// Package proxyversion holds what the apiserver-network-proxy binaries of each supported version
// accept: the flag tables of proxy-server and proxy-agent with each flag's
// kind, default and allowed values (flags.go), how pflag reads a command
// line (parse.go), the limits below, how proxy strategies route
// (strategies.go), and the protection flags the bundle renders where a
// version has them, each with its spec field, default, validation and
// check (protections.go). The generator validates its config against it and the
// checker validates bundles against it, so the two cannot drift apart.
package proxyversion

import (
	"net/url"
	"slices"
	"sort"
	"time"
)

// Ports outside this range are refused by proxy-server and proxy-agent
// (reserved and ephemeral ports).
const (
	minPort = 1024
	maxPort = 49151
)

// PortInRange reports whether the binaries accept p.
func PortInRange(p int64) bool { return p >= minPort && p <= maxPort }

// MinAgentKeepalive is the keepalive the server's gRPC enforcement policy
// requires of agents; a shorter one gets them disconnected.
const MinAgentKeepalive = 30 * time.Second

// AgentDialTimeout is how long proxy-agent v0.36.0 waits for its own TCP
// dial to a target (pkg/agent/client.go dialTimeout, not a flag) before it
// answers the server's DIAL_REQ with the error.
const AgentDialTimeout = 5 * time.Second

// maxWebhookTimeout is the longest timeoutSeconds the kube-apiserver allows
// a webhook (admissionregistration validation): a server dial timeout above
// it never fires before every caller has given up.
const maxWebhookTimeout = 30 * time.Second

// TLS versions for --tls-min-version. Below TLS 1.2 proxy-server warns
// (RFC 8996 deprecates TLS 1.0 and 1.1); an empty value means TLS 1.2.
var (
	tlsVersions       = []string{"VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"}
	secureTLSVersions = []string{"VersionTLS12", "VersionTLS13"}
)

// ProxyStrategies are the values of --proxy-strategies (case matters).
var ProxyStrategies = []string{"default", "destHost", "defaultRoute"}

// IsProxyStrategy reports whether s is a known strategy.
func IsProxyStrategy(s string) bool { return slices.Contains(ProxyStrategies, s) }

// IdentifierKeys are the --agent-identifiers keys proxy-agent accepts.
var IdentifierKeys = []string{"ipv4", "ipv6", "cidr", "host", "default-route"}

// ParseIdentifiers reads --agent-identifiers (URL-query form) and returns
// its keys sorted, and those proxy-agent does not know. A comma-joined list,
// an easy mistake, is not URL-query form and is an error.
func ParseIdentifiers(raw string) (q url.Values, unknown []string, err error) {
	if q, err = url.ParseQuery(raw); err != nil {
		return nil, nil, err
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(IdentifierKeys, k) {
			unknown = append(unknown, k)
		}
	}
	return q, unknown, nil
}
