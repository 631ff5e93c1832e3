package kustbuild

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// checkPatchBodies holds every patch body of the kustomization file to
// the YAML guard, inline ones included: the guard sees an inline patch
// only as a string of the kustomization, and kustomize keeps the first of
// two equal keys in it without a word (hostNetwork: true then false
// builds true). The refusal names the kustomization file, the field, the
// entry's index, its path or target, and the key with its line. A patch file outside dir's tree,
// missing or not a regular file is left to kustomize (and guardedRead), which reports it.
func (f *fnFS) checkPatchBodies(file string, data []byte) error {
	kust, err := yaml.Parse(string(data))
	if err != nil {
		return nil // kustomize reports the syntax error in its own words
	}
	for _, field := range patchFields {
		list := kust.Field(field)
		if list == nil || list.Value.YNode().Kind != yaml.SequenceNode {
			continue
		}
		for i, entry := range list.Value.YNode().Content {
			about, err := f.checkPatch(filepath.Dir(file), entry)
			if err != nil {
				return fmt.Errorf("%s: %s[%d] (%s): %w", file, field, i, about, err)
			}
		}
	}
	return nil
}

// checkPatch checks one entry: a patchesStrategicMerge string (a body when
// it spans lines, else a path) or a mapping with patch: or path:. It says
// which patch it is, for the refusal.
func (f *fnFS) checkPatch(dir string, entry *yaml.Node) (string, error) {
	switch entry.Kind {
	case yaml.ScalarNode:
		if strings.Contains(entry.Value, "\n") {
			return checkInline(entry, "")
		}
		return f.checkPatchFile(dir, entry.Value, "")
	case yaml.MappingNode:
		m := yaml.NewRNode(entry)
		target := targetOf(m)
		if body := m.Field("patch"); body != nil && body.Value.YNode().Kind == yaml.ScalarNode {
			return checkInline(body.Value.YNode(), target)
		}
		if p := m.Field("path"); p != nil && p.Value.YNode().Kind == yaml.ScalarNode {
			return f.checkPatchFile(dir, p.Value.YNode().Value, target)
		}
	}
	return "", nil
}

// checkInline checks a patch written into the kustomization. The lines of a
// literal block (patch: |) are the kustomization's own; any other style's
// are counted from the patch's first line.
func checkInline(body *yaml.Node, target string) (string, error) {
	about := "inline patch" + target
	if body.Style&yaml.LiteralStyle != 0 {
		return about, yamlguard.CheckAt([]byte(body.Value), body.Line+1)
	}
	about = fmt.Sprintf("inline patch at line %d, lines counted from its first%s", body.Line, target)
	return about, yamlguard.Check([]byte(body.Value))
}

// checkPatchFile checks a patch file as kustomize loads it: relative to
// dir and inside its tree, through the capped reader.
func (f *fnFS) checkPatchFile(dir, rel, target string) (string, error) {
	about := "path " + rel + target
	root, _, err := f.FileSystem.CleanedAbs(dir)
	if err != nil {
		return about, nil
	}
	fileDir, name, err := f.FileSystem.CleanedAbs(filepath.Join(dir, rel))
	if err != nil || name == "" || !fileDir.HasPrefix(root) {
		return about, nil // kustomize refuses it in its own words
	}
	file, err := f.FileSystem.Open(fileDir.Join(name))
	if err != nil {
		return about, nil
	}
	defer file.Close()
	if st, err := file.Stat(); err != nil || !st.Mode().IsRegular() {
		return about, nil // read once, by kustomize, through guardedRead
	}
	data, err := inputread.Reader(file, rel, inputread.KustomizationFile)
	if err != nil {
		return about, err
	}
	if err := yamlguard.Check(data); err != nil && !errors.Is(err, yamlguard.ErrNotYAML) {
		return about, fmt.Errorf("%s: %w", rel, err)
	}
	return about, nil
}

// targetOf is ", target kind=K name=N ..." of an entry with a target:, in
// the order kustomize's selector lists its fields; "" without one.
func targetOf(m *yaml.RNode) string {
	t := m.Field("target")
	if t == nil || t.Value.YNode().Kind != yaml.MappingNode {
		return ""
	}
	var parts []string
	for _, k := range []string{"group", "version", "kind", "name", "namespace", "labelSelector", "annotationSelector"} {
		if v := t.Value.Field(k); v != nil && v.Value.YNode().Kind == yaml.ScalarNode {
			parts = append(parts, k+"="+v.Value.YNode().Value)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ", target " + strings.Join(parts, " ")
}
