package egressprobe

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// get sends one GET on an established connection and returns the status.
func get(conn net.Conn, t target) (int, error) {
	req, err := http.NewRequest(http.MethodGet, t.scheme+"://"+t.addr+t.path, nil)
	if err != nil {
		return 0, err
	}
	req.Host = t.addr
	req.Close = true
	if err := req.Write(conn); err != nil {
		return 0, fmt.Errorf("send GET %s: %w", t.path, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return 0, fmt.Errorf("read the response to GET %s: %w", t.path, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// proxyBody asks the server once more, by hand, why an HTTP CONNECT failed:
// the kube-apiserver's error has only the status line, the server's body
// says what went wrong (e.g. "No agent available").
func proxyBody(ctx context.Context, h host, res *Result, addr string) string {
	buffered := strings.Contains(res.Error, "buffered data from CONNECT proxy")
	if res.Protocol != "HTTPConnect" || res.Socket == "" || !(strings.Contains(res.Error, "proxy error") || buffered) {
		return ""
	}
	conn, err := h.dialUnix(ctx, res.Socket)
	if err != nil {
		return ""
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", addr)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	if buffered {
		// A proxy that answers 200 before its agent dials (v0.28) wrote
		// the agent's error as a second response after it, which the
		// kube-apiserver's dialer found buffered; its body is the reason.
		second, err := http.ReadResponse(r, nil)
		if err != nil {
			return ""
		}
		defer second.Body.Close()
		resp = second
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return strings.TrimSpace(string(b))
}
