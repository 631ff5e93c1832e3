package fakekas

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Mode is a way a kube-apiserver can misbehave; Hostile serves one.
type Mode string

// The hostile modes. Each answers every path (lists, objects, /metrics)
// the same way, so any reader of the kube-apiserver meets it.
const (
	// Stall accepts connections, completes TLS, reads the request and
	// never answers it: not even the status line.
	Stall Mode = "stall"
	// Mute accepts connections and never says a byte: not even the TLS
	// handshake completes.
	Mute Mode = "mute"
	// Drip answers 200 and then one byte every DripEvery, forever.
	Drip Mode = "drip"
	// EndlessList answers 200 with a list whose items never end, as fast
	// as the reader takes them (on /metrics: endless sample lines).
	EndlessList Mode = "endless-list"
	// HugeObject answers 200 with one object carrying an annotation of
	// HugeBytes bytes, sent as fast as the reader takes it.
	HugeObject Mode = "huge-object"
)

// Modes lists every hostile mode, for tests that run each.
var Modes = []Mode{Stall, Mute, Drip, EndlessList, HugeObject}

// DripEvery is Drip's pace: a fraction of the shortest timeout the tests
// give a reader, so several bytes arrive before it passes, and a reader
// that bounds only the wait for the next byte (not the whole answer) never
// times out and fails the test.
const DripEvery = 50 * time.Millisecond

// HugeBytes is the size of HugeObject's annotation: larger than any
// response a bounded reader should take whole.
const HugeBytes = 256 << 20

// Hostile serves mode over TLS until the test ends and returns the
// server's URL, for Kubeconfig. A handler still writing when the test
// ends stops at the first write that fails (the reader gave up) or when
// the server closes.
func Hostile(tb testing.TB, mode Mode) string {
	tb.Helper()
	if mode == Mute {
		return mute(tb)
	}
	h, ok := hostileHandlers[mode]
	if !ok {
		tb.Fatalf("fakekas: unknown hostile mode %q", mode)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(h))
	srv.Config.ErrorLog = quietLog() // a reader hanging up mid-body is the point
	srv.StartTLS()
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// mute listens and accepts, then holds each connection without a byte
// until the test ends.
func mute(tb testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				<-done
				return
			}
			held = append(held, c)
		}
	}()
	tb.Cleanup(func() {
		close(done)
		l.Close()
	})
	return "https://" + l.Addr().String()
}

var hostileHandlers = map[Mode]http.HandlerFunc{
	Stall:       stall,
	Drip:        drip,
	EndlessList: endless,
	HugeObject:  huge,
}

// stall holds the request until the reader gives up or the test ends.
func stall(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

func drip(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	for {
		if _, err := w.Write([]byte(" ")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(DripEvery):
		}
	}
}

func endless(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/metrics" {
		w.WriteHeader(http.StatusOK)
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "apiserver_admission_webhook_request_total{name=\"w%d.example.com\",type=\"validating\",operation=\"CREATE\",code=\"200\",rejected=\"false\"} 1\n", i); err != nil {
				return
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, `{"kind":"List","apiVersion":"v1","metadata":{},"items":[`); err != nil {
		return
	}
	for i := 0; ; i++ {
		sep := ","
		if i == 0 {
			sep = ""
		}
		if _, err := fmt.Fprintf(w, `%s{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-%d","labels":{"kubernetes.io/hostname":"node-%d"}}}`, sep, i, i); err != nil {
			return
		}
	}
}

func huge(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, `{"apiVersion":"v1","kind":"Node","metadata":{"name":"huge","annotations":{"a":"`); err != nil {
		return
	}
	chunk := strings.Repeat("x", 64<<10)
	for sent := 0; sent < HugeBytes; sent += len(chunk) {
		if _, err := fmt.Fprint(w, chunk); err != nil {
			return
		}
	}
	fmt.Fprint(w, `"}}}`)
}
