// Package installprofile reads the cluster's TLS security profile from the
// install's manifests on the bootstrap host: the APIServer named cluster
// (config.openshift.io/v1) in hostlayout.InstallManifestDirs under --root,
// its spec.tlsSecurityProfile, which render hands to the generator. Files
// are read confined to the root through hostfs (no links, capped), and
// every YAML passes yamlguard.
package installprofile

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// profileField is where the profile sits in an APIServer, as errors name it.
const profileField = "spec.tlsSecurityProfile"

// maxMessage bounds a parser's message an Error repeats: it quotes the
// manifest (an unknown key of 200 KB), which is the user's to read, not ours
// to echo whole.
const maxMessage = 200

// Found is the cluster's APIServer manifest and the profile it sets.
type Found struct {
	// Path is the manifest's path on the host (/opt/openshift/...).
	Path string
	// Profile is its spec.tlsSecurityProfile; nil when it sets none.
	Profile *configv1.TLSSecurityProfile
}

// Error is a manifest render cannot follow: it names the manifest, the
// field and the fix.
type Error struct{ Path, Field, Message, Fix string }

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s (fix: %s)", e.Path, e.Field, e.Message, e.Fix)
}

// Read finds the APIServer named cluster in the install's manifests under
// root: nil when none is there. Two that set different profiles are an
// Error naming both; the same file copied to both directories is one.
func Read(root *hostfs.Root) (*Found, error) {
	var found *Found
	for _, dir := range hostlayout.InstallManifestDirs {
		names, err := root.ReadDirNames(dir)
		if err != nil {
			return nil, fmt.Errorf("reading the install's manifests: %w", err)
		}
		slices.Sort(names)
		for _, name := range names {
			f, err := readFile(root, path.Join(dir, name))
			if err != nil || f == nil {
				return nil, err
			}
			if found, err = agree(found, f); err != nil {
				return nil, err
			}
		}
	}
	return found, nil
}

// agree keeps the first APIServer found and refuses a second that says
// otherwise.
func agree(first, next *Found) (*Found, error) {
	switch {
	case next == nil:
		return first, nil
	case first == nil:
		return next, nil
	case tlsprofile.Same(first.Profile, next.Profile):
		return first, nil
	}
	return nil, &Error{Path: next.Path, Field: profileField,
		Message: fmt.Sprintf("the APIServer named cluster here sets %s, and so does %s, differently (%s there, %s here)", profileField, first.Path, describe(first.Profile), describe(next.Profile)),
		Fix:     "keep one APIServer/cluster manifest, or make both say the same; the cluster would apply only one of them"}
}

func describe(p *configv1.TLSSecurityProfile) string {
	if p == nil {
		return "none"
	}
	if p.Type == "" {
		return "an empty type"
	}
	return string(p.Type)
}

// readFile returns the APIServer/cluster a YAML file under the root holds,
// nil when it holds none. A file not named .yaml, .yml or .json is not a
// manifest cluster-bootstrap applies, and render's own are not the
// cluster's: neither is read.
func readFile(root *hostfs.Root, rel string) (*Found, error) {
	if !slices.Contains([]string{".yaml", ".yml", ".json"}, path.Ext(rel)) || hostlayout.OwnClusterFile(path.Base(rel)) {
		return nil, nil
	}
	if fi, err := root.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
		return nil, nil // a directory or link among the manifests is not one cluster-bootstrap reads as a file either
	}
	data, err := root.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(data, []byte("APIServer")) {
		return nil, nil // most manifests: not parsed at all
	}
	abs := "/" + rel
	if err := yamlguard.CheckInput(abs, data); err != nil {
		return nil, err
	}
	nodes, err := kio.FromBytes(data)
	if err != nil {
		// refused as yamlguard refuses a bomb: passed over, an APIServer
		// with a typo would leave the listener at Intermediate unsaid
		return nil, &Error{Path: abs, Field: "its YAML", Message: textsafe.Excerpt(err.Error(), maxMessage),
			Fix: "repair or remove that manifest: cluster-bootstrap would refuse it too"}
	}
	var found *Found
	for _, n := range nodes {
		if n.GetApiVersion() != configv1.GroupVersion.String() || n.GetKind() != "APIServer" || n.GetName() != "cluster" {
			continue
		}
		// every one, not the first: a second document saying otherwise
		// is refused as a second file would be
		f, err := decode(abs, n)
		if err == nil {
			found, err = agree(found, f)
		}
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// decode reads the manifest's profile strictly and resolves it, so an
// error names the manifest rather than the config the profile reaches.
func decode(abs string, n *kyaml.RNode) (*Found, error) {
	f := &Found{Path: abs}
	sub, err := n.Pipe(kyaml.Lookup(strings.Split(profileField, ".")...))
	if err != nil || sub == nil {
		return f, nil
	}
	js, err := sub.MarshalJSON()
	if err != nil {
		return nil, &Error{Path: abs, Field: profileField, Message: textsafe.Excerpt(err.Error(), maxMessage), Fix: "write it as OpenShift's APIServer documents it"}
	}
	var p configv1.TLSSecurityProfile
	strict, err := kjson.UnmarshalStrict(js, &p)
	if err == nil && len(strict) > 0 {
		err = strict[0]
	}
	if err != nil {
		return nil, &Error{Path: abs, Field: profileField, Message: textsafe.Excerpt(err.Error(), maxMessage), Fix: "use the fields type, old, intermediate, modern and custom (ciphers, minTLSVersion)"}
	}
	s, err := tlsprofile.Resolve(&p)
	if err == nil {
		err = s.CheckFIPS()
	}
	var es tlsprofile.Errors
	if errors.As(err, &es) {
		return nil, &Error{Path: abs, Field: profileField + "." + es[0].Field, Message: es[0].Message, Fix: es[0].Fix}
	}
	f.Profile = &p
	return f, nil
}
