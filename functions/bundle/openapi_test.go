package bundle_test

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// clusterKinds are the emitted objects that go to a Kubernetes API (the
// static pod is read by the kubelet with the same types), with the Go type
// each must decode into strictly.
var clusterKinds = map[string]func() any{
	"v1/Pod":            func() any { return &corev1.Pod{} },
	"v1/Namespace":      func() any { return &corev1.Namespace{} },
	"apps/v1/DaemonSet": func() any { return &appsv1.DaemonSet{} },
	"v1/Secret":         func() any { return &corev1.Secret{} },
}

// hostConfigKinds are files for the kube-apiserver, not API objects.
var hostConfigKinds = map[string]bool{
	egressconfig.APIVersion + "/" + egressconfig.Kind:             true,
	hostlayout.OverrideAPIVersion + "/" + hostlayout.OverrideKind: true,
}

// TestEmittedObjectsMatchKubernetesSchema generates the bundle for every
// testdata/success config, adds the agent Secret the certificate function
// makes for it, and checks each cluster object both ways: strict decoding
// into the k8s.io/api type, and the Kubernetes v1.35 OpenAPI schema.
func TestEmittedObjectsMatchKubernetesSchema(t *testing.T) {
	seen := map[string]int{}
	dirs, err := filepath.Glob("testdata/success/*/config.yaml")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no success cases: %v", err)
	}
	for _, config := range dirs {
		dir := filepath.Dir(config)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, obj := range bundleForCase(t, dir) {
				key := apiKind(obj)
				if hostConfigKinds[key] {
					continue
				}
				seen[key]++
				checkClusterObject(t, obj)
			}
		})
	}
	for kind := range clusterKinds {
		if seen[kind] == 0 {
			t.Errorf("no %s was checked", kind)
		}
	}
}

// bundleForCase is the case's generated bundle plus its agent Secret, each
// object as JSON.
func bundleForCase(t *testing.T, dir string) [][]byte {
	t.Helper()
	config, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := v1alpha1.Resolve(config, v1alpha1.Inputs{Getenv: caseEnv(t, dir)})
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	nodes, err := bundle.Generate(spec)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var out [][]byte
	for _, n := range nodes {
		j, err := n.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
	if !*spec.Enabled {
		return out
	}
	return append(out, agentSecret(t, spec))
}

func agentSecret(t *testing.T, spec *v1alpha1.Spec) []byte {
	t.Helper()
	r, err := certs.Plan(certs.Options{Dir: t.TempDir(), BootstrapIP: netip.MustParseAddr(spec.BootstrapIP)})
	if err != nil {
		t.Fatalf("certs.Plan: %v", err)
	}
	n, err := certs.AgentSecretNode(r, spec.Namespace, spec.Paths.ClusterManifest(hostlayout.AgentSecretFileName))
	if err != nil {
		t.Fatalf("certs.AgentSecretNode: %v", err)
	}
	doc, err := n.String()
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatalf("agent Secret is not YAML: %v", err)
	}
	return j
}

func apiKind(obj []byte) string {
	var tm struct{ APIVersion, Kind string }
	_ = json.Unmarshal(obj, &tm) // an object without them is reported by the caller
	return tm.APIVersion + "/" + tm.Kind
}

func checkClusterObject(t *testing.T, obj []byte) {
	t.Helper()
	key := apiKind(obj)
	newTyped, ok := clusterKinds[key]
	if !ok {
		t.Errorf("emitted %s, which is neither a known cluster kind nor a KAS config file", key)
		return
	}
	if err := decodeStrict(obj, newTyped()); err != nil {
		t.Errorf("%s does not decode strictly into its Go type: %v", key, err)
	}
	problems, err := schemaProblems(obj)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", key, p)
	}
}

func decodeStrict(obj []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(obj))
	d.DisallowUnknownFields()
	return d.Decode(into)
}

func schemaProblems(obj []byte) ([]string, error) {
	var m map[string]any
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	return validateObject(m)
}

// schemaBreakers each break one valid emitted object in a way the API server
// would refuse, and name the problem the schema check must report.
var schemaBreakers = []struct {
	name, kind string
	mutate     func(m map[string]any)
	want       string // regex one schema problem must match
	typedToo   bool   // strict typed decoding must fail as well
}{
	{"unknown field", "apps/v1/DaemonSet", func(m map[string]any) {
		container(m, "spec", "template", "spec")["imagePullPolicyy"] = "Always"
	}, `spec\.template\.spec\.containers\[0\]\.imagePullPolicyy: unknown field`, true},
	{"unknown top-level field", "v1/Namespace", func(m map[string]any) { m["specs"] = map[string]any{} }, `^specs: unknown field`, true},
	{"wrong type", "v1/Pod", func(m map[string]any) { at(m, "spec")["hostNetwork"] = "true" }, `hostNetwork in body must be of type boolean`, true},
	{"missing required container name", "v1/Pod", func(m map[string]any) { delete(container(m, "spec"), "name") }, `containers.*name in body is required`, false},
	{"probe without port", "apps/v1/DaemonSet", func(m map[string]any) {
		delete(at(container(m, "spec", "template", "spec"), "livenessProbe", "httpGet"), "port")
	}, `httpGet\.port in body is required`, false},
	{"secret data not base64", "v1/Secret", func(m map[string]any) { at(m, "data")["ca.crt"] = "-----BEGIN CERTIFICATE-----" }, `data\.ca\.crt in body must be of type byte`, true},
	{"label value not a string", "v1/Namespace", func(m map[string]any) { at(m, "metadata", "labels")["x"] = 1 }, `labels\.x in body must be of type string`, true},
}

// TestSchemaCatchesInvalidObjects proves the schema check can fail: each case
// breaks one valid emitted object and names the problem that must be found.
func TestSchemaCatchesInvalidObjects(t *testing.T) {
	objs := bundleForCase(t, "testdata/success/defaults")
	byKind := map[string][]byte{}
	for _, o := range objs {
		byKind[apiKind(o)] = o
	}
	for _, tc := range schemaBreakers {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(byKind[tc.kind], &m); err != nil {
				t.Fatalf("no %s in the bundle: %v", tc.kind, err)
			}
			if p, _ := schemaProblems(byKind[tc.kind]); len(p) != 0 {
				t.Fatalf("the unbroken %s already fails: %v", tc.kind, p)
			}
			tc.mutate(m)
			broken, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			problems, err := schemaProblems(broken)
			if err != nil {
				t.Fatal(err)
			}
			if !anyMatch(regexp.MustCompile(tc.want), problems) {
				t.Errorf("schema problems %q, want one matching %s", problems, tc.want)
			}
			if err := decodeStrict(broken, clusterKinds[tc.kind]()); tc.typedToo && err == nil {
				t.Error("strict typed decoding accepted the broken object")
			}
		})
	}
}

func at(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

func container(m map[string]any, podSpec ...string) map[string]any {
	return at(m, podSpec...)["containers"].([]any)[0].(map[string]any)
}

func anyMatch(re *regexp.Regexp, list []string) bool {
	for _, s := range list {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// TestSchemaKnowsTheGoTypes fails if the vendored schema is older than the
// k8s.io/api types the generator uses: a field those types can emit but the
// schema lacks would be reported as unknown for the wrong reason.
func TestSchemaKnowsTheGoTypes(t *testing.T) {
	k, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]reflect.Type{
		"io.k8s.api.core.v1.PodSpec":         reflect.TypeFor[corev1.PodSpec](),
		"io.k8s.api.core.v1.Container":       reflect.TypeFor[corev1.Container](),
		"io.k8s.api.core.v1.SecurityContext": reflect.TypeFor[corev1.SecurityContext](),
		"io.k8s.api.apps.v1.DaemonSetSpec":   reflect.TypeFor[appsv1.DaemonSetSpec](),
		"io.k8s.api.core.v1.Secret":          reflect.TypeFor[corev1.Secret](),
	} {
		s, ok := k.byName[name]
		if !ok {
			t.Errorf("schema has no %s", name)
			continue
		}
		for i := range typ.NumField() {
			field, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if _, ok := s.Properties[field]; field != "" && field != "-" && !ok {
				t.Errorf("%s lacks %s, which k8s.io/api has: refresh testdata/openapi", name, field)
			}
		}
	}
}
