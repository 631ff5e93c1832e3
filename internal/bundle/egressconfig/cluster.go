package egressconfig

import "strings"

// Cluster returns the cluster selection and its index, or nil and -1. The
// name matches in any case, as the kube-apiserver lowercases it.
func (c *Config) Cluster() (*Selection, int) {
	for i := range c.EgressSelections {
		if strings.EqualFold(c.EgressSelections[i].Name, Cluster) {
			return &c.EgressSelections[i], i
		}
	}
	return nil, -1
}

// ClusterUDS is the unix socket the cluster selection dials, or "" when
// there is no cluster selection or it names no socket.
func (c *Config) ClusterUDS() string {
	sel, _ := c.Cluster()
	if sel == nil || sel.Connection.Transport == nil || sel.Connection.Transport.UDS == nil {
		return ""
	}
	return sel.Connection.Transport.UDS.UDSName
}
