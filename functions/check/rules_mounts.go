package check

import (
	"fmt"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// fileFlag is a flag naming a file the binary reads at start.
type fileFlag struct {
	name string
	cert bool // one of the certificate directory's files
}

var serverFiles = []fileFlag{
	{"cluster-cert", true}, {"cluster-key", true}, {"cluster-ca-cert", true},
	{"server-cert", true}, {"server-key", true}, {"server-ca-cert", true}, {"kubeconfig", false},
}

var agentFiles = []fileFlag{
	{"ca-cert", true}, {"agent-cert", true}, {"agent-key", true},
	{"service-account-token-path", false}, {"kubeconfig", false},
}

// secretKeys are the keys the agent Secret must hold.
var secretKeys = []string{"tls.crt", "tls.key", "ca.crt"}

// checkMounts: every file in the args is inside a mount whose source provides
// it (path-not-mounted, mount-source-missing), and the agent Secret exists and
// is complete (agent-secret-missing, secret-keys-missing).
func checkMounts(b *bundlemodel.Bundle, opts Options, r *report) {
	if b.Server != nil {
		for _, f := range serverFiles {
			checkFileFlag(b, b.Server, f, opts, r)
		}
	}
	if b.Agent != nil {
		for _, f := range agentFiles {
			checkFileFlag(b, b.Agent, f, opts, r)
		}
		checkAgentSecret(b, r)
	}
	checkSecretKeys(b, r)
}

func checkFileFlag(b *bundlemodel.Bundle, w *bundlemodel.Workload, f fileFlag, opts Options, r *report) {
	u, ok := w.Flags.Get(f.name)
	if !ok || u.Value == "" {
		return
	}
	ref := w.Object.Ref()
	m, ok := w.MountFor(u.Value)
	if !ok {
		r.errorf("path-not-mounted", ref, u.Field, "mount the directory holding the file (hostPath for the server, the agent Secret for agents) and name the file below the mount path",
			"--%s=%s is not inside any volumeMount of container %s, so the file does not exist in the container", f.name, u.Value, w.Container().Name)
		return
	}
	if msg := missingSource(b, m, f, opts); msg != "" {
		r.errorf("mount-source-missing", ref, u.Field, "make the volume provide the file, or point the flag at a file it provides",
			"--%s=%s: %s", f.name, u.Value, msg)
	}
}

// missingSource says why the mount does not provide the file, or "".
func missingSource(b *bundlemodel.Bundle, m *bundlemodel.Mount, f fileFlag, opts Options) string {
	v := m.Volume
	switch {
	case v == nil:
		return fmt.Sprintf("volumeMount %q names no volume of the pod", m.Mount.Name)
	case m.Rest == "":
		return fmt.Sprintf("names the mount point of volume %q itself, a directory", v.Name)
	case v.Secret != nil:
		key, ok := secretVolumeKey(m)
		if !ok {
			return fmt.Sprintf("the items of secret volume %q do not project %s", v.Name, m.Rest)
		}
		if b.SecretData != nil && b.Secret.Name == v.Secret.SecretName {
			if _, has := b.SecretKey(key); !has {
				return fmt.Sprintf("Secret %s has no key %s", v.Secret.SecretName, key)
			}
		}
	case v.HostPath != nil:
		if f.cert && opts.CertFiles != nil {
			if _, has := opts.CertFiles[path.Base(m.Rest)]; !has {
				return fmt.Sprintf("the certificate directory has no %s (host file %s)", path.Base(m.Rest), path.Join(v.HostPath.Path, m.Rest))
			}
		}
	case v.EmptyDir != nil:
		return fmt.Sprintf("volume %q is an emptyDir, nothing puts the file there", v.Name)
	}
	return ""
}

// secretVolumeKey is the Secret key a path below a secret volume reads.
func secretVolumeKey(m *bundlemodel.Mount) (string, bool) {
	items := m.Volume.Secret.Items
	if len(items) == 0 {
		return m.Rest, true
	}
	for _, it := range items {
		if path.Clean(it.Path) == m.Rest {
			return it.Key, true
		}
	}
	return "", false
}

func checkAgentSecret(b *bundlemodel.Bundle, r *report) {
	// A bundle without any Secret is normal: the certificates are often
	// generated and added later (render does), so only a mismatch is reported.
	v := b.Agent.SecretVolume()
	if v == nil || b.Secret != nil {
		return
	}
	field := b.Agent.SpecField + ".volumes"
	for _, o := range b.Objects {
		if o.Kind == "Secret" && (o.Name == hostlayout.AgentSecretName || o.Namespace == b.Agent.Object.Namespace) {
			r.errorf("agent-secret-missing", b.Agent.Object.Ref(), field, "make the volume's secretName and the Secret's name the same",
				"the agents mount Secret %q but the bundle's Secret is %s", v.Secret.SecretName, o.Ref())
			return
		}
	}
}

func checkSecretKeys(b *bundlemodel.Bundle, r *report) {
	if b.Secret == nil || b.SecretData == nil {
		return
	}
	for _, k := range secretKeys {
		if _, ok := b.SecretKey(k); !ok {
			r.errorf("secret-keys-missing", b.Secret.Ref(), "data", "the Secret needs tls.crt (agent certificate), tls.key (its key) and ca.crt (the CA that signed the server certificate)",
				"the agent Secret has no key %s", k)
		}
	}
}
