package hostileserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Raw answers every connection l accepts with b's bytes of s, whatever the
// client sends (nothing of it is read), until the test ends: a hostile
// proxy-server socket. Stall holds each connection open without a byte.
func Raw(tb testing.TB, l net.Listener, b Behaviour, s Shape) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var conns sync.WaitGroup
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Go(func() {
				defer c.Close()
				go func() { <-ctx.Done(); c.Close() }()
				_ = Feed(ctx, c, b, s)
			})
		}
	}()
	tb.Cleanup(func() {
		cancel()
		l.Close()
		conns.Wait()
	})
}

// HTTP serves b over HTTP on l until the test ends and returns its URL
// (https with a self-signed certificate when useTLS). Stall holds each
// connection open without reading it, before any TLS handshake; the others
// answer every request with 200 and a body of shape(request), through the
// request's end.
func HTTP(tb testing.TB, l net.Listener, b Behaviour, useTLS bool, shape func(*http.Request) Shape) string {
	tb.Helper()
	if b == Stall {
		Raw(tb, l, Stall, Shape{})
		scheme := "http://"
		if useTLS {
			scheme = "https://"
		}
		return scheme + l.Addr().String()
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := shape(r)
		if s.ContentType != "" {
			w.Header().Set("Content-Type", s.ContentType)
		}
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		_ = Feed(r.Context(), w, b, s)
	}))
	srv.Listener.Close()
	srv.Listener = l
	if useTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	tb.Cleanup(func() {
		srv.CloseClientConnections() // first: Close waits for the handlers, which end with their connections
		srv.Close()
	})
	return srv.URL
}
