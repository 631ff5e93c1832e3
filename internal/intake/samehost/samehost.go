// Package samehost keeps the tool's HTTP reads on the host they were sent
// to: status, wait and teardown read the server's health and metrics, and
// every command reads the kube-apiserver (internal/intake/kuberead, whose client
// takes CheckRedirect), and a redirect to another host would send the
// kubeconfig's credentials there or report another process's figures.
package samehost

import (
	"fmt"
	"net/http"
)

// CheckRedirect is an http.Client's CheckRedirect that follows a redirect
// only to the same host and port as the first request, at most 10 times
// (net/http's own limit), and otherwise refuses it, naming both hosts.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	first := via[0].URL
	if req.URL.Host != first.Host {
		return fmt.Errorf("refused to follow a redirect from %s to another host, %s: only the address given is read", first.Redacted(), req.URL.Redacted())
	}
	if len(via) >= 10 {
		return fmt.Errorf("stopped after 10 redirects from %s", first.Redacted())
	}
	return nil
}
