// Package samehost keeps the tool's HTTP reads on the host they were sent
// to: status, wait and teardown read the server's health and metrics and
// the kube-apiserver's metrics, and a redirect to another host would send
// the kubeconfig's credentials there or report another process's figures.
package samehost

import (
	"fmt"
	"net/http"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
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

// KubeClient is client-go's HTTP client for cfg (its TLS, credentials and
// timeout) with CheckRedirect: every read from the kube-apiserver goes
// through one, so the kubeconfig's token never follows a redirect away.
func KubeClient(cfg *rest.Config) (*http.Client, error) {
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	c.CheckRedirect = CheckRedirect
	return c, nil
}

// DynamicFromKubeconfig builds a dynamic client from a kubeconfig file with
// KubeClient's HTTP client, so that no read or write of the tool follows a
// redirect away; timeout, when not 0, bounds each request.
func DynamicFromKubeconfig(path string, timeout time.Duration) (dynamic.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = timeout
	hc, err := KubeClient(cfg)
	if err != nil {
		return nil, err
	}
	return dynamic.NewForConfigAndClient(cfg, hc)
}
