package bundlemodel

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Which agents a strategy's backend manager can route to is proxy-server's
// rule (proxyversion, strategies.go); the identifiers' address values are
// read here, through bootstrapip, the one parser of an address.

// Serves reports whether agents advertising the parsed identifiers q can be
// routed to by strategy. Unknown strategies serve nothing.
func Serves(strategy string, q url.Values) bool {
	switch strategy {
	case "default":
		return true
	case "destHost":
		for _, k := range proxyversion.AddressKeys {
			for _, v := range q[k] {
				if IdentifierValueProblem(k, v) == "" {
					return true
				}
			}
		}
	case "defaultRoute":
		if vs := q["default-route"]; len(vs) > 0 {
			b, err := strconv.ParseBool(vs[0])
			return err == nil && b
		}
	}
	return false
}

// Unserved returns, in order, the strategies no agent with identifiers q serves.
func Unserved(strategies []string, q url.Values) []string {
	var out []string
	for _, s := range strategies {
		if !Serves(s, q) {
			out = append(out, s)
		}
	}
	return out
}

// IdentifierValueProblem says why the server can never match value v of
// identifier key, or "" when it can. The usual cause is a comma where '&'
// separates identifiers: proxy-agent starts anyway.
func IdentifierValueProblem(key, v string) string {
	if strings.Contains(v, ",") {
		return "contains a comma; identifiers are separated by '&'"
	}
	switch key {
	case "ipv4":
		if ip, ok := bootstrapip.ParseAddr(v); !ok || !ip.Is4() {
			return "is not an IPv4 address"
		}
	case "ipv6":
		if ip, ok := bootstrapip.ParseAddr(v); !ok || ip.Is4() {
			return "is not an IPv6 address"
		}
	case "cidr":
		if _, err := bootstrapip.ParsePrefix(v); err != nil {
			return "is not a CIDR"
		}
	case "host":
		if v == "" {
			return "is empty"
		}
	case "default-route":
		if _, err := strconv.ParseBool(v); err != nil {
			return "is not true or false"
		}
	}
	return ""
}
