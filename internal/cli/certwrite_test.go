package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyCertGeneratorsWriteCerts: a kustomization whose KonnectivityCerts
// config sets spec.generate writes a certificate directory when it is built.
// Only the commands that declare GeneratesCerts (build, fn, render, as
// kustomize build would) get the writer; every other command that builds a
// bundle argument (check, ports, diff: diagnostics, which never change the
// host) refuses it, naming spec.generate, and writes nothing. The commands
// come from the CLI, so a new one that builds is held to its trait.
func TestOnlyCertGeneratorsWriteCerts(t *testing.T) {
	c := New(Config{})
	for _, cmd := range c.commands {
		if cmd.Sources == 0 {
			continue
		}
		t.Run(cmd.Name, func(t *testing.T) {
			dir, certDir := t.TempDir(), filepath.Join(t.TempDir(), "tls")
			writeCertsKustomization(t, dir, certDir)
			args := []string{cmd.Name}
			for range cmd.Sources {
				args = append(args, dir)
			}
			fs := newFlagSet(cmd)
			cmd.Options(fs)
			if fs.Lookup("root") != nil {
				args = append(args, "--root", t.TempDir())
			}
			if fs.Lookup("bootstrap-ip") != nil {
				args = append(args, "--bootstrap-ip", "192.0.2.10")
			}
			if fs.Lookup("proxy-version") != nil {
				args = append(args, "--proxy-version", "v0.28")
			}
			code, _, stderr := runProgram(t, c, nil, args...)
			_, statErr := os.Stat(certDir)
			wrote := statErr == nil
			switch {
			case !cmd.GeneratesCerts && wrote:
				t.Errorf("%q wrote %s (exit %d): a command that does not declare GeneratesCerts must write no certificates", args, certDir, code)
			case !cmd.GeneratesCerts && (code == 0 || !strings.Contains(stderr, "spec.generate")):
				t.Errorf("%q: exit %d, stderr %q; want a refusal naming spec.generate", args, code, stderr)
			case cmd.Name == "build" && !wrote:
				t.Errorf("%q: exit %d, stderr %q; build writes the certificates as kustomize build does, but %s is missing", args, code, stderr, certDir)
			}
		})
	}
}

// writeCertsKustomization writes a kustomization in dir whose only
// generator is a KonnectivityCerts config generating into certDir.
func writeCertsKustomization(t *testing.T, dir, certDir string) {
	t.Helper()
	files := map[string]string{
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- certs.yaml\n",
		"certs.yaml": `apiVersion: bundle.konnectivity.io/v1alpha1
kind: KonnectivityCerts
metadata:
  name: konnectivity-certs
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./konnectivity-bundle
        args: [fn]
spec:
  certDir: ` + certDir + `
  bootstrapIP: 192.0.2.10
  generate: true
`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
