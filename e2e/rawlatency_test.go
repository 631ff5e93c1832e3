//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/server/egressselector"
)

// dialFunc is how every client here dials.
type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// kasClusterDialer is the dialer the bootstrap kube-apiserver uses for the
// cluster selection, built by k8s.io/apiserver from the same egress file.
func kasClusterDialer(t *testing.T, egressFile string) dialFunc {
	t.Helper()
	cfg, err := egressselector.ReadEgressSelectorConfiguration(egressFile)
	if err != nil {
		t.Fatalf("read egress file: %v", err)
	}
	sel, err := egressselector.NewEgressSelector(cfg)
	if err != nil {
		t.Fatalf("egress selector: %v", err)
	}
	dial, err := sel.Lookup(egressselector.Cluster.AsNetworkContext())
	if err != nil || dial == nil { // nil means "direct": the file would not tunnel at all
		t.Fatalf("cluster selection dialer = %v, %v; want the tunnel", dial, err)
	}
	return dial
}

// webhookClient posts AdmissionReviews to the webhook the way the apiserver
// does: TLS to the Service name, connections kept alive, dialled by dial.
func webhookClient(dial dialFunc, caPEM []byte) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DialContext:     dial,
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: webhookSvc + "." + webhookNS + ".svc"},
	}}
}

// measureRaw times latencyCalls webhook round trips without any apiserver:
// the difference between two dialers is the tunnel alone.
func measureRaw(t *testing.T, c *http.Client, ip string) latency {
	t.Helper()
	url := "https://" + net.JoinHostPort(ip, fmt.Sprint(webhookPort)) + "/validate"
	body := reviewBody(t)
	ds := make([]time.Duration, 0, latencyCalls)
	for i := range latencyCalls {
		start := time.Now()
		resp, err := c.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("webhook call %d: %v", i, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("webhook call %d: status %d", i, resp.StatusCode)
		}
		ds = append(ds, time.Since(start))
	}
	c.CloseIdleConnections()
	return summarise(ds)
}

func reviewBody(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{UID: types.UID("e2e"), Operation: admissionv1.Create,
			Object: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"raw"}}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
