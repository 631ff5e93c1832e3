//go:build e2e

package e2e

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// kasWebhookTimeout is the kube-apiserver's default webhook timeout: a call
// the tunnel does not answer fails after it.
const kasWebhookTimeout = 10 * time.Second

// kasIdleConnsPerHost is client-go's idle pool per host (transport/cache.go):
// beyond that many concurrent calls the kube-apiserver closes connections
// and dials new ones, so C=50 callers dial through the tunnel all along.
const kasIdleConnsPerHost = 25

// kasWebhookClient is webhookClient with the kube-apiserver's webhook
// client settings that decide when it dials: HTTP/1.1 only (k8s.io/apiserver
// pkg/util/webhook sets NextProtos), client-go's idle pool, its timeout.
func kasWebhookClient(dial dialFunc, caPEM []byte) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Timeout: kasWebhookTimeout, Transport: &http.Transport{
		DialContext:         dial,
		MaxIdleConnsPerHost: kasIdleConnsPerHost,
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: webhookSvc + "." + webhookNS + ".svc",
			NextProtos: []string{"http/1.1"}},
	}}
}

// rawWebhookCall is one AdmissionReview POST to the webhook at ip through c.
func rawWebhookCall(t *testing.T, c *http.Client, ip string) func() error {
	t.Helper()
	url := "https://" + net.JoinHostPort(ip, fmt.Sprint(webhookPort)) + "/validate"
	body := reviewBody(t)
	return func() error {
		resp, err := c.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("webhook answered HTTP %d", resp.StatusCode)
		}
		return nil
	}
}
