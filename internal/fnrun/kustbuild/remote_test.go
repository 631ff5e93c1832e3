package kustbuild

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// localLookalikes are local paths that only look remote: kustomize reads
// each from the tree, and so must the build.
var localLookalikes = []string{
	"deploy@v2.yaml",      // user@ with no host path after it
	"gitlab.com/org/repo", // no scheme, no user, not github.com
	"./github.com/org/repo",
	"sub/github.com/org/repo",
	"a:b.yaml",  // a colon, no scheme with //
	"me@laptop", // user@host and nothing more
}

// remoteWatch puts recording git, ssh and helm programs alone on PATH and
// returns a listener's host with a check that nothing ran or dialled it.
func remoteWatch(t *testing.T) (host string, nothing func()) {
	bin, log := tooltest.RecordRuns(t, "git", "ssh", "helm", "helmV3")
	t.Setenv("PATH", bin)
	host, conns := tooltest.Listen(t)
	return host, func() {
		t.Helper()
		if n := conns(); n != 0 {
			t.Errorf("the build made %d connection(s) to the listener a remote entry names", n)
		}
		if ran := tooltest.Ran(t, log); ran != "" {
			t.Errorf("the build ran:\n%s", ran)
		}
	}
}

func TestRemoteShape(t *testing.T) {
	for _, e := range tooltest.RemoteShapes("127.0.0.1:1") {
		if remoteShape(e) == "" {
			t.Errorf("remoteShape(%q) = local, want remote", e)
		}
	}
	for _, e := range []string{"  https://x/y.yaml\n", "https:x.yaml", "ftp://h/x", "git::./x", "me@host:org/repo", "u@h/x/y"} {
		if remoteShape(e) == "" {
			t.Errorf("remoteShape(%q) = local, want remote", e)
		}
	}
	for _, e := range append(localLookalikes, "base", "../base", "/abs/base", "x.yaml", "me@host:file.yaml") {
		if why := remoteShape(e); why != "" {
			t.Errorf("remoteShape(%q) = %q, want local", e, why)
		}
	}
}

// TestRemoteRefusedInEveryField: each shape in each field, and each helm
// field, is refused by Build before anything runs or is dialled, naming
// the file, the field, the entry and the fix; bad input.
func TestRemoteRefusedInEveryField(t *testing.T) {
	host, nothing := remoteWatch(t)
	for _, f := range tooltest.RemoteFields() {
		shapes := tooltest.RemoteShapes(host)
		if f.Helm {
			shapes = shapes[:1]
		}
		for _, shape := range shapes {
			dir := t.TempDir()
			tooltest.WriteTree(t, dir, f.Write([]string{shape}))
			_, err := Build(dir, Options{Getenv: noEnv})
			line := tooltest.RemoteLine{File: filepath.Join(dir, f.File), Field: f.Name(0), Entry: f.Entry(0, shape)}
			if f.Helm {
				line.Entry = ""
			}
			switch {
			case !errors.As(err, new(*RemoteError)) || !IsBadInput(err):
				t.Errorf("%s %q: got %v, want a RemoteError (bad input)", f.Field, shape, err)
			case !strings.Contains(err.Error(), line.Says()):
				t.Errorf("%s %q: the error does not say %q:\n%v", f.Field, shape, line.Says(), err)
			case !strings.Contains(err.Error(), "(fix: vendor"):
				t.Errorf("%s %q: the error does not say to vendor it:\n%v", f.Field, shape, err)
			}
		}
	}
	nothing()
}

// TestRemoteTreeNamesEveryEntry: one tree holding every shape in every
// field, in local bases, is refused with every entry named.
func TestRemoteTreeNamesEveryEntry(t *testing.T) {
	host, nothing := remoteWatch(t)
	dir := t.TempDir()
	lines := tooltest.WriteRemoteTree(t, dir, tooltest.RemoteShapes(host))
	_, err := Build(dir, Options{Getenv: noEnv})
	if !errors.As(err, new(*RemoteError)) {
		t.Fatalf("got %v, want a RemoteError", err)
	}
	for _, l := range lines {
		if !strings.Contains(err.Error(), l.Says()) {
			t.Errorf("the error does not say %q", l.Says())
		}
	}
	nothing()
}

// TestLocalLookalikesBuild: resources and bases whose local names look
// remote build from the tree.
func TestLocalLookalikesBuild(t *testing.T) {
	_, nothing := remoteWatch(t)
	dir := t.TempDir()
	files := map[string]string{}
	kust := "resources:\n"
	for i, name := range localLookalikes {
		cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lookalike-" + string(rune('a'+i)) + "}\n"
		if strings.HasSuffix(name, ".yaml") {
			files[name] = cm
		} else {
			files[filepath.Join(name, "kustomization.yaml")] = "resources:\n- cm.yaml\n"
			files[filepath.Join(name, "cm.yaml")] = cm
		}
		kust += "- " + name + "\n"
	}
	files["kustomization.yaml"] = kust
	tooltest.WriteTree(t, dir, files)
	out, err := Build(dir, Options{Getenv: noEnv})
	if err != nil {
		t.Fatalf("building local look-alikes: %v", err)
	}
	for i := range localLookalikes {
		if want := "name: lookalike-" + string(rune('a'+i)); !strings.Contains(string(out), want) {
			t.Errorf("the build lacks %q (%s):\n%s", want, localLookalikes[i], out)
		}
	}
	nothing()
}

// kustomizeFetches runs kustomize itself, without the walk, on a
// kustomization listing entry as a resource and says whether its loader
// tried to download it (stopped by refuseLoaderFetch) or ran git.
func kustomizeFetches(t *testing.T, entry, log string) bool {
	dir := t.TempDir()
	tooltest.WriteTree(t, dir, map[string]string{"kustomization.yaml": "resources:\n- " + quoteYAML(entry) + "\n"})
	os.Remove(log)
	_, err := krusty.MakeKustomizer(kustomizerOptions()).Run(filesys.MakeFsOnDisk(), dir)
	return err != nil && strings.Contains(err.Error(), errLoaderFetch.Error()) || tooltest.Ran(t, log) != ""
}

func quoteYAML(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestRemoteShapesMatchKustomize: every entry kustomize's own loader
// fetches or clones is one remoteShape refuses, and the local look-alikes
// are ones kustomize reads from the tree. remoteShape refuses a few shapes
// kustomize takes for local paths (overRefused); they stay listed so a
// kustomize that starts fetching them is seen.
func TestRemoteShapesMatchKustomize(t *testing.T) {
	bin, log := tooltest.RecordRuns(t, "git", "ssh")
	t.Setenv("PATH", bin)
	host, conns := tooltest.Listen(t)
	overRefused := map[string]string{
		"https:x.yaml":   "url.Parse reads a URL, but kustomize's GET of it fails before any dial",
		"ftp://h/x.yaml": "kustomize reads a path; no local path has this shape",
		"github.com/org": "one segment: kustomize's parse fails and it looks for a local directory",
	}
	entries := append(tooltest.RemoteShapes(host), "u@h/x/y", "me@host:org/repo")
	for e := range overRefused {
		entries = append(entries, e)
	}
	for _, e := range entries {
		fetched := kustomizeFetches(t, e, log)
		if _, over := overRefused[e]; fetched == over {
			t.Errorf("%q: kustomize fetches it: %v, but the test lists it as over-refused: %v", e, fetched, over)
		}
		if remoteShape(e) == "" {
			t.Errorf("%q: kustomize fetches it, remoteShape takes it for local", e)
		}
	}
	for _, e := range localLookalikes {
		if kustomizeFetches(t, e, log) {
			t.Errorf("%q: kustomize fetches it; remove it from localLookalikes and teach remoteShape", e)
		}
	}
	if n := conns(); n != 0 {
		t.Errorf("kustomize's loader dialled the listener %d time(s) past refuseLoaderFetch", n)
	}
}

// TestLoaderFetchWallSparesOthers: the default transport refuses only
// kustomize's loader; any other client still connects.
func TestLoaderFetchWallSparesOthers(t *testing.T) {
	host, conns := tooltest.Listen(t)
	resp, err := http.Get("http://" + host + "/")
	if err == nil {
		resp.Body.Close()
	}
	if errors.Is(err, errLoaderFetch) || strings.Contains(errString(err), errLoaderFetch.Error()) {
		t.Fatalf("a plain http.Get was refused as kustomize's: %v", err)
	}
	if n := conns(); n != 1 {
		t.Errorf("a plain http.Get made %d connection(s), want 1", n)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestHelmNotRun: a helm chart is refused, and kustomize itself, without
// the walk, does not run helm either (helm disabled).
func TestHelmNotRun(t *testing.T) {
	bin, log := tooltest.RecordRuns(t, "helm", "helmV3")
	t.Setenv("PATH", bin)
	dir := t.TempDir()
	tooltest.WriteTree(t, dir, map[string]string{"kustomization.yaml": "helmCharts:\n- name: chart\n  version: 1.0.0\n"})
	if _, err := krusty.MakeKustomizer(kustomizerOptions()).Run(filesys.MakeFsOnDisk(), dir); err == nil {
		t.Error("kustomize built a helm chart with helm disabled")
	}
	if ran := tooltest.Ran(t, log); ran != "" {
		t.Errorf("kustomize ran helm:\n%s", ran)
	}
}

// TestForeignFunctionNotRun: a KRM function of another kind, wired as an
// exec program or a container image, inline, in a file or in a directory
// of configs, is refused before kustomize runs it; ours still build.
func TestForeignFunctionNotRun(t *testing.T) {
	bin, log := tooltest.RecordRuns(t, "docker", "podman", "fn")
	t.Setenv("PATH", bin)
	execConfig := "apiVersion: example.com/v1\nkind: Foreign\nmetadata:\n  name: x\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: " + bin + "/fn\n"
	containerConfig := "apiVersion: example.com/v1\nkind: Foreign\nmetadata:\n  name: x\n  annotations:\n    config.kubernetes.io/function: |\n      container:\n        image: example.com/fn:1\n"
	legacyConfig := "apiVersion: example.com/v1\nkind: Foreign\nmetadata:\n  name: x\n  annotations:\n    config.k8s.io/function: |\n      exec:\n        path: " + bin + "/fn\n"
	for name, tree := range map[string]map[string]string{
		"exec in a file":        {"kustomization.yaml": "generators:\n- fn.yaml\n", "fn.yaml": execConfig},
		"container in a file":   {"kustomization.yaml": "transformers:\n- fn.yaml\n", "fn.yaml": containerConfig},
		"legacy annotation":     {"kustomization.yaml": "generators:\n- fn.yaml\n", "fn.yaml": legacyConfig},
		"exec inline":           {"kustomization.yaml": "generators:\n- |\n" + indent(execConfig, "  ")},
		"container in a dir":    {"kustomization.yaml": "validators:\n- fns\n", "fns/kustomization.yaml": "resources:\n- fn.yaml\n", "fns/fn.yaml": containerConfig},
		"exec in a nested base": {"kustomization.yaml": "resources:\n- base\n", "base/kustomization.yaml": "generators:\n- fn.yaml\n", "base/fn.yaml": execConfig},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tooltest.WriteTree(t, dir, tree)
			_, err := Build(dir, Options{})
			var remote *RemoteError
			if !errors.As(err, &remote) || !strings.Contains(err.Error(), "a KRM function of another kind") {
				t.Errorf("Build: %v, want a RemoteError naming the foreign function", err)
			}
			if ran := tooltest.Ran(t, log); ran != "" {
				t.Errorf("a program ran:\n%s", ran)
			}
		})
	}
}

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = by + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestNoPluginRuns: configs the walk cannot judge from the files (an
// annotation a sub-build adds, our own kind where kustomize would run it,
// a legacy exec plugin under a plugin home) still run nothing: kustomize
// loads builtins only, and the build fails as bad input.
func TestNoPluginRuns(t *testing.T) {
	bin, log := tooltest.RecordRuns(t, "docker", "podman", "fn")
	t.Setenv("PATH", bin)
	home := t.TempDir()
	plugin := filepath.Join(home, "evil.example", "v1", "pwn", "Pwn")
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, []byte("#!/bin/sh\necho plugin >> '"+log+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUSTOMIZE_PLUGIN_HOME", home)
	fnAnnotation := "config.kubernetes.io/function: \"exec:\\n  path: " + bin + "/fn\\n\""
	for name, tree := range map[string]map[string]string{
		"annotation a sub-build adds": {
			"kustomization.yaml":     "transformers:\n- gen\n",
			"gen/kustomization.yaml": "resources:\n- t.yaml\ncommonAnnotations:\n  " + fnAnnotation + "\n",
			"gen/t.yaml":             "apiVersion: x.example/v1\nkind: T\nmetadata:\n  name: x\n",
		},
		"our kind where kustomize would run it": {
			"kustomization.yaml": "transformers:\n- t.yaml\n",
			"t.yaml":             "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata:\n  name: x\n  annotations:\n    " + fnAnnotation + "\n",
		},
		"legacy exec plugin": {
			"kustomization.yaml": "transformers:\n- t.yaml\n",
			"t.yaml":             "apiVersion: evil.example/v1\nkind: Pwn\nmetadata:\n  name: x\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tooltest.WriteTree(t, dir, tree)
			_, err := Build(dir, Options{})
			if err == nil || !IsBadInput(err) {
				t.Errorf("Build: %v, want bad input", err)
			}
			if ran := tooltest.Ran(t, log); ran != "" {
				t.Errorf("a program ran:\n%s", ran)
			}
		})
	}
}
