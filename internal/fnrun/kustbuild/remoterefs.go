package kustbuild

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
)

// RemoteRef is one entry of a kustomization that kustomize would fetch or
// run something for: a remote URL, a git repository, a helm chart.
type RemoteRef struct {
	File  string // the kustomization file (or plugin config file) that names it
	Field string // where, as the file spells it: "resources", "patches[1].path"
	Entry string // the entry as written; "" for a whole field (helmCharts)
	Why   string // what kustomize would do with it
}

// listedRef is one path-or-URL entry of a kustomization and the field that
// holds it.
type listedRef struct {
	field, entry string
}

// kustomizationRefs lists every entry of k that kustomize resolves as a path
// or URL (types.Kustomization of api v0.21.2, before FixKustomization folds
// bases and env into resources and envs, so each is named as written).
func kustomizationRefs(k *types.Kustomization) []listedRef {
	var out []listedRef
	list := func(field string, entries []string) {
		for _, e := range entries {
			out = append(out, listedRef{field, e})
		}
	}
	list("resources", k.Resources)
	//lint:ignore SA1019 kustomize still reads the deprecated field, so its remote entries are refused too
	list("bases", k.Bases)
	list("components", k.Components)
	list("crds", k.Crds)
	list("configurations", k.Configurations)
	list("generators", k.Generators)
	list("transformers", k.Transformers)
	list("validators", k.Validators)
	//lint:ignore SA1019 as for bases: still read by kustomize
	for _, p := range k.PatchesStrategicMerge {
		out = append(out, listedRef{"patchesStrategicMerge", string(p)})
	}
	for i, p := range k.Patches {
		list(fmt.Sprintf("patches[%d].path", i), []string{p.Path})
	}
	//lint:ignore SA1019 as for bases: still read by kustomize
	for i, p := range k.PatchesJson6902 {
		list(fmt.Sprintf("patchesJson6902[%d].path", i), []string{p.Path})
	}
	for i, r := range k.Replacements {
		list(fmt.Sprintf("replacements[%d].path", i), []string{r.Path})
	}
	for i, g := range k.ConfigMapGenerator {
		out = append(out, kvRefs(fmt.Sprintf("configMapGenerator[%d]", i), g.KvPairSources)...)
	}
	for i, g := range k.SecretGenerator {
		out = append(out, kvRefs(fmt.Sprintf("secretGenerator[%d]", i), g.KvPairSources)...)
	}
	if p, ok := k.OpenAPI["path"]; ok {
		list("openapi.path", []string{p})
	}
	return out
}

// kvRefs are a generator's files (each KEY=PATH or PATH), envs and env.
func kvRefs(field string, kv types.KvPairSources) []listedRef {
	var out []listedRef
	for _, f := range kv.FileSources {
		out = append(out, listedRef{field + ".files", f})
	}
	for _, e := range kv.EnvSources {
		out = append(out, listedRef{field + ".envs", e})
	}
	if kv.EnvSource != "" {
		out = append(out, listedRef{field + ".env", kv.EnvSource})
	}
	return out
}

// helmWhy is what kustomize does with a helm chart: run helm, which may
// fetch the chart from its repository.
const helmWhy = "a helm chart, which kustomize inflates by running helm (and helm may download it)"

// remoteRefs are the entries of the kustomization file, and of the plugin
// configs it holds inline, that kustomize would fetch, clone or run helm
// for.
func remoteRefs(file string, k *types.Kustomization) []RemoteRef {
	var out []RemoteRef
	for _, r := range kustomizationRefs(k) {
		if why := remoteEntry(r.field, r.entry); why != "" {
			out = append(out, RemoteRef{File: file, Field: r.field, Entry: r.entry, Why: why})
		}
	}
	for _, r := range kustomizationRefs(k) {
		if isPluginField(r.field) && strings.Contains(strings.TrimSpace(r.entry), "\n") { // an inline plugin config
			for _, c := range parseConfigs([]byte(r.entry)) {
				out = append(out, pluginRefs(file, r.field, c)...)
			}
		}
	}
	if len(k.HelmCharts) > 0 {
		out = append(out, RemoteRef{File: file, Field: "helmCharts", Why: helmWhy})
	}
	if len(k.HelmChartInflationGenerator) > 0 {
		out = append(out, RemoteRef{File: file, Field: "helmChartInflationGenerator", Why: helmWhy})
	}
	if k.HelmGlobals != nil {
		out = append(out, RemoteRef{File: file, Field: "helmGlobals", Why: "helm settings, which only a helm chart uses: kustomize would run helm"})
	}
	return out
}

// remoteEntry is remoteShape for an entry of field; a generator's files
// entry KEY=PATH is judged by its PATH too.
func remoteEntry(field, entry string) string {
	if why := remoteShape(entry); why != "" {
		return why
	}
	if strings.HasSuffix(field, "files") {
		if _, path, ok := strings.Cut(entry, "="); ok {
			return remoteShape(path)
		}
	}
	return ""
}

// isPluginField says field lists plugin configs: inline, files, or
// kustomizations whose resources are configs.
func isPluginField(field string) bool {
	return field == "generators" || field == "transformers" || field == "validators"
}
