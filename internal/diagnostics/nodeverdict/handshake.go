package nodeverdict

import (
	"net"
	"strings"
)

// Handshake is one TLS handshake the server refused, from its log
// (`ServerHandshake("ADDR") failed: ...`, see internal/diagnostics/gate).
type Handshake struct {
	Addr  string // host:port the agent connected from
	Host  string // Addr's host
	Error string // the log line from "failed:" on
}

// ParseHandshake reads a refused-handshake line as the gate finds it in the
// server's log; ok is false for any other line. grpc-go writes it inside a
// quoted desc, so its quotes may come escaped (`ServerHandshake(\"ADDR\")
// failed: ...\"`): they are unescaped first.
func ParseHandshake(line string) (Handshake, bool) {
	_, rest, ok := strings.Cut(strings.ReplaceAll(line, `\"`, `"`), `ServerHandshake("`)
	if !ok {
		return Handshake{}, false
	}
	addr, rest, ok := strings.Cut(rest, `")`)
	if !ok {
		return Handshake{}, false
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	_, msg, _ := strings.Cut(rest, "failed:")
	msg = strings.TrimSpace(msg)
	if strings.Count(msg, `"`)%2 == 1 { // the desc's closing quote
		msg = strings.TrimSuffix(msg, `"`)
	}
	return Handshake{Addr: addr, Host: host, Error: msg}, true
}

// outsideValidity: the certificate's validity window excludes now.
func (h Handshake) outsideValidity() bool {
	return strings.Contains(h.Error, "expired") || strings.Contains(h.Error, "not yet valid")
}

// problem names the handshake's cause: a certificate outside its
// validity, or certificates from another CA.
func (h Handshake) problem() string {
	if h.outsideValidity() {
		return "a certificate outside its validity (" + h.Error + ")"
	}
	return "the agent's certificate and the server's come from different CAs (" + h.Error + ")"
}

// fix says how to make the two ends agree.
func (h Handshake) fix() string {
	if h.outsideValidity() {
		return "check both hosts' clocks (timedatectl) and the certificates' dates (konnectivity-bundle check --cert-dir on the rendered root); render again with new certificates if they expired, then let the DaemonSet pick up the new Secret"
	}
	return "the agent Secret and the server's certificate directory come from different renders: run konnectivity-bundle check --cert-dir on the rendered root, render again, then apply the rendered agent Secret and delete the agent pods so they mount it"
}
