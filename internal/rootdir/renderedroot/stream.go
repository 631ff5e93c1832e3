package renderedroot

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// hostFileNames: render writes the egress file and the KAS override without
// metadata (they are kube-apiserver config files, not cluster objects).
// Stream gives them back the names the bundle uses, so a rendered root
// compares with a built bundle object by object; nothing else is changed.
var hostFileNames = map[string]string{
	hostlayout.PlacementKASEgressConfig:   hostlayout.EgressObjectName,
	hostlayout.PlacementKASConfigOverride: hostlayout.OverrideObjectName,
}

// Stream returns the bundle objects render wrote under dir, read as they
// are on disk now (not as the state file remembers them), in the state
// file's order and joined by `---`: the static pod, the cluster manifests,
// the egress file and the KAS override. Certificates are left out; CertDir
// of Load names their directory. The state file is only read.
func Stream(dir string) ([]byte, error) {
	r := &Root{Dir: dir}
	if _, err := r.readState(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, f := range r.Files {
		switch f.Placement {
		case hostlayout.PlacementStaticPod, hostlayout.PlacementClusterManifest, hostlayout.PlacementKASEgressConfig, hostlayout.PlacementKASConfigOverride:
		default:
			continue
		}
		abs := r.Abs("/" + f.Path)
		data, err := r.ReadFile(abs) // confined to the root, never through a link
		if err == nil {
			err = yamlguard.Check(data)
		}
		if err != nil {
			return nil, fmt.Errorf("a file render wrote under %s, %s, is unreadable (run render again to restore it): %w", dir, abs, err)
		}
		if name, ok := hostFileNames[f.Placement]; ok {
			named, err := withName(data, name)
			if err != nil {
				return nil, fileError(abs, data, err)
			}
			data = named
		}
		if out.Len() > 0 {
			out.WriteString("---\n")
		}
		out.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			out.WriteByte('\n')
		}
	}
	return out.Bytes(), nil
}

// withName sets metadata.name when the document has none.
func withName(data []byte, name string) ([]byte, error) {
	n, err := yaml.Parse(string(data))
	if err != nil {
		return nil, err
	}
	if n.GetName() != "" {
		return data, nil
	}
	if err := n.SetName(name); err != nil {
		return nil, err
	}
	s, err := n.String()
	return []byte(s), err
}
