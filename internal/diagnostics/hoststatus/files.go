package hoststatus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// files: every file render recorded is still there with the same bytes.
func (s *session) files() {
	var missing, changed, unsafe []string
	for _, f := range s.root.Files {
		data, err := s.root.ReadFile(s.root.Abs("/" + f.Path))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, "/"+f.Path)
			continue
		}
		if err != nil { // a link, a FIFO, a device: named, never followed or opened
			unsafe = append(unsafe, err.Error())
			continue
		}
		sum := sha256.Sum256(data)
		if f.SHA256 != "" && hex.EncodeToString(sum[:]) != f.SHA256 {
			changed = append(changed, "/"+f.Path)
		}
	}
	switch {
	case len(unsafe) > 0:
		s.rep.add(newCheck(CheckRenderedFiles, framework.Error, strings.Join(unsafe, "; "),
			"remove what stands in place of render's files and run konnectivity-bundle render again; status never reads through a link or a special file"))
	case len(missing) > 0:
		s.rep.add(newCheck(CheckRenderedFiles, framework.Error,
			fmt.Sprintf("%d of %d files render wrote are missing: %s", len(missing), len(s.root.Files), strings.Join(missing, ", ")),
			"run konnectivity-bundle render again with the same inputs; it rewrites what is missing"))
	case len(changed) > 0:
		s.rep.add(newCheck(CheckRenderedFiles, framework.Warning,
			fmt.Sprintf("changed since render: %s", strings.Join(changed, ", ")),
			"someone edited them by hand; konnectivity-bundle render restores them (certificates are reused while valid)"))
	default:
		// render's count includes the state file it writes last; the state
		// records every other file, so the two totals differ by that one.
		s.rep.add(newCheck(CheckRenderedFiles, framework.Info, fmt.Sprintf("%d files as render wrote them (%d recorded in /%s, plus that state file)",
			len(s.root.Files)+1, len(s.root.Files), hostlayout.StatePath), ""))
	}
}

// socket: the server's UDS exists, is a socket, and has the mode the server
// gives it (0770), so the KAS (root) can connect.
func (s *session) socket() {
	uds, ok := s.root.Bundle.Server.Flags.Lookup("uds-name")
	if !ok || uds == "" {
		s.rep.add(newCheck(CheckSocket, framework.Error, "the server pod has no --uds-name",
			"the kube-apiserver reaches the server only through its socket; re-render from an unmodified overlay"))
		return
	}
	host, ok := s.root.ServerHostPath(uds)
	if !ok {
		s.rep.add(newCheck(CheckSocket, framework.Error, fmt.Sprintf("--uds-name=%s is not on a hostPath mount of the server pod", uds),
			"the socket must be on the bootstrap-configs hostPath so the kube-apiserver can see it"))
		return
	}
	st, err := s.root.Lstat(host) // never through a link out of the root
	switch {
	case err != nil:
		s.rep.add(newCheck(CheckSocket, framework.Error, fmt.Sprintf("%s: %v", host, unwrapPath(err)),
			"the server is not running (it creates the socket at start and removes it on exit): check `crictl ps -a --name konnectivity-server` and `crictl logs` on the bootstrap host"))
	case st.Mode().Type() != fs.ModeSocket:
		s.rep.add(newCheck(CheckSocket, framework.Error, fmt.Sprintf("%s is %s, not a socket", host, inputread.KindName(st.Mode())),
			"remove it; the server (with --delete-existing-uds-file=true) recreates the socket on start; status and probe never follow a link there"))
	case st.Mode().Perm() != 0o770:
		s.rep.add(newCheck(CheckSocket, framework.Warning, fmt.Sprintf("%s has mode %04o, the server creates it 0770", host, st.Mode().Perm()),
			"someone changed it; restart the server pod to recreate it"))
	default:
		s.rep.add(newCheck(CheckSocket, framework.Info, fmt.Sprintf("%s (socket, mode 0770)", host), ""))
	}
}

// unwrapPath drops the path a PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
