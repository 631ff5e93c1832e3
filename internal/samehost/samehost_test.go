package samehost

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
)

// TestCheckRedirect: a redirect on the same host is followed, one to
// another host (another port counts) is refused naming both, and a loop
// stops.
func TestCheckRedirect(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("someone else's figures"))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/metrics", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/metrics", http.StatusMovedPermanently)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			_, _ = w.Write([]byte("ours"))
		}
	}))
	defer srv.Close()
	c := &http.Client{CheckRedirect: CheckRedirect}
	for _, tc := range []struct{ path, err string }{
		{"/here", ""},
		{"/away", "refused to follow a redirect from " + srv.URL + "/away to another host, " + other.URL + "/metrics"},
		{"/loop", "stopped after 10 redirects"},
	} {
		resp, err := c.Get(srv.URL + tc.path)
		if resp != nil {
			resp.Body.Close()
		}
		if tc.err == "" && (err != nil || resp.StatusCode != http.StatusOK) {
			t.Errorf("%s: %v, want the same host's answer", tc.path, err)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want an error with %q", tc.path, err, tc.err)
		}
	}
}

// TestKubeClientKeepsTheToken: the kube-apiserver client refuses a redirect
// to another host, so the kubeconfig's token is never sent there.
func TestKubeClientKeepsTheToken(t *testing.T) {
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect was followed, Authorization %q", r.Header.Get("Authorization"))
	}))
	defer other.Close()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c, err := KubeClient(&rest.Config{Host: srv.URL, BearerToken: "secret-token", TLSClientConfig: rest.TLSClientConfig{Insecure: true}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(srv.URL + "/apis")
	if resp != nil {
		resp.Body.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "refused to follow a redirect") {
		t.Errorf("%v, want the redirect refused", err)
	}
}
