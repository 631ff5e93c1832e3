package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// The property: a kubeconfig is an input like any other. Every command
// that declares --kubeconfig, whether the kubeconfig comes from the flag,
// from $KUBECONFIG or from the root render wrote, refuses one that is a
// device, a FIFO no writer opens, a file over the cap or (the root's) a
// link off the root, and so for each file the kubeconfig names, within its
// --timeout, under the memory ceiling, with the code its --help documents
// for an unusable kubeconfig, naming the file and the field. An exec
// plugin of the user's kubeconfig runs but is killed at the deadline or at
// the output cap; one of the root's never runs. The commands come from
// the CLI (hostileCommands), so a new command with --kubeconfig is covered.

// kubeFrom is where the command finds the kubeconfig.
type kubeFrom string

const (
	kubeFlag kubeFrom = "flag"
	kubeEnv  kubeFrom = "env"
	kubeRoot kubeFrom = "root"
)

// kubeField is where the hostile file sits: the kubeconfig itself, or a
// file it names (key, as errors name it; cluster and user as YAML with %s
// for the path).
type kubeField struct{ key, cluster, user string }

var kubeFields = []kubeField{
	{"itself", "", "token: t"},
	{"clusters[c].certificate-authority", ", certificate-authority: %s", "token: t"},
	{"users[u].client-certificate", "", "client-certificate: %s, client-key-data: S0VZ"},
	{"users[u].client-key", "", "client-certificate-data: Q0VSVA==, client-key: %s"},
	{"users[u].token-file", "", "tokenFile: %s"},
}

// What each hostile file is, and what its refusal says. A device under the
// root is reached through a link to /dev/zero: making one would need
// mknod.
var kubeKinds = map[kubeFrom][]string{
	kubeFlag: {"devzero", "fifo", "oversized"},
	kubeEnv:  {"devzero", "fifo", "oversized"},
	kubeRoot: {"fifo", "oversized", "link"},
}

var kubeKindSays = map[string]string{
	"devzero":   "is a character device, not a file",
	"fifo":      "no writer opened before the deadline passed",
	"oversized": "larger than the 1 MiB cap for a kubeconfig or a file it names",
	"link":      "is a symbolic link",
	"rootfifo":  "is a FIFO (named pipe), not a regular file",
	"dirlink":   "opt/openshift/auth is a symbolic link",
}

// kubePlugins are exec plugins that never give a credential in time: each
// is killed, or (the root's) never run. marker writes a file first.
var kubePlugins = map[string]string{
	"sleeps": "sleep 600 & sleep 600",
	"floods": "yes",
	"marker": "touch \"$MARKER\"; exec sleep 600",
}

// TestHostileKubeconfigs runs the built binary of every command with
// --kubeconfig against every hostile kubeconfig and plugin.
func TestHostileKubeconfigs(t *testing.T) {
	cmds := hostileCommands()
	classifyHostile(t, cmds)
	bin := tooltest.BuildSelf(t, t.TempDir())
	template := hostRenderedRoot(t)
	for _, c := range cmds {
		if !c.kube() {
			continue
		}
		row := endpointRow(c)
		checkHostileSays(t, c, row.badKube, row.badKubeSays)
		for _, from := range []kubeFrom{kubeFlag, kubeEnv, kubeRoot} {
			for _, kind := range kubeKinds[from] {
				for _, f := range kubeFields {
					t.Run(fmt.Sprintf("%s/%s/%s/%s", c.name, from, kind, f.key), func(t *testing.T) {
						t.Parallel()
						runKubeFileCase(t, bin, c, row, copyRoot(t, template), from, kind, f)
					})
				}
			}
			for name := range kubePlugins {
				t.Run(fmt.Sprintf("%s/%s/plugin/%s", c.name, from, name), func(t *testing.T) {
					t.Parallel()
					runKubePluginCase(t, bin, c, row, copyRoot(t, template), from, name)
				})
			}
		}
		t.Run(c.name+"/root/dirlink", func(t *testing.T) {
			t.Parallel()
			root := copyRoot(t, template)
			auth := filepath.Join(root, filepath.Dir(hostlayout.AdminKubeconfig))
			outside := filepath.Join(t.TempDir(), "auth")
			kubeWrite(t, filepath.Join(outside, "kubeconfig"), kubeText(kubeFields[0], ""))
			if err := os.RemoveAll(auth); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, auth); err != nil {
				t.Fatal(err)
			}
			runKubeChild(t, bin, c, row, root, kubeRoot, "", auth, kubeKindSays["dirlink"], "")
		})
	}
}

// runKubeFileCase puts a file of kind at f (the kubeconfig or a file it
// names), finds the kubeconfig from from, and runs the command.
func runKubeFileCase(t *testing.T, bin string, c hostileCommand, row hostileEndpointRow, root string, from kubeFrom, kind string, f kubeField) {
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	bad := filepath.Join(t.TempDir(), "bad")
	named := bad // as the kubeconfig names it
	if from == kubeRoot {
		kc = filepath.Join(root, hostlayout.AdminKubeconfig)
		bad, named = filepath.Join(root, "opt/openshift/tls/bad"), "/opt/openshift/tls/bad" // the root's /
	}
	if f.key == "itself" {
		bad = kc
	} else {
		kubeWrite(t, kc, kubeText(f, named))
	}
	says := kubeKindSays[kind]
	switch kind {
	case "devzero":
		bad = "/dev/zero"
		if f.key == "itself" {
			kc = bad
		} else {
			kubeWrite(t, kc, kubeText(f, bad))
		}
	case "fifo":
		kubeFIFO(t, bad)
		if from == kubeRoot {
			says = kubeKindSays["rootfifo"]
		}
	case "oversized":
		kubeSparse(t, bad, 1<<30)
	case "link":
		kubeWrite(t, bad, "")
		os.Remove(bad)
		if err := os.Symlink("/dev/zero", bad); err != nil {
			t.Fatal(err)
		}
	}
	field := ""
	if f.key != "itself" {
		field = f.key
	}
	runKubeChild(t, bin, c, row, root, from, kc, bad, says, field)
}

// runKubePluginCase gives the kubeconfig an exec plugin that never answers
// in time.
func runKubePluginCase(t *testing.T, bin string, c hostileCommand, row hostileEndpointRow, root string, from kubeFrom, name string) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	script := filepath.Join(dir, "plugin.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nMARKER="+marker+"\n"+kubePlugins[name]+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	kc := filepath.Join(dir, "kubeconfig")
	if from == kubeRoot {
		kc = filepath.Join(root, hostlayout.AdminKubeconfig)
	}
	// a bare command, looked up in $PATH, so the root's would run as the
	// user's does if it were not refused
	user := `exec: {command: sh, args: ["` + script + `"], apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}`
	kubeWrite(t, kc, kubeText(kubeField{user: user}, ""))
	says := map[string]string{"sleeps": "had not finished when the deadline passed", "floods": "more than the 1 MiB cap on its standard output",
		"marker": "had not finished when the deadline passed"}[name]
	if from == kubeRoot {
		says = "pass the file with --kubeconfig"
	}
	runKubeChild(t, bin, c, row, root, from, kc, kc, says, "users[u].exec")
	_, err := os.Stat(marker)
	switch {
	case from == kubeRoot && err == nil:
		t.Errorf("%s ran the exec plugin of the root's kubeconfig: it wrote %s", c.name, marker)
	case from != kubeRoot && name == "marker" && err != nil:
		t.Errorf("%s did not run the exec plugin of the user's kubeconfig (%v): it must run it, bounded", c.name, err)
	}
}

// runKubeChild runs the command with the kubeconfig kc found from from and
// asserts the refusal: in time, in memory, the documented code, naming
// bad and field.
func runKubeChild(t *testing.T, bin string, c hostileCommand, row hostileEndpointRow, root string, from kubeFrom, kc, bad, says, field string) {
	t.Helper()
	args := append([]string{c.name, "--root", root, "--timeout", hostileTimeout.String()}, row.kube...)
	var env []string
	switch from {
	case kubeFlag:
		args = append(args, "--kubeconfig", kc)
	case kubeEnv:
		env = []string{"KUBECONFIG=" + filepath.Join(t.TempDir(), "missing") + string(filepath.ListSeparator) + kc}
	}
	bound := hostileTimeout + hostileSlack
	got := runHostileChildEnv(t, bin, args, env, nil, bound)
	name := fmt.Sprintf("`konnectivity-bundle %s` (kubeconfig from %s)", strings.Join(args, " "), from)
	got.assert(t, name, bound, "--timeout "+hostileTimeout.String(), row.badKube)
	got.stderr.mu.Lock()
	stderr := string(got.stderr.buf)
	got.stderr.mu.Unlock()
	for _, want := range []string{bad, says, field} {
		if !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr does not say %q:\n%s", name, want, stderr)
		}
	}
}

// kubeText is a kubeconfig whose field f names path; its server refuses.
func kubeText(f kubeField, path string) string {
	return "apiVersion: v1\nkind: Config\ncurrent-context: x\n" +
		"contexts: [{name: x, context: {cluster: c, user: u}}]\n" +
		"clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"" + strings.ReplaceAll(f.cluster, "%s", path) + "}}]\n" +
		"users: [{name: u, user: {" + strings.ReplaceAll(f.user, "%s", path) + "}}]\n"
}

func kubeWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// kubeFIFO makes a FIFO at path that no writer ever opens.
func kubeFIFO(t *testing.T, path string) {
	t.Helper()
	os.Remove(path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// kubeSparse makes a sparse file of size bytes at path: a reader that
// holds it whole breaks the memory ceiling.
func kubeSparse(t *testing.T, path string, size int64) {
	t.Helper()
	if size <= inputread.Kubeconfig.Cap {
		t.Fatalf("a file of %d bytes is not over the cap", size)
	}
	kubeWrite(t, path, "")
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// copyRoot is a copy of the rendered root template, for one case to
// change: rendering one per case would take minutes on 2 cores.
func copyRoot(t *testing.T, template string) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-a", template+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copy the rendered root: %v\n%s", err, out)
	}
	return dst
}
