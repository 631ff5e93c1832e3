package cli

import (
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fifotest"
)

// TestFIFOReadOnce: a bundle argument is opened and read once. A FIFO whose
// writer writes one document and closes is read to its end and nothing
// more: a command that looked at the path again (to ask whether it is a
// host root, or what it is) would wait for a writer that has gone.
func TestFIFOReadOnce(t *testing.T) {
	const doc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: once\n  namespace: kube-system\n"
	for _, args := range [][]string{
		{"check", "FIFO"},
		{"diff", "FIFO", "ipv4", "--bootstrap-ip", "192.0.2.10", "--proxy-version", "v0.36"},
		{"diff", "ipv4", "FIFO", "--bootstrap-ip", "192.0.2.10", "--proxy-version", "v0.36"},
		{"ports", "FIFO"},
	} {
		t.Run(args[0]+"/"+args[1], func(t *testing.T) {
			path := fifotest.Once(t, doc)
			argv := append([]string(nil), args...)
			for i, a := range argv {
				if a == "FIFO" {
					argv[i] = path
				}
			}
			done := make(chan int, 1)
			go func() {
				code, _, _ := runCLI(t, "", argv...)
				done <- code
			}()
			select {
			case code := <-done:
				t.Logf("%v: exit %d", argv, code)
			case <-time.After(2 * time.Minute): // a hang, not a time limit: the read itself takes milliseconds
				t.Fatalf("%v did not finish after its FIFO's writer wrote once and closed: it opened the FIFO again", argv)
			}
		})
	}
}
