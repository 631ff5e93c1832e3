package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/planttest"
)

// TestServerLogIsConfined: the kubelet's log of the server under the root
// and a --server-log, each replaced by a link to a valid log outside the
// root, a FIFO or a dangling link, are not read: the verdict's detail names
// the path and what is there, nothing blocks, and the outside log (which
// holds a refused handshake) is never opened.
func TestServerLogIsConfined(t *testing.T) {
	const line = "2026/11/25 ServerHandshake(\"10.0.0.5:1234\") failed: remote error: tls: bad certificate\n"
	kubelet := "var/log/pods/kube-system_konnectivity-server-bootstrap_0123/konnectivity-server/0.log"
	for _, serverLog := range []bool{false, true} {
		for _, kind := range planttest.Kinds {
			name := "kubelet log/" + string(kind)
			if serverLog {
				name = "--server-log/" + string(kind)
			}
			t.Run(name, func(t *testing.T) {
				root := t.TempDir()
				path := filepath.Join(root, kubelet)
				w := &waiter{opts: Options{}}
				w.opts.Status.Root = root
				if serverLog {
					path = filepath.Join(t.TempDir(), "server.log")
					w.opts.ServerLog = path
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
					t.Fatal(err)
				}
				real := &Verdict{Cause: NoAgentConnected}
				if w.refusedHandshakes(real); real.Cause != AgentsDropped {
					t.Fatalf("the real log's refused handshake was not found: %+v", real)
				}
				out := planttest.Plant(t, path, kind)
				v := &Verdict{Cause: NoAgentConnected, Detail: "no agent connected"}
				planttest.NoHang(t, "reading the server's log", time.Minute, func() { w.refusedHandshakes(v) })
				want := path + " is a symbolic link"
				if kind == planttest.FIFO {
					want = path + " is " + inputread.KindName(os.ModeNamedPipe)
				}
				if v.Cause != NoAgentConnected || !strings.Contains(v.Detail, want) {
					t.Errorf("verdict %s: %s; want %s with %q", v.Cause, v.Detail, NoAgentConnected, want)
				}
				if out.Touched(t) {
					t.Errorf("%s was opened outside the root", out.Path)
				}
			})
		}
	}
}
