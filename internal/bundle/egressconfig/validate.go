package egressconfig

import (
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// names lists the known selection names sorted, as the error shows them.
var names = []string{Cluster, ControlPlane, Etcd}

// Validate returns what kube-apiserver's ValidateEgressSelectorConfiguration
// returns for cfg: the same errors, fields and order. Like it, it checks
// that the TLS files of a TCP transport exist on this host.
func Validate(cfg *Config) field.ErrorList { return ValidateOn(cfg, hostExists) }

// ValidateOn is Validate with the TLS files looked up by exists: probe
// looks for them under --root, as the kube-apiserver's container sees them.
func ValidateOn(cfg *Config, exists func(path string) bool) field.ErrorList {
	v := validator{exists: exists}
	errs := field.ErrorList{}
	if cfg == nil {
		return errs
	}
	conn := field.NewPath("service", "connection") // the KAS's path, without the index
	for _, s := range cfg.EgressSelections {
		errs = append(errs, v.validateConnection(s.Connection, conn)...)
	}
	seen := map[string]bool{}
	for i, s := range cfg.EgressSelections {
		name := strings.ToLower(s.Name)
		switch {
		case seen[name]:
			errs = append(errs, field.Duplicate(conn.Index(i), name))
			continue
		case name != Cluster && name != ControlPlane && name != Etcd:
			errs = append(errs, field.NotSupported(conn, name, names))
		}
		seen[name] = true
	}
	return errs
}

// validator looks TLS files up with exists.
type validator struct{ exists func(string) bool }

func (v validator) validateConnection(c Connection, p *field.Path) field.ErrorList {
	switch c.ProxyProtocol {
	case ProtocolDirect:
		if c.Transport != nil {
			return field.ErrorList{field.Invalid(p.Child("transport"), "direct", "config must be absent for direct connect")}
		}
		return nil
	case ProtocolHTTPConnect:
		return v.validateHTTPConnect(c.Transport, p)
	case ProtocolGRPC:
		switch {
		case c.Transport == nil:
			return field.ErrorList{field.Required(p.Child("transport"), "transport must be set for GRPC")}
		case c.Transport.UDS == nil:
			return field.ErrorList{field.Required(p.Child("uds"), "UDS must be set with GRPC")}
		}
		return v.validateUDS(c.Transport.UDS, p)
	}
	return field.ErrorList{field.NotSupported(p.Child("protocol"), c.ProxyProtocol,
		[]string{string(ProtocolDirect), string(ProtocolHTTPConnect), string(ProtocolGRPC)})}
}

func (v validator) validateHTTPConnect(t *Transport, p *field.Path) field.ErrorList {
	switch {
	case t == nil:
		return field.ErrorList{field.Required(p.Child("transport"), "transport must be set for HTTPConnect")}
	case t.TCP != nil && t.UDS != nil:
		return field.ErrorList{field.Invalid(p.Child("tcp"), asInternal(t.TCP), "TCP and UDS cannot both be set")}
	case t.TCP == nil && t.UDS == nil:
		return field.ErrorList{field.Required(p.Child("tcp"), "One of TCP or UDS must be set")}
	case t.TCP != nil:
		return v.validateTCP(t.TCP, p)
	}
	return v.validateUDS(t.UDS, p)
}

func (v validator) validateUDS(u *UDSTransport, p *field.Path) field.ErrorList {
	if u.UDSName == "" {
		return field.ErrorList{field.Invalid(p.Child("udsName"), "nil", "must be present for UDS connections")}
	}
	return field.ErrorList{}
}

func (v validator) validateTCP(t *TCPTransport, p *field.Path) field.ErrorList {
	switch {
	case strings.HasPrefix(t.URL, "http://"):
		if t.TLSConfig != nil {
			return field.ErrorList{field.Invalid(p.Child("tlsConfig"), "nil", "config must not be present when using HTTP")}
		}
		return field.ErrorList{}
	case strings.HasPrefix(t.URL, "https://"):
		return v.validateTLS(t.TLSConfig, p)
	}
	return field.ErrorList{field.Invalid(p.Child("url"), t.URL, "supported connection protocols are http:// and https://")}
}

func (v validator) validateTLS(c *TLSConfig, p *field.Path) field.ErrorList {
	if c == nil {
		return field.ErrorList{field.Required(p.Child("tlsConfig"), "TLSConfig must be present when using HTTPS")}
	}
	errs := field.ErrorList{}
	tls := p.Child("tlsConfig")
	if c.CABundle != "" && !v.exists(c.CABundle) {
		errs = append(errs, field.Invalid(tls.Child("caBundle"), c.CABundle, "TLS config ca bundle does not exist"))
	}
	errs = append(errs, v.requireFile(tls.Child("clientCert"), c.ClientCert, "Using TLS requires clientCert", "TLS client cert does not exist")...)
	// "requires requires" is the kube-apiserver's own wording.
	errs = append(errs, v.requireFile(tls.Child("clientKey"), c.ClientKey, "Using TLS requires requires clientKey", "TLS client key does not exist")...)
	return errs
}

func (v validator) requireFile(p *field.Path, path, missing, absent string) field.ErrorList {
	switch {
	case path == "":
		return field.ErrorList{field.Invalid(p, "nil", missing)}
	case !v.exists(path):
		return field.ErrorList{field.Invalid(p, path, absent)}
	}
	return nil
}

// hostExists follows links, as the kube-apiserver's check does.
func hostExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// internalTCP is the kube-apiserver's internal TCPTransport, untagged: its
// validator shows a rejected transport as that type's JSON, so the error
// reads the same here as in the kube-apiserver's log.
type internalTCP struct {
	URL       string
	TLSConfig *struct{ CABundle, ClientKey, ClientCert string }
}

func asInternal(t *TCPTransport) internalTCP {
	return internalTCP{URL: t.URL, TLSConfig: (*struct{ CABundle, ClientKey, ClientCert string })(t.TLSConfig)}
}
