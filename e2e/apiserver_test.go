//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// apiserver is a running etcd + kube-apiserver pair on a namespace's loopback.
type apiserver struct {
	ns, dir, url, token string
	proc                *proctest.Proc
	cfg                 *rest.Config
	client              *kubernetes.Clientset
}

// startAPIServer starts etcd and kube-apiserver inside ns. advertise is the
// address the apiserver announces (loopback is refused for the kubernetes
// Service); extra flags are appended (the egress selector file).
func startAPIServer(t *testing.T, ns, name string, fam family, advertise string, extra ...string) *apiserver {
	t.Helper()
	dir := filepath.Join(testDir(t), name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	startEtcd(t, ns, name+"-etcd", dir)
	token := "e2e-admin-token"
	writeFiles(t, dir, map[string][]byte{
		"tokens.csv": []byte(token + ",e2e-admin,e2e-admin,system:masters\n"),
		"sa.key":     rsaKeyPEM(t),
	})
	a := &apiserver{ns: ns, dir: dir, token: token, url: "https://" + net.JoinHostPort(fam.loopback, "6443")}
	args := []string{tool(t, "kube-apiserver"),
		"--etcd-servers=http://127.0.0.1:2379",
		"--bind-address=" + fam.loopback, "--secure-port=6443", "--advertise-address=" + advertise,
		"--cert-dir=" + filepath.Join(dir, "serving"),
		"--token-auth-file=" + filepath.Join(dir, "tokens.csv"), "--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + filepath.Join(dir, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range=" + fam.serviceCIDR,
		// Webhook calls go to the EndpointSlice's pod IP, not the ClusterIP
		// (no kube-proxy here), the same path through the tunnel either way.
		"--enable-aggregator-routing=true",
		"--enable-priority-and-fairness=false",
		"--v=2",
	}
	a.proc = proctest.Start(t, proctest.Spec{NS: ns, Name: name, LogDir: dir, Argv: append(args, extra...)})
	a.cfg = &rest.Config{Host: a.url, BearerToken: token, Dial: nsDialer(ns), QPS: 1000, Burst: 1000,
		Timeout: 15 * time.Second, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}
	var err error
	if a.client, err = kubernetes.NewForConfig(a.cfg); err != nil {
		t.Fatal(err)
	}
	a.waitReady(t, name)
	return a
}

// startEtcd runs a single-member etcd on the namespace's IPv4 loopback.
func startEtcd(t *testing.T, ns, name, dir string) {
	t.Helper()
	p := proctest.Start(t, proctest.Spec{NS: ns, Name: name, LogDir: dir, Argv: append([]string{tool(t, "etcd"),
		"--name=e2e", "--data-dir=" + filepath.Join(dir, "etcd"), "--log-level=warn", "--unsafe-no-fsync",
		"--listen-client-urls=http://127.0.0.1:2379", "--advertise-client-urls=http://127.0.0.1:2379",
		"--listen-peer-urls=http://127.0.0.1:2380", "--initial-advertise-peer-urls=http://127.0.0.1:2380",
		"--initial-cluster=e2e=http://127.0.0.1:2380"}, etcdLoadFlags...)})
	waitEtcd(t, ns, p)
}

// waitReady polls /readyz until the apiserver answers ok (bounded).
func (a *apiserver) waitReady(t *testing.T, name string) {
	t.Helper()
	took, err := eventually(startWait, 250*time.Millisecond, func() error {
		if !a.proc.Running() {
			return fmt.Errorf("the kube-apiserver of pair %s exited: %v", kasPair, a.proc.Err())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := a.client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		return err
	})
	if err != nil {
		t.Fatalf("%s (kube-apiserver %s, pair %s) not ready: %v\n%s", name, kasPair.KubeAPIServer, kasPair, err, a.proc.Tail(20))
	}
	t.Logf("%s ready %v after start", name, took.Round(time.Millisecond))
}

// kubeconfig writes a kubeconfig for commands run inside the namespace.
func (a *apiserver) kubeconfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(a.dir, "kubeconfig")
	writeFiles(t, a.dir, map[string][]byte{"kubeconfig": []byte(kubeconfigFor(a.url, a.token))})
	return p
}

// kubeconfigFor is a kubeconfig with the admin token for an apiserver URL.
func kubeconfigFor(url, token string) string {
	return strings.Join([]string{"apiVersion: v1", "kind: Config",
		"clusters:", "- name: e2e", fmt.Sprintf("  cluster: {server: %q, insecure-skip-tls-verify: true}", url),
		"users:", "- name: e2e", fmt.Sprintf("  user: {token: %q}", token),
		"contexts:", "- name: e2e", "  context: {cluster: e2e, user: e2e}",
		"current-context: e2e", ""}, "\n")
}

func rsaKeyPEM(t *testing.T) []byte {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
}
