package gate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// kubeletLogGlob is where the kubelet keeps the server static pod's log
// (/var/log/pods/<namespace>_<pod>_<uid>/<container>/<n>.log).
const kubeletLogGlob = "var/log/pods/kube-system_konnectivity-server*_*/konnectivity-server/*.log"

// handshakeMark starts grpc-go's line for an agent TLS handshake the
// server refused; the rendered pod sets GRPC_GO_LOG_SEVERITY_LEVEL=info
// so that it is logged (functions/bundle/server.go).
const handshakeMark = "ServerHandshake("

// logTail is how much of the end of a log the gate reads.
const logTail = 256 << 10

// refusedHandshakes: agents that reach the port but fail mutual TLS never
// show in the server's metrics; its log names them.
func (w *waiter) refusedHandshakes(v *Verdict) {
	file, line := w.handshakeError()
	if line == "" {
		return
	}
	v.Cause = AgentsDropped
	v.Detail = fmt.Sprintf("agents reach the server but it refuses their TLS handshake (%s: %s)", file, line)
	v.Fix = "the agents' certificate or CA does not match the server's: the agent Secret and the certificate directory come from different renders. " +
		"Run konnectivity-bundle check --cert-dir on the rendered root, render again, then let the DaemonSet pick up the new Secret"
}

// handshakeError returns the last refused handshake in the server's log:
// ServerLog when given, else the kubelet's logs under the root, newest
// first.
func (w *waiter) handshakeError() (file, line string) {
	files := []string{w.opts.ServerLog}
	if w.opts.ServerLog == "" {
		files, _ = filepath.Glob(filepath.Join(w.opts.Status.Root, kubeletLogGlob))
		slices.Reverse(files)
	}
	for _, f := range files {
		if l := lastMatch(f); l != "" {
			return f, l
		}
	}
	return "", ""
}

// lastMatch reads the end of a regular file (never through a link) and
// returns its last line with the handshake mark, from the mark on.
func lastMatch(path string) string {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st.Size() > logTail {
		_, _ = f.Seek(st.Size()-logTail, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, logTail))
	lines := bytes.Split(data, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if _, rest, ok := strings.Cut(string(lines[i]), handshakeMark); ok {
			return strings.TrimSpace(handshakeMark + rest)
		}
	}
	return ""
}
