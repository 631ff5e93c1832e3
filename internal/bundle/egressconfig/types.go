// Package egressconfig reads and validates a kube-apiserver
// EgressSelectorConfiguration by the rules kube-apiserver v1.35 applies
// (k8s.io/apiserver/pkg/server/egressselector, config.go), without linking
// k8s.io/apiserver: its API types pull in component-base's feature gates
// and legacy metrics registry, whose initialisers every konnectivity-bundle
// process (render included) paid at start-up. The tests compare every
// verdict with the upstream loader and validator.
package egressconfig

// Config is a loaded EgressSelectorConfiguration (the same in
// apiserver.k8s.io/v1beta1 and v1alpha1).
type Config struct {
	EgressSelections []Selection `json:"egressSelections"`
}

// Selection is one egress selection: where traffic of one kind goes.
type Selection struct {
	Name       string     `json:"name"`
	Connection Connection `json:"connection"`
}

// Connection is how the kube-apiserver dials for a selection.
type Connection struct {
	ProxyProtocol ProtocolType `json:"proxyProtocol,omitempty"`
	Transport     *Transport   `json:"transport,omitempty"`
}

// ProtocolType is a selection's proxyProtocol.
type ProtocolType string

// The protocols the kube-apiserver knows.
const (
	ProtocolHTTPConnect ProtocolType = "HTTPConnect"
	ProtocolGRPC        ProtocolType = "GRPC"
	ProtocolDirect      ProtocolType = "Direct"
)

// Transport names the proxy server: exactly one of TCP or UDS.
type Transport struct {
	TCP *TCPTransport `json:"tcp,omitempty"`
	UDS *UDSTransport `json:"uds,omitempty"`
}

// TCPTransport is a proxy server reached over TCP.
type TCPTransport struct {
	URL       string     `json:"url,omitempty"`
	TLSConfig *TLSConfig `json:"tlsConfig,omitempty"`
}

// UDSTransport is a proxy server reached over a unix socket.
type UDSTransport struct {
	UDSName string `json:"udsName,omitempty"`
}

// TLSConfig holds the file paths of the kube-apiserver's client identity.
type TLSConfig struct {
	CABundle   string `json:"caBundle,omitempty"`
	ClientKey  string `json:"clientKey,omitempty"`
	ClientCert string `json:"clientCert,omitempty"`
}

// The selection names the kube-apiserver knows, in its error's order.
const (
	Cluster      = "cluster"
	ControlPlane = "controlplane"
	Etcd         = "etcd"
)
