package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// Parse splits a YAML (or JSON) stream into objects, sorted by identity.
// Empty documents are skipped; a document without apiVersion, kind or
// metadata.name, two documents with the same identity, and anything the YAML
// guard refuses (duplicate keys, alias bombs) are errors.
func Parse(stream []byte) ([]Object, error) {
	// The guard refuses duplicate keys: with two kind keys, the reader that
	// decides redaction and the reader of the output could see different kinds.
	if err := yamlguard.Check(stream); err != nil {
		return nil, err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var objs []Object
	seen := map[ID]int{}
	for n := 1; ; n++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		obj, ok, err := parseDoc(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if !ok {
			continue
		}
		if prev, dup := seen[obj.ID]; dup {
			return nil, fmt.Errorf("document %d: %s appears twice (first in document %d); object identities must be unique", n, obj.ID, prev)
		}
		seen[obj.ID] = n
		objs = append(objs, obj)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].ID.Less(objs[j].ID) })
	return objs, nil
}

func parseDoc(doc []byte) (Object, bool, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return Object{}, false, fmt.Errorf("not valid YAML: %w", err)
	}
	if t := bytes.TrimSpace(js); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return Object{}, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		return Object{}, false, fmt.Errorf("not a YAML mapping (a Kubernetes object): %w", err)
	}
	id := ID{APIVersion: str(body["apiVersion"]), Kind: str(body["kind"])}
	if md, ok := body["metadata"].(map[string]any); ok {
		id.Namespace, id.Name = str(md["namespace"]), str(md["name"])
	}
	for _, f := range []struct{ field, val string }{{"apiVersion", id.APIVersion}, {"kind", id.Kind}, {"metadata.name", id.Name}} {
		if f.val == "" {
			return Object{}, false, fmt.Errorf("object has no %s; every object needs apiVersion, kind and metadata.name", f.field)
		}
	}
	return Object{ID: id, Body: dropNulls(body).(map[string]any)}, true, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// dropNulls removes null map values: `field: null` and an absent field mean
// the same to the API server.
func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = dropNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = dropNulls(e)
		}
	}
	return v
}
