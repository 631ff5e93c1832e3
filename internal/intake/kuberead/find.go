package kuberead

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
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
	Root      Root   // --root's admin kubeconfig; nil when the command has no --root
}

// Root is the admin kubeconfig of a --root render wrote, found and read
// inside that root (internal/rootdir/adminkubeconfig): the command hands
// it over, since intake reads no root of its own.
type Root interface {
	// Find is the admin kubeconfig's path, or why the root offers none.
	Find() (file, none string)
	// Name is the admin kubeconfig as Read takes it.
	Name() string
	// Resolve is where p, named by the kubeconfig at origin (a name of
	// this root), lies: a name for Read, or why it is refused.
	Resolve(origin, p string) (string, error)
	// Read reads a name inside the root, through the capped reader.
	Read(ctx context.Context, name string) ([]byte, error)
	// Show is a name as messages say it.
	Show(name string) string
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
	// Root is --root's when From is the root's admin kubeconfig: Open
	// reads it, and every file it names, inside that root.
	Root Root `json:"-"`
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
	if l.Root == nil {
		return Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset"}
	}
	admin, why := l.Root.Find()
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
