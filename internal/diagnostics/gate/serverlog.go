package gate

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
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
// show in the server's metrics; its log names them. A log that cannot be
// read (a link, a FIFO, a device in its place) is said in the detail.
func (w *waiter) refusedHandshakes(v *Verdict) {
	file, line, err := w.handshakeError()
	if line == "" {
		if err != nil {
			v.Detail += "; the server's log was not read: " + err.Error()
		}
		return
	}
	v.apply(stageRow(stageServerLog), finding{rep: v.Status, detail: file + ": " + line})
}

// handshakeError returns the last refused handshake in the server's log.
func (w *waiter) handshakeError() (file, line string, err error) {
	file, lines, _, err := serverHandshakes(w.opts.Status.Root, w.opts.ServerLog)
	if len(lines) == 0 {
		return "", "", err
	}
	return file, lines[len(lines)-1], nil
}

// serverHandshakes returns the refused handshakes of the newest log that
// has any, in order: serverLog when given, else the kubelet's logs under
// root, newest first. read says whether any log was read at all. Every log
// is opened through internal/rootdir/hostfs: a regular file only, never through a
// link.
func serverHandshakes(root, serverLog string) (file string, lines []string, read bool, err error) {
	dir, rels := filepath.Dir(serverLog), []string{filepath.Base(serverLog)}
	if serverLog == "" {
		dir = root
	}
	h, err := hostfs.Open(dir)
	if err != nil {
		return "", nil, false, err
	}
	defer h.Close()
	if serverLog == "" {
		if rels, err = kubeletLogs(h); err != nil {
			return "", nil, false, err
		}
	}
	var errs []error
	for _, rel := range rels {
		ls, err := matches(h, rel)
		if len(ls) > 0 {
			return h.Abs(rel), ls, true, nil
		}
		if err == nil {
			read = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return "", nil, read, errors.Join(errs...)
}

// kubeletLogs lists the server pod's logs under the root, newest first:
// kubeletLogGlob matched one directory level at a time.
func kubeletLogs(h *hostfs.Root) ([]string, error) {
	dirs := []string{""}
	for _, pattern := range strings.Split(kubeletLogGlob, "/") {
		var next []string
		for _, d := range dirs {
			rel := path.Join(d, pattern)
			if !strings.ContainsAny(pattern, "*?[") {
				next = append(next, rel)
				continue
			}
			names, err := h.ReadDirNames(d)
			if err != nil {
				return nil, err
			}
			slices.Sort(names)
			for _, n := range names {
				if ok, _ := path.Match(pattern, n); ok {
					next = append(next, path.Join(d, n))
				}
			}
		}
		dirs = next
	}
	slices.Reverse(dirs)
	return dirs, nil
}

// matches reads the end of a regular file and returns its lines with the
// handshake mark, each from the mark on, in order.
func matches(h *hostfs.Root, rel string) ([]string, error) {
	f, err := h.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > logTail {
		_, _ = f.Seek(st.Size()-logTail, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, logTail))
	var out []string
	for _, l := range bytes.Split(data, []byte("\n")) {
		if _, rest, ok := strings.Cut(string(l), handshakeMark); ok {
			out = append(out, strings.TrimSpace(handshakeMark+rest))
		}
	}
	return out, nil
}
