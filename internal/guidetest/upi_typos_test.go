package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestUPIGuidePatchTypos: every field of every kustomize patch the guide's
// overlay writes (steps 1 to 3 of docs/upi.md: the config patch and the
// DaemonSet patch), misspelled one at a time, makes build and check fail
// with the field's path and the name meant. A misspelled key of a
// DaemonSet patch used to build and check clean (the API server drops it
// at apply time). The patch's identity (apiVersion, kind, metadata.name
// and namespace) is left alone: a wrong one is a patch without a target,
// another error; so are the keys of label maps (nodeSelector's), which
// are data, not fields.
func TestUPIGuidePatchTypos(t *testing.T) {
	var setup []Block
	for _, b := range Runnable(guideBlocks(t, "upi.md")) {
		if strings.HasPrefix(b.Section, "1.") || strings.HasPrefix(b.Section, "2.") || strings.HasPrefix(b.Section, "3.") {
			setup = append(setup, b)
		}
	}
	sb := newSandbox(t, "kb-typos")
	if out, err := sb.run(script("upi.md", setup), "TMPDIR="+sb.tmp); err != nil {
		t.Fatalf("steps 1 to 3 of the guide failed: %v\n%s", err, lastLines(out, 30))
	}
	overlay := filepath.Join(sb.tmp, "my-cluster")
	patches := guidePatches(t, overlay)
	if len(patches) < 2 {
		t.Fatalf("found %d patches in the guide's overlay, want the config patch and the DaemonSet patch", len(patches))
	}
	cases := 0
	for _, p := range patches {
		for _, path := range fieldPaths(t, p.text) {
			cases++
			key := path[len(path)-1]
			typo := misspell(key)
			t.Run(p.name+"/"+strings.Join(path, "."), func(t *testing.T) {
				p.write(t, renameKey(t, p.text, path, typo))
				defer p.write(t, p.text)
				for _, cmd := range []string{"build", "check"} {
					out, err := sb.cmd(cmd, "../my-cluster")
					if err == nil {
						t.Fatalf("%s with %s misspelled as %s succeeded:\n%s", cmd, key, typo, lastLines(out, 10))
					}
					for _, want := range []string{typo + ": unknown field", `did you mean "` + key + `"?`} {
						if !strings.Contains(out, want) {
							t.Errorf("%s with %s misspelled as %s: the error lacks %q:\n%s", cmd, key, typo, want, lastLines(out, 10))
						}
					}
				}
			})
		}
	}
	if cases < 10 {
		t.Errorf("only %d fields misspelled; the guide's patches have more", cases)
	}
}

// guidePatch is one patch of the overlay: a file, or a string inline in a
// kustomization.
type guidePatch struct {
	name, text string
	write      func(t *testing.T, text string)
}

// guidePatches reads every patches: entry of the kustomizations under dir.
func guidePatches(t *testing.T, dir string) []guidePatch {
	t.Helper()
	var out []guidePatch
	kusts, err := filepath.Glob(filepath.Join(dir, "*", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kusts = append([]string{filepath.Join(dir, "kustomization.yaml")}, kusts...)
	for _, k := range kusts {
		node, err := yaml.ReadFile(k)
		if err != nil {
			t.Fatal(err)
		}
		items, err := node.Pipe(yaml.Lookup("patches"))
		if err != nil || items == nil {
			continue
		}
		elems, err := items.Elements()
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range elems {
			out = append(out, onePatch(t, k, node, e, i))
		}
	}
	return out
}

func onePatch(t *testing.T, kust string, node, e *yaml.RNode, i int) guidePatch {
	t.Helper()
	if f := e.Field("path"); f != nil {
		file := filepath.Join(filepath.Dir(kust), yaml.GetValue(f.Value))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return guidePatch{name: filepath.Base(file), text: string(data), write: func(t *testing.T, text string) {
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}}
	}
	inline := e.Field("patch")
	if inline == nil {
		t.Fatalf("%s: patches[%d] has neither path nor patch", kust, i)
	}
	return guidePatch{name: filepath.Base(filepath.Dir(kust)) + "-patch" + string(rune('0'+i)), text: inline.Value.YNode().Value,
		write: func(t *testing.T, text string) {
			inline.Value.YNode().Value = text
			if err := yaml.WriteFile(node, kust); err != nil {
				t.Fatal(err)
			}
		}}
}

// fieldPaths lists the path of every mapping key of a patch that names a
// field, list items as "[i]".
func fieldPaths(t *testing.T, text string) [][]string {
	t.Helper()
	n, err := yaml.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	var walk func(y *yaml.Node, path []string)
	walk = func(y *yaml.Node, path []string) {
		switch y.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(y.Content); i += 2 {
				key := y.Content[i].Value
				p := append(append([]string{}, path...), key)
				if identity(p) || strings.Contains(key, "/") {
					continue
				}
				out = append(out, p)
				walk(y.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range y.Content {
				walk(c, append(append([]string{}, path...), "["+string(rune('0'+i))+"]"))
			}
		}
	}
	walk(n.YNode(), nil)
	return out
}

func identity(path []string) bool {
	switch strings.Join(path, ".") {
	case "apiVersion", "kind", "metadata", "metadata.name", "metadata.namespace":
		return true
	}
	return false
}

// renameKey renames the key at path in a patch's text.
func renameKey(t *testing.T, text string, path []string, to string) string {
	t.Helper()
	n, err := yaml.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	y := n.YNode()
	for i, step := range path {
		if strings.HasPrefix(step, "[") {
			y = y.Content[int(step[1]-'0')]
			continue
		}
		for j := 0; j+1 < len(y.Content); j += 2 {
			if y.Content[j].Value == step {
				if i == len(path)-1 {
					y.Content[j].Value = to
				}
				y = y.Content[j+1]
				break
			}
		}
	}
	return n.MustString()
}

// misspell swaps a key's last two letters, the commonest typo: agentPort
// becomes agentPotr.
func misspell(key string) string {
	b := []byte(key)
	b[len(b)-1], b[len(b)-2] = b[len(b)-2], b[len(b)-1]
	return string(b)
}

// cmd runs konnectivity-bundle with args from the top of the copy.
func (sb *sandbox) cmd(args ...string) (string, error) {
	c := exec.Command(filepath.Join(binDir, "konnectivity-bundle"), args...)
	c.Dir = sb.repo
	c.Env = []string{"PATH=" + sb.path, "HOME=" + sb.tmp, "LANG=C"}
	out, err := c.CombinedOutput()
	return string(out), err
}
