package kuberead

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientauthv1 "k8s.io/client-go/pkg/apis/clientauthentication/v1"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// The ExecCredential protocol (client.authentication.k8s.io) as kubectl
// speaks it: the versions it still runs, the variable that carries the
// request, the cluster extension handed to the plugin.
const (
	execV1         = "client.authentication.k8s.io/v1"
	execV1beta1    = "client.authentication.k8s.io/v1beta1"
	execInfoEnv    = "KUBERNETES_EXEC_INFO"
	execExtKey     = "client.authentication.k8s.io/exec"
	maxPluginErr   = 16 << 10 // of its stderr, kept
	shownPluginErr = 2 << 10  // of that, shown in the error
	// pluginWaitDelay is how long a plugin's output may stay open after it
	// was killed or exited (a grandchild holding it) before it is cut.
	pluginWaitDelay = time.Second
)

// runPlugin runs the exec plugin e of a kubeconfig at origin as client-go
// would, but within ctx: its process group is killed when ctx ends, its
// stdout is held to inputread.Kubeconfig's cap and its stderr to
// maxPluginErr (escaped when shown). Standard input is never the plugin's:
// the tool has no terminal to lend, so a plugin that must have one
// (interactiveMode Always) is refused unrun.
func runPlugin(ctx context.Context, src source, origin string, e *clientcmdapi.ExecConfig, cluster *clientcmdapi.Cluster) (*clientauthv1.ExecCredentialStatus, error) {
	info, err := execInfo(e, cluster)
	if err != nil {
		return nil, err
	}
	command := e.Command
	if strings.ContainsRune(command, filepath.Separator) { // as client-go resolves it; a bare name is looked up in $PATH
		if command, err = src.resolve(origin, command); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdout := &cappedBuffer{max: inputread.Kubeconfig.Cap, full: cancel}
	stderr := &cappedBuffer{max: maxPluginErr}
	cmd := exec.CommandContext(ctx, command, e.Args...)
	cmd.Env = append(os.Environ(), execInfoEnv+"="+string(info))
	for _, v := range e.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = pluginWaitDelay
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left running in its group
	}
	switch {
	case stdout.over:
		return nil, fmt.Errorf("exec plugin %s wrote more than the %d MiB cap on its standard output; it was killed", command, inputread.Kubeconfig.Cap>>20)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("exec plugin %s had not finished when the deadline passed (the command's --timeout); it was killed%s", command, stderr.said())
	case err != nil:
		return nil, fmt.Errorf("exec plugin %s: %w%s", command, err, stderr.said())
	}
	return execStatus(e.APIVersion, stdout.buf.Bytes())
}

// execInfo is KUBERNETES_EXEC_INFO: an ExecCredential of the plugin's
// version, not interactive, with the cluster when the kubeconfig asks.
func execInfo(e *clientcmdapi.ExecConfig, cluster *clientcmdapi.Cluster) ([]byte, error) {
	switch {
	case e.APIVersion != execV1 && e.APIVersion != execV1beta1:
		return nil, fmt.Errorf("exec apiVersion %q is not one kubectl runs: use %s (or %s)", e.APIVersion, execV1, execV1beta1)
	case e.InteractiveMode == clientcmdapi.AlwaysExecInteractiveMode:
		return nil, fmt.Errorf("exec plugin %s has interactiveMode Always, which needs a terminal on standard input; this tool gives a plugin none: "+
			"set interactiveMode IfAvailable or Never, or pass a kubeconfig with static credentials", e.Command)
	case e.APIVersion == execV1 && e.InteractiveMode == "":
		return nil, errors.New("exec interactiveMode must be set for apiVersion " + execV1 + " (Never or IfAvailable)")
	}
	cred := clientauthv1.ExecCredential{Spec: clientauthv1.ExecCredentialSpec{Interactive: false}}
	cred.APIVersion, cred.Kind = e.APIVersion, "ExecCredential"
	if e.ProvideClusterInfo {
		cred.Spec.Cluster = &clientauthv1.Cluster{
			Server: cluster.Server, TLSServerName: cluster.TLSServerName, InsecureSkipTLSVerify: cluster.InsecureSkipTLSVerify,
			CertificateAuthorityData: cluster.CertificateAuthorityData, ProxyURL: cluster.ProxyURL, DisableCompression: cluster.DisableCompression,
		}
		if ext, ok := cluster.Extensions[execExtKey]; ok {
			cred.Spec.Cluster.Config = rawExtension(ext)
		}
	}
	return json.Marshal(cred)
}

// rawExtension carries a cluster extension as the kubeconfig held it.
func rawExtension(o runtime.Object) runtime.RawExtension {
	if u, ok := o.(*runtime.Unknown); ok {
		return runtime.RawExtension{Raw: u.Raw}
	}
	return runtime.RawExtension{Object: o}
}

// execStatus reads the plugin's answer as client-go checks it: the
// version asked for, a status with a token or a certificate and key.
func execStatus(version string, out []byte) (*clientauthv1.ExecCredentialStatus, error) {
	var cred struct {
		APIVersion string                             `json:"apiVersion"`
		Kind       string                             `json:"kind"`
		Status     *clientauthv1.ExecCredentialStatus `json:"status"`
	}
	if err := json.Unmarshal(out, &cred); err != nil {
		return nil, fmt.Errorf("exec plugin's output is not an ExecCredential: %w", err)
	}
	s := cred.Status
	switch {
	case cred.APIVersion != version || cred.Kind != "ExecCredential":
		return nil, fmt.Errorf("exec plugin returned %s %s, want ExecCredential of %s", textsafe.Excerpt(cred.APIVersion, 80), textsafe.Excerpt(cred.Kind, 80), version)
	case s == nil:
		return nil, errors.New("exec plugin returned no status")
	case s.Token == "" && s.ClientCertificateData == "":
		return nil, errors.New("exec plugin returned no token and no client certificate")
	case (s.ClientCertificateData == "") != (s.ClientKeyData == ""):
		return nil, errors.New("exec plugin returned a client certificate or key without the other")
	}
	return s, nil
}

// cappedBuffer keeps what is written up to max bytes; past it, it calls
// full (to kill the writer) and fails the write. The buffer is a field, not
// embedded: an embedded bytes.Buffer's ReadFrom would let io.Copy write
// past Write, and past the cap.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int64
	over bool
	full func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if left := b.max - int64(b.buf.Len()); int64(len(p)) > left {
		b.buf.Write(p[:max(left, 0)])
		if b.full != nil {
			b.over = true
			b.full()
			return 0, errors.New("over the cap")
		}
		return len(p), nil // stderr: the rest is dropped, the plugin goes on
	}
	return b.buf.Write(p)
}

// said is what the plugin wrote on stderr, for an error, escaped.
func (b *cappedBuffer) said() string {
	s := strings.TrimSpace(b.buf.String())
	if s == "" {
		return ""
	}
	return "; it said: " + textsafe.Excerpt(s, shownPluginErr)
}
