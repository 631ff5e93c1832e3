package kuberead

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/adminkubeconfig"
)

// plugin writes an exec plugin script into dir and returns its path.
func plugin(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// execUser is the user body of a kubeconfig whose credentials come from
// command, speaking version.
func execUser(command, version, more string) string {
	return `exec: {command: "` + command + `", apiVersion: ` + version + `, args: [one, two], env: [{name: PLUGIN_ENV, value: set}]` + more + `}`
}

// TestExecPlugin: a plugin the user's kubeconfig names runs as kubectl runs
// it (its args and env, KUBERNETES_EXEC_INFO with the cluster when asked,
// a command with a separator relative to the kubeconfig), and its token or
// certificate and key become static credentials with no exec stanza left;
// one that sleeps, floods its output, answers wrongly or needs a terminal
// is refused, named, within the deadline.
func TestExecPlugin(t *testing.T) {
	const credential = `printf '{"apiVersion":"%s","kind":"ExecCredential","status":{%s}}' "$VERSION" "$STATUS"`
	for _, tc := range []struct {
		name, version, more, script string
		token, cert, key            string
		err                         string
	}{
		{"v1 token", "client.authentication.k8s.io/v1", ", interactiveMode: Never", `VERSION=client.authentication.k8s.io/v1 STATUS='"token":"tok"'; ` + credential, "tok", "", "", ""},
		{"v1beta1 cert and key", "client.authentication.k8s.io/v1beta1", "", `VERSION=client.authentication.k8s.io/v1beta1 STATUS='"clientCertificateData":"C","clientKeyData":"K"'; ` + credential, "", "C", "K", ""},
		{"args, env and cluster info reach it", "client.authentication.k8s.io/v1", ", interactiveMode: IfAvailable, provideClusterInfo: true",
			`[ "$1 $2 $PLUGIN_ENV" = "one two set" ] || exit 3; case "$KUBERNETES_EXEC_INFO" in *'"server":"https://192.0.2.1:6443"'*'"interactive":false'*|*'"interactive":false'*'"server":"https://192.0.2.1:6443"'*) ;; *) echo "no cluster: $KUBERNETES_EXEC_INFO" >&2; exit 4;; esac; ` +
				`VERSION=client.authentication.k8s.io/v1 STATUS='"token":"ok"'; ` + credential, "ok", "", "", ""},
		{"sleeps", "client.authentication.k8s.io/v1", ", interactiveMode: Never", `sleep 60 & sleep 60`, "", "", "", "had not finished when the deadline passed"},
		{"floods its output", "client.authentication.k8s.io/v1", ", interactiveMode: Never", `yes`, "", "", "", "more than the 1 MiB cap on its standard output"},
		{"fails, its stderr escaped", "client.authentication.k8s.io/v1", ", interactiveMode: Never", `printf 'denied\033[31m\n' >&2; exit 5`, "", "", "", `exit status 5; it said: denied\x1b[31m`},
		{"wrong version", "client.authentication.k8s.io/v1", ", interactiveMode: Never", `VERSION=client.authentication.k8s.io/v1beta1 STATUS='"token":"x"'; ` + credential, "", "", "", "want ExecCredential of client.authentication.k8s.io/v1"},
		{"needs a terminal", "client.authentication.k8s.io/v1", ", interactiveMode: Always", `touch marker`, "", "", "", "interactiveMode Always, which needs a terminal"},
		{"unknown version", "client.authentication.k8s.io/v1alpha1", "", `touch marker`, "", "", "", `exec apiVersion "client.authentication.k8s.io/v1alpha1" is not one kubectl runs`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			plugin(t, filepath.Join(dir), "plug.sh", "cd \""+dir+"\"; "+tc.script)
			kc := writeText(t, filepath.Join(dir, "kubeconfig"), kubeconfigText("", execUser("./plug.sh", tc.version, tc.more)))
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			cfg, err := loadConfig(ctx, Choice{Paths: []string{kc}, From: fromFlag})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "users[u].exec: ") {
					t.Fatalf("got %v; want users[u].exec refused saying %q", err, tc.err)
				}
				if _, serr := os.Stat(filepath.Join(dir, "marker")); serr == nil {
					t.Error("a plugin refused before it runs ran")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			u := cfg.AuthInfos["u"]
			if u.Exec != nil || u.Token != tc.token || string(u.ClientCertificateData) != tc.cert || string(u.ClientKeyData) != tc.key {
				got, _ := json.Marshal(u)
				t.Errorf("user %s; want token %q cert %q key %q and no exec", got, tc.token, tc.cert, tc.key)
			}
		})
	}
}

// TestPluginsNeverRunFromTheRoot: the root's admin kubeconfig's exec
// plugin is refused unrun, saying how to mean it; an auth-provider is
// refused from any kubeconfig.
func TestPluginsNeverRunFromTheRoot(t *testing.T) {
	root := t.TempDir()
	marker := filepath.Join(root, "marker")
	plugin(t, root, "pwn.sh", "touch "+marker)
	// a bare command, looked up in $PATH: it would run if not refused
	writeText(t, filepath.Join(root, "opt/openshift/auth/kubeconfig"), kubeconfigText("",
		`exec: {command: sh, args: ["`+filepath.Join(root, "pwn.sh")+`"], apiVersion: client.authentication.k8s.io/v1beta1}`))
	_, err := loadConfig(context.Background(), Choice{Paths: []string{"x"}, From: fromRoot, Root: adminkubeconfig.In(root)})
	if err == nil || !strings.Contains(err.Error(), "users[u].exec: ") || !strings.Contains(err.Error(), "pass the file with --kubeconfig") {
		t.Errorf("got %v; want the root's plugin refused, saying to pass it with --kubeconfig", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the root's kubeconfig ran its plugin")
	}
	kc := writeText(t, filepath.Join(t.TempDir(), "kubeconfig"), kubeconfigText("", "auth-provider: {name: gcp}"))
	if _, err := loadConfig(context.Background(), Choice{Paths: []string{kc}, From: fromFlag}); err == nil || !strings.Contains(err.Error(), `users[u].auth-provider: auth-provider "gcp" is not supported`) {
		t.Errorf("got %v; want the auth-provider refused", err)
	}
}
