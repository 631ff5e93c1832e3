package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// TestKubeconfigLookup: every command that reads the kube-apiserver finds
// its kubeconfig by the one rule (--kubeconfig, "" for none, then
// $KUBECONFIG through the command's environment, then the rendered root's
// admin kubeconfig; never ~/.kube/config) and says which it read and from
// where, or why none: status in text and JSON, wait in text and JSON,
// probe --webhooks on stderr, teardown in its text.
func TestKubeconfigLookup(t *testing.T) {
	t.Setenv("KUBECONFIG", "/the/developer's/kubeconfig") // must not leak in: the IO's environment is the one read
	t.Setenv("HOME", t.TempDir())
	server := fakekas.Serve(t, http.StatusNotFound, "")
	fromEnv := fakekas.Kubeconfig(t, "", server)
	fromFlag := fakekas.Kubeconfig(t, "", server)
	root := hostRenderedRoot(t)
	admin := filepath.Join(root, "opt/openshift/auth/kubeconfig")
	none := "no kubeconfig: none found: no --kubeconfig, $KUBECONFIG unset, no " + admin
	for _, tc := range []struct {
		name  string
		env   map[string]string
		args  []string
		admin bool // the root holds an admin kubeconfig
		want  string
		paths []string
		from  string
	}{
		{"flag wins", map[string]string{"KUBECONFIG": fromEnv}, []string{"--kubeconfig", fromFlag}, true, "kubeconfig: " + fromFlag + " (from --kubeconfig)", []string{fromFlag}, "--kubeconfig"},
		{"explicit empty reads no cluster", map[string]string{"KUBECONFIG": fromEnv}, []string{"--kubeconfig", ""}, true, `no kubeconfig: --kubeconfig "" given: the cluster is not read`, nil, ""},
		{"$KUBECONFIG", map[string]string{"KUBECONFIG": fromEnv}, nil, true, "kubeconfig: " + fromEnv + " (from $KUBECONFIG)", []string{fromEnv}, "$KUBECONFIG"},
		{"the root's admin kubeconfig", nil, nil, true, "kubeconfig: " + admin + " (from --root's admin kubeconfig)", []string{admin}, "--root's admin kubeconfig"},
		{"none", nil, nil, false, none, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(admin)
			if tc.admin {
				fakekas.Kubeconfig(t, admin, server)
			}
			run := func(args ...string) (int, string, string) {
				return runProgram(t, New(Config{}), tc.env, append(args, tc.args...)...)
			}
			_, out, stderr := run("status", "--root", root, "-o", "json")
			var rep struct {
				Kubeconfig struct {
					Paths      []string
					From, None string
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("status -o json: %v\n%s%s", err, out, stderr)
			}
			if k := rep.Kubeconfig; strings.Join(k.Paths, ",") != strings.Join(tc.paths, ",") || k.From != tc.from || (tc.paths == nil) != (k.None != "") {
				t.Errorf("status json kubeconfig %+v; want paths %v from %q", k, tc.paths, tc.from)
			}
			says := func(name, out, want string) {
				t.Helper()
				if !strings.HasPrefix(out, want+"\n") && !strings.Contains(out, "\n"+want+"\n") {
					t.Errorf("%s does not say %q:\n%s", name, want, out)
				}
			}
			_, stdout, _ := run("status", "--root", root)
			says("status", stdout, tc.want)
			_, stdout, _ = run("wait", "--root", root, "--timeout", "50ms")
			says("wait", stdout, tc.want)
			gone := hostRenderedRoot(t) // teardown's own root, with an admin kubeconfig when root has one
			if tc.admin {
				fakekas.Kubeconfig(t, filepath.Join(gone, "opt/openshift/auth/kubeconfig"), server)
			}
			_, stdout, _ = run("teardown", "--root", gone, "--timeout", "2s")
			says("teardown", stdout, strings.ReplaceAll(tc.want, root, gone))
			_, stdout, stderr = run("wait", "--root", root, "--timeout", "50ms", "-o", "json")
			if !strings.Contains(stdout, `"kubeconfig": {`) {
				t.Errorf("wait -o json lacks the kubeconfig:\n%s%s", stdout, stderr)
			}
			code, _, stderr := run("probe", "--root", root, "--webhooks")
			switch {
			case tc.paths == nil && (code != exitUsage || !strings.Contains(stderr, tc.want)):
				t.Errorf("probe --webhooks without a kubeconfig: exit %d, stderr:\n%s; want a usage error saying %q", code, stderr, tc.want)
			case tc.paths != nil && !strings.Contains(stderr, tc.want+"\n"):
				t.Errorf("probe --webhooks: exit %d, stderr lacks %q:\n%s", code, tc.want, stderr)
			}
		})
	}
}

// TestACutListIsNamed: a list longer than the cap on items is read up to
// the cap, and status says so in text and JSON, wait in its JSON.
func TestACutListIsNamed(t *testing.T) {
	root := hostRenderedRoot(t)
	kc := fakeAPIServerEvents(t, root, false, kuberead.DefaultMaxItems+1)
	env := map[string]string{"KUBECONFIG": "/not/read"}
	want := "list cut: events in namespace openshift-bootstrap-konnectivity: only the first 5000 were read"
	_, stdout, stderr := runProgram(t, New(Config{}), env, "status", "--root", root, "--kubeconfig", kc)
	if !strings.Contains(stdout, "\n  "+want) {
		t.Errorf("status does not name the cut list:\n%s%s", stdout, stderr)
	}
	for _, args := range [][]string{{"status", "--root", root}, {"wait", "--root", root, "--timeout", "300ms"}} {
		_, stdout, stderr = runProgram(t, New(Config{}), env, append(args, "--kubeconfig", kc, "-o", "json")...)
		var rep struct {
			Kubeconfig kuberead.Used `json:"kubeconfig"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s -o json: %v\n%s%s", args[0], err, stdout, stderr)
		}
		if cut := rep.Kubeconfig.Cut; len(cut) != 1 || cut[0] != (kuberead.Cut{Resource: "events", Namespace: "openshift-bootstrap-konnectivity", Kept: kuberead.DefaultMaxItems}) {
			t.Errorf("%s -o json: kubeconfig %+v; want the events list cut at %d", args[0], rep.Kubeconfig, kuberead.DefaultMaxItems)
		}
	}
}
