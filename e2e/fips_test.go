//go:build e2e

package e2e

import (
	"bytes"
	"debug/buildinfo"
	"fmt"
	"os"
	"runtime"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// fipsOnly is the GODEBUG setting of FIPS 140-only mode: every algorithm
// that is not FIPS 140-approved panics or fails.
const fipsOnly = "GODEBUG=fips140=only"

// TestTunnelFIPS140Only runs the tunnel with proxy-server and proxy-agent
// in FIPS 140-only mode (docs/certificates.md, FIPS): built from ANP v0.36.0
// with this Go, on certificates render made, the webhook is allowed and
// denied through the real kube-apiserver, in both modes.
func TestTunnelFIPS140Only(t *testing.T) {
	for _, name := range []string{"proxy-server", "proxy-agent"} {
		info, err := buildinfo.ReadFile(tool(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if info.GoVersion != runtime.Version() {
			t.Fatalf("%s was built with %s, not this Go (%s): FIPS 140-only mode depends on the toolchain's crypto", name, info.GoVersion, runtime.Version())
		}
	}
	for _, mode := range []string{bundle.ModeHTTPConnect, bundle.ModeGRPC} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, mode, ipv4)
			e.h.server.argv = withEnv(fipsOnly, e.h.server.argv)
			e.h.agent.argv = withEnv(fipsOnly, e.h.agent.argv)
			e.startTunnel(t)
			t.Run("allowed and denied through the tunnel", e.admitsThroughTunnel)
			t.Run("server and agent run in FIPS 140-only mode", func(t *testing.T) {
				for _, p := range []*proctest.Proc{e.h.serverProc, e.h.agentProc} {
					checkRunsWith(t, p, fipsOnly)
				}
			})
		})
	}
}

// withEnv runs argv with one more environment variable (env(1) execs it,
// so the process keeps its pid).
func withEnv(kv string, argv []string) []string {
	return append([]string{"env", kv}, argv...)
}

// checkRunsWith: p is running its own binary (not a wrapper) with kv in its
// environment, read from /proc.
func checkRunsWith(t *testing.T, p *proctest.Proc, kv string) {
	t.Helper()
	if !p.Running() {
		t.Fatalf("%s exited: %v\n%s", p.Name(), p.Err(), p.Tail(30))
	}
	pid := p.Pid()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		t.Fatal(err)
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The process is the tool's own binary (tools/build.sh names it
	// proxy-server-v0.28 and so on), not env(1) or a shell around it.
	if want := tool(t, p.Name()); exe != want || !bytes.Contains(append([]byte{0}, environ...), []byte("\x00"+kv+"\x00")) {
		t.Errorf("pid %d runs %s, environment has %s: %v, want %s with it", pid, exe, kv, bytes.Contains(environ, []byte(kv)), want)
	}
}
