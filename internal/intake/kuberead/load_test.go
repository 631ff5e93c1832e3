package kuberead

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
)

// kubeconfigText is a kubeconfig with one context, cluster c and user u;
// cluster and user are the YAML of each entry's body.
func kubeconfigText(cluster, user string) string {
	return "apiVersion: v1\nkind: Config\ncurrent-context: x\n" +
		"contexts: [{name: x, context: {cluster: c, user: u}}]\n" +
		"clusters: [{name: c, cluster: {server: \"https://192.0.2.1:6443\"" + cluster + "}}]\n" +
		"users: [{name: u, user: {" + user + "}}]\n"
}

func writeText(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMergeAsClientGo: $KUBECONFIG's files merge as client-go's own
// loading rules merge them, compared over the same files: entries and
// values from the first file that has them.
func TestMergeAsClientGo(t *testing.T) {
	dir := t.TempDir()
	a := writeText(t, filepath.Join(dir, "a"), "apiVersion: v1\nkind: Config\ncurrent-context: a\npreferences: {colors: false}\n"+
		"clusters: [{name: c, cluster: {server: \"https://a\"}}]\ncontexts: [{name: a, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {token: ta}}]\n")
	b := writeText(t, filepath.Join(dir, "b"), "apiVersion: v1\nkind: Config\ncurrent-context: b\npreferences: {colors: true}\n"+
		"clusters: [{name: c, cluster: {server: \"https://b\", insecure-skip-tls-verify: true}}, {name: d, cluster: {server: \"https://d\"}}]\n"+
		"contexts: [{name: b, context: {cluster: d, user: v}}]\nusers: [{name: u, user: {token: tb}}, {name: v, user: {token: tv}}]\n")
	noCurrent := writeText(t, filepath.Join(dir, "none"), "apiVersion: v1\nkind: Config\nusers: [{name: w, user: {token: tw}}]\n")
	empty := writeText(t, filepath.Join(dir, "empty"), "")
	for _, tc := range []struct {
		name  string
		files []string
	}{
		{"first wins", []string{a, b}},
		{"other order", []string{b, a}},
		{"first sets no current-context", []string{noCurrent, b, a}},
		{"an empty file", []string{empty, a}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := (&clientcmd.ClientConfigLoadingRules{Precedence: tc.files, DoNotResolvePaths: true}).Load()
			if err != nil {
				t.Fatal(err)
			}
			l := &loaded{src: userFiles{}, names: tc.files}
			configs := make([]*clientcmdapi.Config, 0, len(tc.files))
			for _, f := range tc.files {
				c, err := l.readOne(context.Background(), f)
				if err != nil {
					t.Fatal(err)
				}
				configs = append(configs, c)
			}
			if got := mergeFirstWins(configs); !reflect.DeepEqual(got, want) {
				t.Errorf("merged:\n%#v\nclient-go:\n%#v", got, want)
			}
		})
	}
}

// TestInline: every file the current context's cluster and user name is
// read into the config, relative paths against the kubeconfig's directory
// as client-go resolves them, and no path is left; entries of other
// contexts are dropped unread.
func TestInline(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "tls", "ca.crt"), "CA")
	writeText(t, filepath.Join(dir, "tls", "client.crt"), "CERT")
	abs := writeText(t, filepath.Join(t.TempDir(), "client.key"), "KEY")
	writeText(t, filepath.Join(dir, "token"), "  TOKEN\n")
	for _, tc := range []struct {
		name, cluster, user string
		ca, cert, key       string
		token               string
	}{
		{"files relative and absolute", ", certificate-authority: tls/ca.crt", "client-certificate: tls/client.crt, client-key: " + abs, "CA", "CERT", "KEY", ""},
		{"token file trimmed, over a token", "", "token: old, tokenFile: token", "", "", "", "TOKEN"},
		{"inline data kept", ", certificate-authority-data: Q0E=", "client-certificate-data: Q0VSVA==, client-key-data: S0VZ", "CA", "CERT", "KEY", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(kubeconfigText(tc.cluster, tc.user), "users: [", "users: [{name: other, user: {tokenFile: /dev/zero}}, ", 1)
			kc := writeText(t, filepath.Join(dir, "kubeconfig"), text)
			cfg, err := loadConfig(context.Background(), Choice{Paths: []string{kc}, From: fromFlag})
			if err != nil {
				t.Fatal(err)
			}
			c, u := cfg.Clusters["c"], cfg.AuthInfos["u"]
			if string(c.CertificateAuthorityData) != tc.ca || string(u.ClientCertificateData) != tc.cert || string(u.ClientKeyData) != tc.key || u.Token != tc.token && tc.token != "" {
				t.Errorf("inlined ca %q cert %q key %q token %q; want %q %q %q %q", c.CertificateAuthorityData, u.ClientCertificateData, u.ClientKeyData, u.Token, tc.ca, tc.cert, tc.key, tc.token)
			}
			for _, ref := range clientcmd.GetConfigFileReferences(cfg) {
				if *ref != "" {
					t.Errorf("a path is left for client-go: %q", *ref)
				}
			}
			if len(cfg.AuthInfos) != 1 || len(cfg.Clusters) != 1 || len(cfg.Contexts) != 1 {
				t.Errorf("entries the context does not use were kept: %d users, %d clusters, %d contexts", len(cfg.AuthInfos), len(cfg.Clusters), len(cfg.Contexts))
			}
		})
	}
}

// hostileFile makes one input that must be refused: a device, a FIFO that
// no writer ever opens, a regular file over the cap (sparse).
func hostileFile(t *testing.T, kind string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), kind)
	switch kind {
	case "device":
		return "/dev/zero"
	case "fifo":
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatalf("mkfifo: %v", err)
		}
		t.Cleanup(func() { // frees the open left waiting for a writer
			if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		})
	case "stalled": // a writer opens it and never writes nor closes
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatalf("mkfifo: %v", err)
		}
		held := make(chan *os.File, 1)
		go func() {
			w, _ := os.OpenFile(p, os.O_WRONLY, 0)
			held <- w
		}()
		t.Cleanup(func() {
			if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close() // a writer still waiting for a reader goes on
			}
			if w := <-held; w != nil {
				w.Close()
			}
		})
	case "oversized":
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, inputread.Kubeconfig.Cap+1); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// hostileWhy is what the refusal of each kind of file says.
var hostileWhy = map[string]struct {
	is  error
	say string
}{
	"device":    {nil, "is a character device, not a file"},
	"fifo":      {inputread.ErrNoEnd, "a FIFO no writer opened before the deadline passed"},
	"stalled":   {inputread.ErrNoEnd, "had not ended when the deadline passed"},
	"oversized": {inputread.ErrTooLarge, "larger than the 1 MiB cap for a kubeconfig or a file it names"},
}

// TestRefused: a device, a FIFO that never writes and a file over the cap
// are refused within the deadline, as the kubeconfig itself and as each
// file it names, the error naming the file and the field.
func TestRefused(t *testing.T) {
	fields := []struct{ key, cluster, user string }{
		{"kubeconfig itself", "", ""},
		{"clusters[c].certificate-authority", ", certificate-authority: %s", "token: t"},
		{"users[u].client-certificate", "", "client-certificate: %s, client-key-data: S0VZ"},
		{"users[u].client-key", "", "client-certificate-data: Q0VSVA==, client-key: %s"},
		{"users[u].token-file", "", "tokenFile: %s"},
	}
	for _, kind := range []string{"device", "fifo", "stalled", "oversized"} {
		for _, f := range fields {
			t.Run(kind+"/"+f.key, func(t *testing.T) {
				bad := hostileFile(t, kind)
				kc := bad
				if f.cluster != "" || f.user != "" {
					kc = writeText(t, filepath.Join(t.TempDir(), "kubeconfig"), kubeconfigText(strings.ReplaceAll(f.cluster, "%s", bad), strings.ReplaceAll(f.user, "%s", bad)))
				}
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				_, err := Open(ctx, Choice{Paths: []string{kc}, From: fromFlag}, Within(time.Minute))
				why := hostileWhy[kind]
				if err == nil || why.is != nil && !errors.Is(err, why.is) || !strings.Contains(err.Error(), why.say) || !strings.Contains(err.Error(), bad) {
					t.Fatalf("got %v; want a refusal naming %s and saying %q", err, bad, why.say)
				}
				if f.key != "kubeconfig itself" && !strings.Contains(err.Error(), f.key+": ") {
					t.Errorf("%v does not name the field %s", err, f.key)
				}
			})
		}
	}
}
