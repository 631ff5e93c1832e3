//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// renderedBundle is what render put under a root, found through its state file.
type renderedBundle struct {
	root        string
	serverPod   *corev1.Pod
	daemonSet   *appsv1.DaemonSet
	secrets     map[string]*corev1.Secret
	clusterDocs [][]byte // every cluster manifest document, in file order
	override    map[string]any
	namespace   string
	paths       []string // every file the state file lists, relative to root
}

// loadBundle reads the files the state file lists by their placement.
func loadBundle(t *testing.T, root string) *renderedBundle {
	t.Helper()
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatalf("render left no valid state file: %v", err)
	}
	b := &renderedBundle{root: root, secrets: map[string]*corev1.Secret{}, namespace: st.Namespace}
	for _, f := range st.Files {
		b.paths = append(b.paths, f.Path)
		data, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil {
			t.Fatalf("state lists %s: %v", f.Path, err)
		}
		switch f.Placement {
		case hostlayout.PlacementStaticPod:
			b.serverPod = &corev1.Pod{}
			mustUnmarshal(t, f.Path, data, b.serverPod)
		case hostlayout.PlacementClusterManifest:
			b.addClusterFile(t, f.Path, data)
		case hostlayout.PlacementKASConfigOverride:
			// KubeAPIServerConfig has no Go type here; a map is enough to
			// follow apiServerArguments.
			if err := yaml.Unmarshal(data, &b.override); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
		}
	}
	if b.serverPod == nil || b.daemonSet == nil || b.override == nil {
		t.Fatalf("rendered bundle under %s lacks the server pod, the agent DaemonSet or the KAS override (state: %+v)", root, st)
	}
	return b
}

func (b *renderedBundle) addClusterFile(t *testing.T, path string, data []byte) {
	for _, doc := range splitYAML(data) {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		switch meta.Kind {
		case "DaemonSet":
			b.daemonSet = &appsv1.DaemonSet{}
			mustUnmarshal(t, path, doc, b.daemonSet)
		case "Secret":
			s := &corev1.Secret{}
			mustUnmarshal(t, path, doc, s)
			b.secrets[s.Name] = s
		}
		b.clusterDocs = append(b.clusterDocs, doc)
	}
}

// kasEgressFile is the egress selector file named by the override's
// apiServerArguments, as a path inside the KAS container.
func (b *renderedBundle) kasEgressFile(t *testing.T) string {
	t.Helper()
	args, _ := b.override["apiServerArguments"].(map[string]any)
	v, _ := args[hostlayout.EgressFileArgument].([]any)
	if len(v) != 1 {
		t.Fatalf("override apiServerArguments.%s = %v, want one path", hostlayout.EgressFileArgument, args[hostlayout.EgressFileArgument])
	}
	return fmt.Sprint(v[0])
}

// secretDirs writes every rendered Secret's data into a directory, as the
// kubelet would project it into a Secret volume.
func (b *renderedBundle) secretDirs(t *testing.T, base string) map[string]string {
	t.Helper()
	dirs := map[string]string{}
	for name, s := range b.secrets {
		files := map[string][]byte{}
		for k, v := range s.Data {
			files[k] = v
		}
		for k, v := range s.StringData {
			files[k] = []byte(v)
		}
		dir := filepath.Join(base, "secret-"+name)
		writeFiles(t, dir, files)
		dirs[name] = dir
	}
	return dirs
}

// splitYAML splits a multi-document file.
func splitYAML(data []byte) [][]byte {
	var docs [][]byte
	for _, d := range bytes.Split(data, []byte("\n---")) {
		d = bytes.TrimPrefix(bytes.TrimSpace(d), []byte("---"))
		if len(bytes.TrimSpace(d)) > 0 {
			docs = append(docs, d)
		}
	}
	return docs
}

// mustUnmarshal decodes strictly, so a rendered field the real Kubernetes
// type does not have fails here instead of being dropped silently.
func mustUnmarshal(t *testing.T, what string, data []byte, into any) {
	t.Helper()
	if err := yaml.UnmarshalStrict(data, into); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
