package samehost

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
