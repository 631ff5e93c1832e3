package hoststatus_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// TestServerPortsAsRendered asks the real proxy-server v0.36.0, started from
// the rendered static pod, which of its ports serve /metrics (status reads
// the admin port first, `ports` lists both) and where the health port
// listens: loopback only, so nothing off the bootstrap host reaches it.
func TestServerPortsAsRendered(t *testing.T) {
	h := tunneltest.New(t, "ipv4")
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
	cases := []struct {
		name      string
		host      string
		port      int
		path      string
		reachable bool
		bodyHas   string
	}{
		{"admin port serves /metrics", "127.0.0.1", 8095, "/metrics", true, "konnectivity_network_proxy_server_ready_backends"},
		{"health port serves /metrics too", "127.0.0.1", 2041, "/metrics", true, "konnectivity_network_proxy_server_ready_backends"},
		{"health port on loopback", "127.0.0.1", 2041, "/healthz", true, "ok"},
		{"health port not on the bootstrap IP", tunneltest.BootIP, 2041, "/healthz", false, ""},
		{"admin port not on the bootstrap IP", tunneltest.BootIP, 8095, "/metrics", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var body string
			err := tunneltest.Eventually(30*time.Second, func() error {
				var err error
				code, body, err = get(tc.host, tc.port, tc.path)
				if tc.reachable && err != nil {
					return err
				}
				return nil
			})
			switch {
			case !tc.reachable && err == nil && code != 0:
				t.Fatalf("%s:%d answered HTTP %d; want nothing listening there", tc.host, tc.port, code)
			case tc.reachable && err != nil:
				t.Fatal(err)
			case tc.reachable && (code != http.StatusOK || !strings.Contains(body, tc.bodyHas)):
				t.Fatalf("%s:%d%s: HTTP %d without %q", tc.host, tc.port, tc.path, code, tc.bodyHas)
			}
		})
	}
}
