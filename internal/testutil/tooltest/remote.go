package tooltest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// RemoteShapes are the entries kustomize's loader would download or clone
// (with git, over https, ssh or a file:// repository), each aimed at host
// (a 127.0.0.1:PORT listener the test watches) or at github.com, which a
// git on PATH that records its runs never reaches.
func RemoteShapes(host string) []string {
	return []string{
		"https://" + host + "/x.yaml",
		"http://" + host + "/x.yaml",
		"HTTPS://" + host + "/upper.yaml",
		"https://" + host + "/org/repo.git?ref=v1",
		"github.com/org/repo?ref=v1",
		"github.com:org/repo",
		"GitHub.com/org/repo//sub",
		"git@github.com:org/repo.git",
		"git@127.0.0.1:org/repo",
		"ssh://git@" + host + "/org/repo",
		"git::http://" + host + "/org/repo",
		"file:///nonexistent/repo.git",
	}
}

// RemoteField is one place a kustomization names a path or URL: Write
// lays out a kustomization (kustomization.yaml, and any file it includes)
// listing entries there; File is the file that names them, Field the
// field as the refusal names it (%d: the entry's index), Written the entry
// as it stands in File (nil: as given). Single: the place holds one entry
// (openapi.path), so each entry gets a tree of its own. Helm: the place is
// refused whatever it holds, so it is written once, without entries.
type RemoteField struct {
	Field, File string
	Write       func(entries []string) map[string]string
	Written     func(i int, entry string) string
	Single      bool
	Helm        bool
}

// Entry is entry i as File holds it.
func (f RemoteField) Entry(i int, entry string) string {
	if f.Written == nil {
		return entry
	}
	return f.Written(i, entry)
}

// Name is the field as the refusal names it for entry i.
func (f RemoteField) Name(i int) string {
	if strings.Contains(f.Field, "%d") {
		return fmt.Sprintf(f.Field, i)
	}
	return f.Field
}

func yamlList(entries []string, each func(i int, e string) string) string {
	var b strings.Builder
	for i, e := range entries {
		b.WriteString(each(i, e))
	}
	return b.String()
}

func quoted(_ int, e string) string { return "- " + strconv.Quote(e) + "\n" }

func listField(name string) RemoteField {
	return RemoteField{Field: name, File: "kustomization.yaml", Write: func(es []string) map[string]string {
		return map[string]string{"kustomization.yaml": name + ":\n" + yamlList(es, quoted)}
	}}
}

func kustomization(body string) map[string]string {
	return map[string]string{"kustomization.yaml": body}
}

// kvFields are the three places of a configMapGenerator or secretGenerator.
func kvFields(gen string) []RemoteField {
	return []RemoteField{
		{Field: gen + "[0].files", File: "kustomization.yaml", Write: func(es []string) map[string]string {
			return kustomization(gen + ":\n- name: g\n  files:\n" + yamlList(es, func(i int, e string) string { return "  " + quoted(i, e) }))
		}},
		{Field: gen + "[0].files", File: "kustomization.yaml", Written: func(i int, e string) string { return fmt.Sprintf("key%d=%s", i, e) },
			Write: func(es []string) map[string]string {
				return kustomization(gen + ":\n- name: g\n  files:\n" + yamlList(es, func(i int, e string) string { return "  " + quoted(i, fmt.Sprintf("key%d=%s", i, e)) }))
			}},
		{Field: gen + "[0].envs", File: "kustomization.yaml", Write: func(es []string) map[string]string {
			return kustomization(gen + ":\n- name: g\n  envs:\n" + yamlList(es, func(i int, e string) string { return "  " + quoted(i, e) }))
		}},
		{Field: gen + "[%d].env", File: "kustomization.yaml", Write: func(es []string) map[string]string {
			return kustomization(gen + ":\n" + yamlList(es, func(i int, e string) string { return fmt.Sprintf("- name: g%d\n  env: %s\n", i, strconv.Quote(e)) }))
		}},
	}
}

// patchTransformers are PatchTransformer configs, one for each entry as its path.
func patchTransformers(es []string) string {
	return yamlList(es, func(i int, e string) string {
		return fmt.Sprintf("---\napiVersion: builtin\nkind: PatchTransformer\nmetadata: {name: p%d}\npath: %s\n", i, strconv.Quote(e))
	})
}

// RemoteFields are every place of types.Kustomization (kustomize api
// v0.21.2) that takes a path or URL, the plugin configs it lists (inline,
// in a file, built from a directory), a component, and helm.
func RemoteFields() []RemoteField {
	fields := []RemoteField{}
	for _, name := range []string{"resources", "bases", "components", "crds", "configurations", "generators", "transformers", "validators", "patchesStrategicMerge"} {
		fields = append(fields, listField(name))
	}
	for name, more := range map[string]string{"patches": "\n  target: {kind: ConfigMap}", "patchesJson6902": "\n  target: {kind: ConfigMap}", "replacements": ""} {
		fields = append(fields, RemoteField{Field: name + "[%d].path", File: "kustomization.yaml", Write: func(es []string) map[string]string {
			return kustomization(name + ":\n" + yamlList(es, func(_ int, e string) string { return "- path: " + strconv.Quote(e) + more + "\n" }))
		}})
	}
	fields = append(fields, kvFields("configMapGenerator")...)
	fields = append(fields, kvFields("secretGenerator")...)
	fields = append(fields,
		RemoteField{Field: "openapi.path", File: "kustomization.yaml", Single: true, Write: func(es []string) map[string]string {
			return kustomization("openapi:\n  path: " + strconv.Quote(es[0]) + "\n")
		}},
		RemoteField{Field: "transformers (a PatchTransformer config) path", File: "kustomization.yaml", Write: func(es []string) map[string]string {
			return kustomization("transformers:\n" + yamlList(es, func(i int, e string) string {
				return "- |\n" + indent(patchTransformers([]string{e})) // one inline config each
			}))
		}},
		RemoteField{Field: "generators (a ConfigMapGenerator config) files", File: "gen.yaml", Write: func(es []string) map[string]string {
			return map[string]string{"kustomization.yaml": "generators:\n- gen.yaml\n",
				"gen.yaml": "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: g}\nfiles:\n" + yamlList(es, quoted)}
		}},
		RemoteField{Field: "resources (a PatchTransformer config) path", File: "plugins/configs.yaml", Write: func(es []string) map[string]string {
			return map[string]string{"kustomization.yaml": "transformers:\n- plugins\n",
				"plugins/kustomization.yaml": "resources:\n- configs.yaml\n", "plugins/configs.yaml": patchTransformers(es)}
		}},
		RemoteField{Field: "resources", File: "comp/kustomization.yaml", Write: func(es []string) map[string]string {
			return map[string]string{"kustomization.yaml": "components:\n- comp\n",
				"comp/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n" + yamlList(es, quoted)}
		}},
		RemoteField{Field: "helmCharts", File: "kustomization.yaml", Helm: true, Write: func([]string) map[string]string {
			return kustomization("helmCharts:\n- name: chart\n  repo: https://charts.invalid/\n  version: 1.0.0\n")
		}},
		RemoteField{Field: "helmChartInflationGenerator", File: "kustomization.yaml", Helm: true, Write: func([]string) map[string]string {
			return kustomization("helmChartInflationGenerator:\n- chartName: chart\n  chartRepoUrl: https://charts.invalid/\n")
		}},
		RemoteField{Field: "helmGlobals", File: "kustomization.yaml", Helm: true, Write: func([]string) map[string]string {
			return kustomization("helmGlobals:\n  chartHome: charts\n")
		}},
		RemoteField{Field: "generators (a HelmChartInflationGenerator config)", File: "kustomization.yaml", Helm: true, Write: func([]string) map[string]string {
			return kustomization("generators:\n- |\n  apiVersion: builtin\n  kind: HelmChartInflationGenerator\n  metadata: {name: h}\n  chartName: chart\n  chartRepoUrl: https://charts.invalid/\n")
		}},
	)
	return fields
}

func indent(s string) string {
	s = strings.TrimPrefix(s, "---\n")
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// WriteTree writes files (relative paths) under dir.
func WriteTree(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for rel, body := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// RemoteLine is what a refusal must say for one entry: the file, the field
// and the entry (helm: the field alone).
type RemoteLine struct{ File, Field, Entry string }

// Says is the text of the refusal's line up to what kustomize would do.
func (l RemoteLine) Says() string {
	if l.Entry == "" {
		return l.File + ": " + l.Field + " is "
	}
	return l.File + ": " + l.Field + ` entry "` + l.Entry + `"`
}

// WriteRemoteTree writes under dir one kustomization that includes, as
// local bases, a tree for every RemoteField holding every shape, and
// returns the line the refusal must say for each.
func WriteRemoteTree(tb testing.TB, dir string, shapes []string) []RemoteLine {
	tb.Helper()
	var top strings.Builder
	top.WriteString("resources:\n")
	var lines []RemoteLine
	add := func(sub string, f RemoteField, entries []string) {
		WriteTree(tb, filepath.Join(dir, sub), f.Write(entries))
		top.WriteString("- " + sub + "\n")
		if f.Helm {
			lines = append(lines, RemoteLine{filepath.Join(dir, sub, f.File), f.Name(0), ""})
			return
		}
		for i, e := range entries {
			lines = append(lines, RemoteLine{filepath.Join(dir, sub, f.File), f.Name(i), f.Entry(i, e)})
		}
	}
	for n, f := range RemoteFields() {
		if !f.Single {
			add(fmt.Sprintf("f%02d", n), f, shapes)
			continue
		}
		for i, e := range shapes {
			add(fmt.Sprintf("f%02d-%02d", n, i), f, []string{e})
		}
	}
	WriteTree(tb, dir, map[string]string{"kustomization.yaml": top.String()})
	return lines
}
