package tooltest

import (
	"os"
	"path/filepath"
	"testing"
)

// Overlay is a kustomization a test writes and builds, laid out as the
// shipped overlays are: its generator is a config/ directory that takes the
// repository's KonnectivityBundle config and patches it.
type Overlay struct {
	// Config is the repository directory config/ takes the config from,
	// relative to the repository root: "" is base/function (the exec
	// wiring); e.g. overlays/ipv6/config or base/container/config.
	Config string
	// Spec is the ConfigPatch spec config/ patches the config with; ""
	// patches nothing.
	Spec string
	// Transformers are repository directories listed under transformers:
	// (e.g. base/check), relative to the repository root.
	Transformers []string
	// Extra is appended to the overlay's kustomization.yaml: fields that
	// change the generated objects, e.g. MisdialAgents or patches:.
	Extra string
}

// WriteOverlay writes o into a new temporary directory and returns it.
// Repository directories are named relative to each kustomization, since
// kustomize refuses absolute resource paths.
func WriteOverlay(tb testing.TB, o Overlay) string {
	tb.Helper()
	dir := tb.TempDir()
	config := o.Config
	if config == "" {
		config = "base/function"
	}
	top := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- config\n"
	if len(o.Transformers) > 0 {
		top += "transformers:\n"
		for _, t := range o.Transformers {
			top += "- " + repoRel(tb, dir, t) + "\n"
		}
	}
	sub := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- " +
		repoRel(tb, filepath.Join(dir, "config"), config) + "\n"
	files := map[string]string{"kustomization.yaml": top + o.Extra}
	if o.Spec != "" {
		sub += "patches:\n- path: config-patch.yaml\n"
		files["config/config-patch.yaml"] = ConfigPatch(o.Spec)
	}
	files["config/kustomization.yaml"] = sub
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// repoRel names the repository directory rel (slash-separated, relative to
// the repository root) relative to from.
func repoRel(tb testing.TB, from, rel string) string {
	tb.Helper()
	p, err := filepath.Rel(from, filepath.Join(RepoRoot(), filepath.FromSlash(rel)))
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.ToSlash(p)
}
