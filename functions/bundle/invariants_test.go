package bundle_test

import (
	"bytes"
	"path"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/yaml"
)

// invariantConfigs move every value that two objects must agree on away from
// its default, so an invariant that only holds for defaults fails here.
var invariantConfigs = []struct {
	name string
	spec string
	env  map[string]string
}{
	{name: "defaults", spec: "bootstrapIP: 192.0.2.10\nproxyVersion: v0.36"},
	{name: "ipv6-grpc", spec: "ipFamily: ipv6\nbootstrapIP: 2001:db8::10\nmode: grpc\nproxyVersion: v0.28"},
	{name: "dualstack-from-env", spec: "ipFamily: dualstack", env: map[string]string{v1alpha1.EnvBootstrapIP: "192.0.2.44", v1alpha1.EnvImage: "quay.io/x/anp:4.21"}},
	{name: "version-from-env", spec: "bootstrapIP: 192.0.2.10", env: map[string]string{v1alpha1.EnvImage: "quay.io/x/anp@sha256:" + strings.Repeat("ab", 32), v1alpha1.EnvProxyVersion: "v0.36"}},
	{name: "everything-moved", spec: `bootstrapIP: 198.51.100.7
proxyVersion: v0.28
namespace: konnectivity-x
mode: grpc
server: {agentPort: 9443, healthPort: 9444, adminPort: 9445, agentBindAddress: 198.51.100.7}
agent: {healthPort: 9446, adminPort: 9447, hostNetwork: true, identifiers: "default-route=true"}
paths:
  bootstrapConfigDir: /run/anp
  kasConfigDir: /etc/kas/cfg
  socketName: anp.sock
  egressConfigName: egress.yaml
  certDir: /var/lib/anp/tls
  staticPodManifest: /etc/kubelet.d/anp.yaml
  clusterManifestsDir: /var/opt/manifests
  kasConfigOverride: /var/opt/override.yaml`},
}

// bundleObjects is one generated bundle, parsed back into typed objects.
type bundleObjects struct {
	spec      *v1alpha1.Spec
	pod       corev1.Pod
	namespace corev1.Namespace
	daemonSet appsv1.DaemonSet
	server    corev1.Container // the pod's container, found by name
	agent     corev1.Container // the DaemonSet's container, found by name
	egress    map[string]any
	override  map[string]any
	all       []map[string]any
}

func generate(t *testing.T, spec string, env map[string]string) (*bundleObjects, []byte) {
	t.Helper()
	config := "apiVersion: " + v1alpha1.APIVersion + "\nkind: " + v1alpha1.Kind + "\nmetadata: {name: b}\nspec:\n  " +
		strings.ReplaceAll(spec, "\n", "\n  ") + "\n"
	s, err := v1alpha1.Resolve([]byte(config), v1alpha1.Inputs{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	nodes, err := bundle.Generate(s)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var stream bytes.Buffer
	if err := (kio.ByteWriter{Writer: &stream}).Write(nodes); err != nil {
		t.Fatal(err)
	}
	b := &bundleObjects{spec: s}
	docs := strings.Split(stream.String(), "\n---\n")
	if len(docs) != 5 {
		t.Fatalf("want 5 objects, got %d", len(docs))
	}
	// Each object is found by its kind, not by its place in the output.
	targets := map[string]any{"Pod": &b.pod, "Namespace": &b.namespace, "DaemonSet": &b.daemonSet,
		"EgressSelectorConfiguration": &b.egress, "KubeAPIServerConfig": &b.override}
	for i, doc := range docs {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		kind, _ := m["kind"].(string)
		target, ok := targets[kind]
		if !ok {
			t.Fatalf("object %d: kind %q is not one of the bundle's, or appears twice", i, kind)
		}
		delete(targets, kind)
		if err := yaml.UnmarshalStrict([]byte(doc), target); err != nil {
			t.Fatalf("object %d (%s): %v", i, kind, err)
		}
		b.all = append(b.all, m)
	}
	b.server = containerNamed(t, b.pod.Spec, hostlayout.ServerPodName)
	b.agent = containerNamed(t, b.daemonSet.Spec.Template.Spec, hostlayout.AgentName)
	return b, stream.Bytes()
}

// containerNamed returns the container called name.
func containerNamed(t *testing.T, pod corev1.PodSpec, name string) corev1.Container {
	t.Helper()
	for _, c := range pod.Containers {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no container %s", name)
	return corev1.Container{}
}

func TestInvariants(t *testing.T) {
	for _, tc := range invariantConfigs {
		t.Run(tc.name, func(t *testing.T) {
			b, first := generate(t, tc.spec, tc.env)
			_, second := generate(t, tc.spec, tc.env)
			if !bytes.Equal(first, second) {
				t.Errorf("two runs differ:\n%s\n---\n%s", first, second)
			}
			checkSocket(t, b)
			checkOverridePointsAtEgressFile(t, b)
			checkModeAndProtocol(t, b)
			checkAgentDialsServer(t, b)
			checkProbes(t, b)
			checkCertificates(t, b)
			checkLabelsAndPlacement(t, b)
			checkTargetVersion(t, b)
		})
	}
}

// checkTargetVersion: both workloads carry the spec's version, and every
// flag each runs is one that version's binary has.
func checkTargetVersion(t *testing.T, b *bundleObjects) {
	v := b.spec.Version()
	if v == nil {
		t.Fatalf("spec.proxyVersion %q names no version", b.spec.ProxyVersion)
	}
	for _, got := range []string{b.pod.Annotations[proxyversion.AnnotationProxyVersion], b.daemonSet.Annotations[proxyversion.AnnotationProxyVersion]} {
		if got != v.Name {
			t.Errorf("annotation %s = %q, want %s", proxyversion.AnnotationProxyVersion, got, v.Name)
		}
	}
	for _, c := range []struct {
		bin  *proxyversion.Binary
		args []string
	}{{v.Server, b.server.Args}, {v.Agent, b.agent.Args}} {
		for _, u := range c.bin.Parse(append([]string{c.bin.Name}, c.args...)).Unknown {
			t.Errorf("%s %s has no flag --%s, yet it is rendered", c.bin.Name, v, u.Name)
		}
	}
}

// checkSocket: the server's --uds-name, followed through the server pod's
// mounts to the host, and the egress udsName, followed through the KAS mount
// annotation, are the same host file.
func checkSocket(t *testing.T, b *bundleObjects) {
	server := b.server
	fromServer := hostPathThroughMounts(t, b.pod.Spec, server, flagValue(t, server.Args, "--uds-name"))
	uds := dig(t, b.egress, "egressSelections", named("cluster"), "connection", "transport", "uds", "udsName").(string)
	fromKAS := hostPathThroughKASMount(t, b.egress, uds)
	if fromServer != fromKAS {
		t.Errorf("server socket is host %s, KAS socket is host %s", fromServer, fromKAS)
	}
	if fromServer != b.spec.Paths.HostSocketPath() {
		t.Errorf("socket is host %s, config says %s", fromServer, b.spec.Paths.HostSocketPath())
	}
	if flagValue(t, server.Args, "--server-port") != "0" {
		t.Error("a UDS server must have --server-port=0")
	}
}

// checkOverridePointsAtEgressFile: the KAS flag in the override, seen from the
// host, is where render writes the egress object.
func checkOverridePointsAtEgressFile(t *testing.T, b *bundleObjects) {
	args := dig(t, b.override, "apiServerArguments", hostlayout.EgressFileArgument).([]any)
	if len(args) != 1 {
		t.Fatalf("want one %s, got %v", hostlayout.EgressFileArgument, args)
	}
	host := hostPathThroughKASMount(t, b.override, args[0].(string))
	if want := annotation(t, b.egress, hostlayout.AnnotationHostPath); host != want {
		t.Errorf("override names host %s, egress file is written to %s", host, want)
	}
	if annotation(t, b.egress, hostlayout.AnnotationKASConfigMount) != annotation(t, b.override, hostlayout.AnnotationKASConfigMount) {
		t.Error("egress and override disagree on how the KAS mounts the config directory")
	}
}

func checkModeAndProtocol(t *testing.T, b *bundleObjects) {
	mode := flagValue(t, b.server.Args, "--mode")
	protocol := dig(t, b.egress, "egressSelections", named("cluster"), "connection", "proxyProtocol")
	want := map[string]string{"http-connect": "HTTPConnect", "grpc": "GRPC"}[mode]
	if want == "" || protocol != want {
		t.Errorf("--mode=%s but cluster proxyProtocol %v", mode, protocol)
	}
	for i, name := range []string{"cluster", "controlplane", "etcd"} {
		if got := dig(t, b.egress, "egressSelections", i, "name"); got != name {
			t.Errorf("egress selection %d is %v, want %s", i, got, name)
		}
	}
}

func checkAgentDialsServer(t *testing.T, b *bundleObjects) {
	server, agent := b.server.Args, b.agent.Args
	if s, a := flagValue(t, server, "--agent-port"), flagValue(t, agent, "--proxy-server-port"); s != a {
		t.Errorf("server --agent-port=%s, agent --proxy-server-port=%s", s, a)
	}
	if got := flagValue(t, agent, "--proxy-server-host"); got != b.spec.BootstrapIP {
		t.Errorf("agent dials %s, bootstrap IP is %s", got, b.spec.BootstrapIP)
	}
	if b.server.Image != b.agent.Image {
		t.Error("server and agent images differ")
	}
}

func checkProbes(t *testing.T, b *bundleObjects) {
	for _, c := range []struct {
		container corev1.Container
		flag      string
	}{
		{b.server, "--health-port"},
		{b.agent, "--health-server-port"},
	} {
		want := flagValue(t, c.container.Args, c.flag)
		for _, p := range []*corev1.Probe{c.container.LivenessProbe, c.container.ReadinessProbe} {
			if p == nil || p.HTTPGet == nil || p.HTTPGet.Port.String() != want {
				t.Errorf("%s: probe %+v does not use %s=%s", c.container.Name, p, c.flag, want)
			}
		}
	}
	if p := b.server.ReadinessProbe.HTTPGet.Path; p != "/healthz" {
		t.Errorf("server readiness on %s: /readyz can stay unready forever", p)
	}
}

// checkCertificates: the server's certificate flags land in certDir on the
// host, and the agent's in the Secret's keys.
func checkCertificates(t *testing.T, b *bundleObjects) {
	server := b.server
	for flag, file := range map[string]string{"--cluster-cert": "server.crt", "--cluster-key": "server.key", "--cluster-ca-cert": "ca.crt"} {
		if got := hostPathThroughMounts(t, b.pod.Spec, server, flagValue(t, server.Args, flag)); got != b.spec.Paths.CertDir+"/"+file {
			t.Errorf("%s is host %s, want %s/%s", flag, got, b.spec.Paths.CertDir, file)
		}
	}
	agent := b.agent
	for flag, key := range map[string]string{"--ca-cert": "ca.crt", "--agent-cert": "tls.crt", "--agent-key": "tls.key"} {
		vol, rel := volumeFor(t, b.daemonSet.Spec.Template.Spec, agent, flagValue(t, agent.Args, flag))
		if vol.Secret == nil || vol.Secret.SecretName != hostlayout.AgentSecretName || rel != key {
			t.Errorf("%s is %q in volume %+v, want key %s of Secret %s", flag, rel, vol.VolumeSource, key, hostlayout.AgentSecretName)
		}
	}
}

func checkLabelsAndPlacement(t *testing.T, b *bundleObjects) {
	apps := []string{hostlayout.AppServer, hostlayout.AppAgent, hostlayout.AppAgent, hostlayout.AppServer, hostlayout.AppServer}
	for i, obj := range b.all {
		labels, _ := dig(t, obj, "metadata", "labels").(map[string]any)
		if labels[hostlayout.LabelBootstrapOnly] != "true" || labels[hostlayout.LabelApp] != apps[i] {
			t.Errorf("object %d labels %v, want %s=true and app=%s", i, labels, hostlayout.LabelBootstrapOnly, apps[i])
		}
		hostPath := annotation(t, obj, hostlayout.AnnotationHostPath)
		if !path.IsAbs(hostPath) || path.Clean(hostPath) != hostPath {
			t.Errorf("object %d host path %q is not clean and absolute", i, hostPath)
		}
		if annotation(t, obj, hostlayout.AnnotationPlacement) == "" {
			t.Errorf("object %d has no placement", i)
		}
	}
	tmpl := b.daemonSet.Spec.Template.Labels
	for k, v := range b.daemonSet.Spec.Selector.MatchLabels {
		if tmpl[k] != v {
			t.Errorf("DaemonSet selector %s=%s does not match its pod template", k, v)
		}
	}
	if tmpl[hostlayout.LabelBootstrapOnly] != "true" {
		t.Error("agent pods lack the bootstrap-only label")
	}
	if b.daemonSet.Namespace != b.namespace.Name {
		t.Errorf("DaemonSet in %s, Namespace is %s", b.daemonSet.Namespace, b.namespace.Name)
	}
	if b.namespace.Name != b.spec.Namespace {
		t.Errorf("Namespace %s, config says %s", b.namespace.Name, b.spec.Namespace)
	}
}
