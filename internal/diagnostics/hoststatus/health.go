package hoststatus

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/samehost"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// get fetches url with the session's dialer, within its timeout and the
// caller's context: the timeout covers the whole read, body included. A
// redirect to another host is refused (internal/intake/samehost).
func (s *session) get(url string) (int, string, error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	c := &http.Client{Transport: &http.Transport{DialContext: s.opts.Dial, DisableKeepAlives: true, Proxy: nil}, CheckRedirect: samehost.CheckRedirect}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return resp.StatusCode, string(body), err
}

func (s *session) url(port int, p string) string {
	return "http://" + net.JoinHostPort(s.opts.HealthHost, strconv.Itoa(port)) + p
}

// health: /healthz says the server process is up, /readyz whether the first
// proxy strategy has an agent.
func (s *session) health() {
	port, err := s.root.Bundle.Server.Port("health-port")
	if err != nil {
		s.rep.add(newCheck(CheckServerHealth, framework.Error, err.Error(), ""))
		return
	}
	u := s.url(port, "/healthz")
	code, body, err := s.get(u)
	if err != nil || code != http.StatusOK {
		s.rep.add(newCheck(CheckServerHealth, framework.Error, fmt.Sprintf("%s: %s", u, describe(code, body, err)),
			"the server is down or not listening there: check `crictl ps -a --name konnectivity-server` and its logs; use --health-host if it binds another address"))
		return
	}
	s.rep.add(newCheck(CheckServerHealth, framework.Info, u+": "+strings.TrimSpace(body), ""))
	u = s.url(port, "/readyz")
	code, body, err = s.get(u)
	if err == nil && code == http.StatusOK {
		s.rep.add(newCheck(CheckServerReady, framework.Info, u+": "+strings.TrimSpace(body), ""))
		return
	}
	s.rep.add(newCheck(CheckServerReady, framework.Warning, fmt.Sprintf("%s: %s", u, describe(code, body, err)),
		"not ready until an agent of the first --proxy-strategies strategy connects; see the agents line"))
}

func describe(code int, body string, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("HTTP %d %s", code, strings.TrimSpace(body))
}
