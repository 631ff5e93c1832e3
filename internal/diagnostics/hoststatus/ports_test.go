package hoststatus_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// TestServerPortsAsRendered asks the real proxy-server of each version,
// started from the rendered static pod, which of its ports serve /metrics
// (status reads the admin port first, and the health port only where the
// version serves /metrics there: v0.36, not v0.28) and where the health port
// listens: loopback only, so nothing off the bootstrap host reaches it.
func TestServerPortsAsRendered(t *testing.T) {
	for _, v := range proxyversion.Versions {
		t.Run(v.Name, func(t *testing.T) { serverPorts(t, v) })
	}
}

func serverPorts(t *testing.T, v *proxyversion.Version) {
	h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: v})
	h.StartServer(t)
	get := func(host string, port int, path string) (int, string, error) {
		c := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DialContext: h.DialBoot, DisableKeepAlives: true}}
		resp, err := c.Get("http://" + net.JoinHostPort(host, fmt.Sprint(port)) + path)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), err
	}
	const family = "konnectivity_network_proxy_server_"
	healthMetrics, healthBody := http.StatusNotFound, ""
	if v.Metrics.OnHealthPort {
		healthMetrics, healthBody = http.StatusOK, family
	}
	cases := []struct {
		name    string
		host    string
		port    int
		path    string
		code    int // 0: nothing may answer
		bodyHas string
	}{
		{"admin port serves /metrics", "127.0.0.1", 8095, "/metrics", http.StatusOK, family},
		{"health port /metrics as the version has it", "127.0.0.1", 2041, "/metrics", healthMetrics, healthBody},
		{"health port on loopback", "127.0.0.1", 2041, "/healthz", http.StatusOK, "ok"},
		{"health port not on the bootstrap IP", tunneltest.BootIP, 2041, "/healthz", 0, ""},
		{"admin port not on the bootstrap IP", tunneltest.BootIP, 8095, "/metrics", 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var body string
			err := tunneltest.Eventually(30*time.Second, func() error {
				var err error
				code, body, err = get(tc.host, tc.port, tc.path)
				if tc.code != 0 && err != nil {
					return err
				}
				return nil
			})
			switch {
			case tc.code == 0 && err == nil && code != 0:
				t.Fatalf("%s:%d answered HTTP %d; want nothing listening there", tc.host, tc.port, code)
			case tc.code != 0 && err != nil:
				t.Fatal(err)
			case tc.code != 0 && (code != tc.code || !strings.Contains(body, tc.bodyHas)):
				t.Fatalf("%s:%d%s: HTTP %d without %q; want HTTP %d", tc.host, tc.port, tc.path, code, tc.bodyHas, tc.code)
			}
		})
	}
}

// TestStatusReadsMetricsWhereTheVersionServesThem: with the server down,
// status's metrics error names the last port it tried: the health port on
// v0.36, which serves /metrics there too, and the admin port on v0.28,
// whose health port has no /metrics to try.
func TestStatusReadsMetricsWhereTheVersionServesThem(t *testing.T) {
	for _, v := range proxyversion.Versions {
		t.Run(v.Name, func(t *testing.T) {
			h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: v})
			rep := hoststatus.Run(context.Background(), hoststatus.Options{Root: h.Root, Dial: h.DialBoot, Timeout: 2 * time.Second})
			want := ":8095/metrics"
			if v.Metrics.OnHealthPort {
				want = ":2041/metrics"
			}
			if !strings.Contains(rep.MetricsError, want) {
				t.Errorf("status read the metrics last from the wrong port: %q; want %s", rep.MetricsError, want)
			}
		})
	}
}
