package hoststatus

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// trickleEvery is slowServer's pace: well inside the test's timeout, so a
// read bounded only by the wait for the next byte would never end.
const trickleEvery = 100 * time.Millisecond

// slowServer answers nothing until the client gives up (or a minute
// passes): a server that hangs mid-read. When trickle is set it sends the
// status line and then one byte every trickleEvery, so only a bound on the
// whole read, body included, ends it.
func slowServer(t *testing.T, trickle bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if trickle {
			w.WriteHeader(http.StatusOK)
		}
		for range time.Minute / trickleEvery {
			if trickle {
				_, _ = w.Write([]byte("#"))
				w.(http.Flusher).Flush()
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(trickleEvery):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestGetIsBoundedByTheTimeout: a read from a server that hangs, before or
// during its body, ends with a timeout error near Options.Timeout, not at
// a limit of its own. The bound asserted is loose (3x the timeout) on
// purpose: a loaded machine may be slow, but a minute-long hang is caught.
func TestGetIsBoundedByTheTimeout(t *testing.T) {
	const timeout = 500 * time.Millisecond
	for _, trickle := range []bool{false, true} {
		srv := slowServer(t, trickle)
		opts := Options{Timeout: timeout}
		opts.defaults()
		s := &session{ctx: context.Background(), opts: opts}
		start := time.Now()
		_, _, err := s.get(srv.URL + "/metrics")
		took := time.Since(start)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("trickle %v: %v, want a timeout (context deadline exceeded)", trickle, err)
		}
		if took > 3*timeout {
			t.Errorf("trickle %v: took %s with --timeout %s", trickle, took, timeout)
		}
	}
}

// TestGetRefusesARedirectToAnotherHost: the server's health or metrics
// port redirecting elsewhere is an error naming both, never followed.
func TestGetRefusesARedirectToAnotherHost(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect to another host was followed: %s", r.URL)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/healthz", http.StatusFound)
	}))
	defer srv.Close()
	opts := Options{Timeout: 5 * time.Second}
	opts.defaults()
	s := &session{ctx: context.Background(), opts: opts}
	_, _, err := s.get(srv.URL + "/healthz")
	if err == nil || !strings.Contains(err.Error(), "refused to follow a redirect from "+srv.URL+"/healthz to another host, "+other.URL+"/healthz") {
		t.Errorf("%v, want the redirect refused naming both hosts", err)
	}
}
