package v1alpha1

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// EnvServe makes the test binary act as the function, for kustomize to exec
// (serve_test.go: it runs dispatch.Run, the binary's own entry point).
const EnvServe = "KONNECTIVITY_CHECK_TEST_SERVE"

func goodBundle(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/bundle/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const configYAML = "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityCheck\nmetadata:\n  name: check\n"

func resourceList(t *testing.T, bundle, config string) *framework.ResourceList {
	t.Helper()
	items, err := kio.FromBytes([]byte(bundle))
	if err != nil {
		t.Fatal(err)
	}
	return &framework.ResourceList{Items: items, FunctionConfig: yaml.MustParse(config)}
}

func TestProcess(t *testing.T) {
	tests := []struct {
		name       string
		edit       [2]string
		config     string
		wantErr    string // substring of the returned error; "" = none
		wantRule   string // a result with this rule, "" = no results
		wantRef    string // "apiVersion Kind namespace name" of that result
		wantField  string
		wantSevere framework.Severity
	}{
		{name: "good bundle", config: configYAML},
		{name: "server port with UDS", edit: [2]string{"--server-port=0", "--server-port=8090"}, config: configYAML,
			wantErr: "server-port-with-uds", wantRule: "server-port-with-uds", wantRef: "v1 Pod kube-system konnectivity-server",
			wantField: "spec.containers[0].args[4]", wantSevere: framework.Error},
		{name: "missing cluster CA allowed", edit: [2]string{"\n    - --cluster-ca-cert=/etc/konnectivity/ca.crt", ""},
			config: configYAML + "spec:\n  allowMissingClusterCA: true\n", wantRule: "cluster-ca-cert-missing",
			wantRef: "v1 Pod kube-system konnectivity-server", wantField: "spec.containers[0].args", wantSevere: framework.Warning},
		{name: "empty build allowed", edit: [2]string{goodBundle(t), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"},
			config: configYAML + "spec:\n  allowEmpty: true\n"},
		{name: "empty build", edit: [2]string{goodBundle(t), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"},
			config: configYAML, wantErr: "--enable-exec", wantRule: "no-server-pod", wantSevere: framework.Error},
		{name: "misspelt config field", config: configYAML + "spec:\n  allowEmtpy: true\n", wantErr: "allowEmtpy"},
		{name: "wrong kind", config: strings.Replace(configYAML, "KonnectivityCheck", "KonnectivityChecks", 1), wantErr: "use apiVersion"},
		{name: "cert dir missing", config: configYAML + "spec:\n  certDir: no-such-dir\n", wantErr: "spec.certDir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bundle := goodBundle(t)
			if tt.edit[0] != "" {
				bundle = strings.Replace(bundle, tt.edit[0], tt.edit[1], 1)
			}
			rl := resourceList(t, bundle, tt.config)
			before, _ := kio.StringAll(rl.Items)
			err := Processor().Process(rl)
			if after, _ := kio.StringAll(rl.Items); after != before {
				t.Errorf("the validator changed the resources")
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
			}
			if tt.wantRule == "" {
				if len(rl.Results) != 0 {
					t.Errorf("want no results, got %v", rl.Results)
				}
				return
			}
			r := findRule(rl.Results, tt.wantRule)
			if r == nil {
				t.Fatalf("no result with rule %s in %v", tt.wantRule, rl.Results)
			}
			if r.Severity != tt.wantSevere {
				t.Errorf("severity = %s, want %s", r.Severity, tt.wantSevere)
			}
			if got := refString(r); got != tt.wantRef {
				t.Errorf("resourceRef = %q, want %q", got, tt.wantRef)
			}
			if got := fieldPath(r); got != tt.wantField {
				t.Errorf("field = %q, want %q", got, tt.wantField)
			}
			if code := result.ExitCode(rl.Results); (code == 1) != (tt.wantSevere == framework.Error) {
				t.Errorf("ExitCode = %d for %v", code, rl.Results)
			}
		})
	}
}

// TestCertDirRelativeToWorkingDirectory: kustomize runs the function in the
// kustomization's directory, and certDir is read from there.
func TestCertDirRelativeToWorkingDirectory(t *testing.T) {
	t.Chdir("../testdata")
	rl := resourceList(t, readFile(t, "bundle/good.yaml"), configYAML+"spec:\n  certDir: certs/wrong-san\n")
	err := Processor().Process(rl)
	if err == nil || findRule(rl.Results, "server-cert-san-missing") == nil {
		t.Fatalf("want server-cert-san-missing from certs/wrong-san, got %v, %v", err, rl.Results)
	}
}

// TestRunWritesResultsAndFails: served as the binary serves it, the
// ResourceList with its results is written and the error becomes the exit code.
func TestRunWritesResultsAndFails(t *testing.T) {
	bundle := strings.Replace(goodBundle(t), "--mode=http-connect", "--mode=grpc", 1)
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n" + indent(configYAML) + "items:\n"
	for _, doc := range strings.Split(bundle, "\n---\n") {
		in += indentItem(doc)
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(os.Args[0]) // this binary serving the function as kustomize runs it
	cmd.Env = append(os.Environ(), EnvServe+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(in), &out, &stderr
	err := cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "mode-protocol-mismatch") {
		t.Fatalf("exit %v, stderr %q; want a failure naming mode-protocol-mismatch", err, stderr.String())
	}
	if !strings.Contains(out.String(), "results:") || !strings.Contains(out.String(), "rule: mode-protocol-mismatch") {
		t.Errorf("output lacks the results:\n%s", out.String())
	}
}

// kustomizeBuild builds a kustomization holding the (possibly edited) good
// bundle and this test binary as the check function under field
// (validators or transformers).
func kustomizeBuild(t *testing.T, field, edit, with string) (string, string, error) {
	t.Helper()
	kustomize := tooltest.Bin(t, "kustomize")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bundle := goodBundle(t)
	if edit != "" {
		bundle = strings.Replace(bundle, edit, with, 1)
	}
	write(t, dir, "bundle.yaml", bundle)
	write(t, dir, "check.yaml", configYAML+"  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: "+self+"\n")
	kust := "resources: [bundle.yaml]\n"
	if field != "" {
		kust += field + ": [check.yaml]\n"
	}
	write(t, dir, "kustomization.yaml", kust)
	cmd := exec.Command(kustomize, "build", "--enable-alpha-plugins", "--enable-exec", dir)
	cmd.Env = append(os.Environ(), EnvServe+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	return stdout.String(), stderr.String(), err
}

// TestKustomizeTransformerWiring runs the real kustomize with this test
// binary as the check under transformers: a good bundle builds byte-identical
// to a build without the check, a bad one fails the build naming the rule.
func TestKustomizeTransformerWiring(t *testing.T) {
	plain, stderr, err := kustomizeBuild(t, "", "", "")
	if err != nil {
		t.Fatalf("plain build: %v\n%s", err, stderr)
	}
	checked, stderr, err := kustomizeBuild(t, "transformers", "", "")
	if err != nil {
		t.Fatalf("checked build of the good bundle: %v\n%s", err, stderr)
	}
	if checked != plain {
		t.Errorf("the check changed the build output:\n--- without\n%s\n--- with\n%s", plain, checked)
	}
	_, stderr, err = kustomizeBuild(t, "transformers", "--agent-port=8091", "--agent-port=9091")
	if err == nil || !strings.Contains(stderr, "agent-port-mismatch") {
		t.Fatalf("bad bundle: err %v, stderr %s; want a failed build naming agent-port-mismatch", err, stderr)
	}
}

// TestKustomizeValidatorsFieldIsBroken pins an upstream bug the wiring must
// avoid (kubernetes-sigs/kustomize#5036): kustomize v5.8.2 itself adds
// config.kubernetes.io/path annotations to an exec KRM function's output and
// then rejects the validator for modifying resources, even when the function
// changes nothing. When this test fails, `validators:` has become usable.
func TestKustomizeValidatorsFieldIsBroken(t *testing.T) {
	_, stderr, err := kustomizeBuild(t, "validators", "", "")
	if err == nil || !strings.Contains(stderr, "validator shouldn't modify the resource map") {
		t.Fatalf("validators: err %v, stderr %s; kustomize no longer rejects an unchanged exec validator", err, stderr)
	}
	if !strings.Contains(stderr, "config.kubernetes.io/path") {
		t.Errorf("the rejection is not about the path annotation kustomize adds:\n%s", stderr)
	}
}

func findRule(rs framework.Results, rule string) *framework.Result {
	for _, r := range rs {
		if r.Tags["rule"] == rule {
			return r
		}
	}
	return nil
}

func refString(r *framework.Result) string {
	if r.ResourceRef == nil {
		return ""
	}
	return strings.Join([]string{r.ResourceRef.APIVersion, r.ResourceRef.Kind, r.ResourceRef.Namespace, r.ResourceRef.Name}, " ")
}

func fieldPath(r *framework.Result) string {
	if r.Field == nil {
		return ""
	}
	return r.Field.Path
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

func indentItem(doc string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(doc), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return "- " + strings.Join(keep, "\n  ") + "\n"
}
