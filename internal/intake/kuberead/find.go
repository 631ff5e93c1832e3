package kuberead

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Where a kubeconfig came from, in the order Find tries them.
const (
	fromFlag = "--kubeconfig"
	fromEnv  = "$KUBECONFIG"
	fromRoot = "--root's admin kubeconfig"
)

// Lookup is what Find decides from: the command's flag, the environment
// and the root render wrote.
type Lookup struct {
	Flag      string // --kubeconfig's value
	FlagGiven bool   // --kubeconfig was on the command line, even empty
	Env       string // $KUBECONFIG
	Root      string // --root; "" when the command has none
}

// Choice is the kubeconfig a command reads the kube-apiserver with, or
// why it reads none.
type Choice struct {
	// Paths are the files, merged in order as client-go merges
	// $KUBECONFIG's list; one file otherwise. Empty: none is read.
	Paths []string `json:"paths,omitempty"`
	// From is where they were found: "--kubeconfig", "$KUBECONFIG"
	// or "--root's admin kubeconfig" (fromFlag, fromEnv, fromRoot).
	From string `json:"from,omitempty"`
	// None says why no kubeconfig is read, when Paths is empty.
	None string `json:"none,omitempty"`
	// Root is --root when From is the root's admin kubeconfig: Open reads
	// it, and every file it names, inside that root (hostfs).
	Root string `json:"-"`
}

// Found says a kubeconfig is to be read.
func (c Choice) Found() bool { return len(c.Paths) > 0 }

// String is the line each command prints: which kubeconfig and from
// where, or why none.
func (c Choice) String() string {
	if !c.Found() {
		return "no kubeconfig: " + c.None
	}
	return fmt.Sprintf("kubeconfig: %s (from %s)", strings.Join(c.Paths, string(filepath.ListSeparator)), c.From)
}

// Find is the one rule every command follows, as a Kubernetes user expects
// from kubectl: --kubeconfig wins, and --kubeconfig "" reads no cluster
// (for scripts that want the files only); else $KUBECONFIG, a list of
// files merged as client-go's loading rules merge it (empty entries
// dropped, repeats read once; files that do not exist are skipped); else,
// for a root render wrote, that root's opt/openshift/auth/kubeconfig, the
// bootstrap node's admin kubeconfig. ~/.kube/config is not read: on a
// bootstrap node it is not the bootstrap kube-apiserver's, and a cluster
// read the user did not ask for is worse than a report that says none was.
func Find(l Lookup) Choice {
	switch {
	case l.FlagGiven && l.Flag == "":
		return Choice{None: `--kubeconfig "" given: the cluster is not read`}
	case l.FlagGiven:
		return Choice{Paths: []string{l.Flag}, From: fromFlag}
	}
	if paths := envPaths(l.Env); len(paths) > 0 {
		return Choice{Paths: paths, From: fromEnv}
	}
	if l.Root == "" {
		return Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset"}
	}
	admin := filepath.Join(l.Root, hostlayout.AdminKubeconfig)
	why := rootAdmin(l.Root, admin)
	if why == "" {
		return Choice{Paths: []string{admin}, From: fromRoot, Root: l.Root}
	}
	return Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset, " + why}
}

// envPaths are $KUBECONFIG's files as client-go reads the list.
func envPaths(env string) []string {
	var out []string
	for _, p := range filepath.SplitList(env) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// rootAdmin says why admin, under root, is not the kubeconfig to read, or
// "" when it is: root must be one render wrote (its state file), and
// something must be at admin. What is there is judged by Open, which reads
// it inside the root (every path element resolved there, a link refused):
// a link or a special file at admin, or on its way, is refused loudly
// rather than passed over as if there were none.
func rootAdmin(root, admin string) string {
	r, err := hostfs.Open(root)
	if err != nil {
		return err.Error()
	}
	defer r.Close()
	rel := filepath.ToSlash(hostlayout.AdminKubeconfig)
	if _, err := r.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
		return "no " + admin
	}
	if ok, err := r.Exists(filepath.ToSlash(hostlayout.StatePath)); !ok || err != nil {
		return fmt.Sprintf("%s is not a root render wrote (no %s), so its %s is not taken", root, hostlayout.StatePath, hostlayout.AdminKubeconfig)
	}
	return ""
}
