// Package manifest parses a bundle (a multi-document YAML or JSON stream) into
// objects named by identity, with their bodies as plain JSON-shaped values.
// diff compares bundles object by object through it; the commands that read
// a bundle by role (check, render, ports, status) use internal/bundle/bundlemodel,
// which names objects by this package's ID.
package manifest

// ID identifies an object in a bundle: two objects with the same ID are the
// same object to the API server.
type ID struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// String is `apiVersion Kind namespace/name` (no namespace part when cluster-scoped).
func (id ID) String() string {
	s := id.APIVersion + " " + id.Kind + " "
	if id.Namespace != "" {
		s += id.Namespace + "/"
	}
	return s + id.Name
}

// Less orders identities by kind, namespace, name, then apiVersion, the
// order Parse returns objects in and reports list them in.
func (id ID) Less(o ID) bool {
	a := [4]string{id.Kind, id.Namespace, id.Name, id.APIVersion}
	b := [4]string{o.Kind, o.Namespace, o.Name, o.APIVersion}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// Object is one parsed document. Body holds JSON-shaped values (numbers as
// json.Number) so formatting, quoting and key order are already gone.
type Object struct {
	ID   ID
	Body map[string]any
}
