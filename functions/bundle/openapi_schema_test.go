package bundle_test

// The Kubernetes OpenAPI schema used to validate emitted cluster objects.
//
// Why these files and this validator:
//   - The schema is Kubernetes v1.35.4's own published OpenAPI v3
//     (api/openapi-spec/v3 of k8s.io/kubernetes v1.35.4, the release of the
//     pinned k8s.io/api v0.35.4), gzipped under testdata/openapi (see the
//     README there for the refresh command). The schema embedded in
//     sigs.k8s.io/kustomize/kyaml/openapi is Kubernetes v1.21.2 and the one in
//     client-go's openapitest is about v1.27: both are older than the Go
//     types that build our objects, so a field newer than them would be
//     reported as unknown. TestSchemaKnowsTheGoTypes guards against that.
//   - The validator is k8s.io/kube-openapi/pkg/validation/validate, already
//     in the module graph at the version k8s.io/apimachinery pins;
//     apiextensions-apiserver's wrappers around it would add a module for no
//     extra checks. It does not follow $ref, so refs are inlined here.
//   - Kubernetes schemas do not forbid unknown properties (the API server
//     prunes or rejects them separately), so undefinedProperties reports every
//     property the schema does not define, like fieldValidation=Strict.

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

var schemaFiles = []string{"testdata/openapi/api__v1_openapi.json.gz", "testdata/openapi/apis__apps__v1_openapi.json.gz"}

// kubeSchema holds every component schema, by name and by apiVersion/kind.
type kubeSchema struct {
	byName map[string]*spec.Schema
	byGVK  map[string]string // "apps/v1/DaemonSet" -> component name
	inline map[string]*spec.Schema
}

var loadSchema = sync.OnceValues(func() (*kubeSchema, error) {
	k := &kubeSchema{byName: map[string]*spec.Schema{}, byGVK: map[string]string{}, inline: map[string]*spec.Schema{}}
	for _, f := range schemaFiles {
		if err := k.read(f); err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
	}
	return k, nil
})

func (k *kubeSchema) read(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	var doc struct {
		Components struct {
			Schemas map[string]*spec.Schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.NewDecoder(z).Decode(&doc); err != nil {
		return err
	}
	for name, s := range doc.Components.Schemas {
		k.byName[name] = s
		gvks, _ := s.Extensions["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			m, _ := g.(map[string]any)
			apiVersion := fmt.Sprint(m["version"])
			if group := fmt.Sprint(m["group"]); group != "" {
				apiVersion = group + "/" + apiVersion
			}
			k.byGVK[apiVersion+"/"+fmt.Sprint(m["kind"])] = name
		}
	}
	return nil
}

// forKind is the fully inlined schema of an apiVersion/kind.
func (k *kubeSchema) forKind(apiVersion, kind string) (*spec.Schema, error) {
	name, ok := k.byGVK[apiVersion+"/"+kind]
	if !ok {
		return nil, fmt.Errorf("the schema has no %s %s", apiVersion, kind)
	}
	return k.resolve(name, map[string]bool{}), nil
}

func (k *kubeSchema) resolve(name string, inProgress map[string]bool) *spec.Schema {
	if s, ok := k.inline[name]; ok {
		return s
	}
	if inProgress[name] {
		return &spec.Schema{} // a recursive type: accept anything below the cycle
	}
	inProgress[name] = true
	s := k.inlineRefs(k.byName[name], inProgress)
	delete(inProgress, name)
	k.inline[name] = s
	return s
}

func refName(s *spec.Schema) string {
	return strings.TrimPrefix(s.Ref.String(), "#/components/schemas/")
}

// inlineRefs copies a schema with every $ref replaced by its target. The
// usual "allOf: [{$ref}]" wrapper (which only adds a description or default)
// collapses to the target itself.
func (k *kubeSchema) inlineRefs(s *spec.Schema, inProgress map[string]bool) *spec.Schema {
	if s == nil {
		return nil
	}
	if s.Ref.String() != "" {
		return k.resolve(refName(s), inProgress)
	}
	if len(s.AllOf) == 1 && s.AllOf[0].Ref.String() != "" && len(s.Type) == 0 && len(s.Properties) == 0 {
		return k.resolve(refName(&s.AllOf[0]), inProgress)
	}
	out := *s
	if out.Format == "int-or-string" {
		// The oneOf [integer, string] is the constraint; the validator would
		// apply the format name as a type to numbers (the API server maps it
		// to x-kubernetes-int-or-string instead).
		out.Format = ""
	}
	out.Properties = map[string]spec.Schema{}
	for name, p := range s.Properties {
		out.Properties[name] = *k.inlineRefs(&p, inProgress)
	}
	out.AllOf = k.inlineList(s.AllOf, inProgress)
	out.OneOf = k.inlineList(s.OneOf, inProgress)
	out.AnyOf = k.inlineList(s.AnyOf, inProgress)
	if s.Items != nil && s.Items.Schema != nil {
		out.Items = &spec.SchemaOrArray{Schema: k.inlineRefs(s.Items.Schema, inProgress)}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: true, Schema: k.inlineRefs(s.AdditionalProperties.Schema, inProgress)}
	}
	return &out
}

func (k *kubeSchema) inlineList(list []spec.Schema, inProgress map[string]bool) []spec.Schema {
	if list == nil {
		return nil
	}
	out := make([]spec.Schema, len(list))
	for i := range list {
		out[i] = *k.inlineRefs(&list[i], inProgress)
	}
	return out
}

// validateObject checks a decoded object (JSON types) against the schema of
// its apiVersion/kind and returns every violation, sorted.
func validateObject(obj map[string]any) ([]string, error) {
	k, err := loadSchema()
	if err != nil {
		return nil, err
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	s, err := k.forKind(apiVersion, kind)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, e := range validate.NewSchemaValidator(s, nil, "", strfmt.Default).Validate(obj).Errors {
		problems = append(problems, e.Error())
	}
	problems = append(problems, undefinedProperties(s, obj, "")...)
	sort.Strings(problems)
	return problems, nil
}

// undefinedProperties lists properties the schema does not define.
func undefinedProperties(s *spec.Schema, data any, path string) []string {
	var out []string
	switch v := data.(type) {
	case map[string]any:
		for key, child := range v {
			p := strings.TrimPrefix(path+"."+key, ".")
			if prop, ok := s.Properties[key]; ok {
				out = append(out, undefinedProperties(&prop, child, p)...)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				out = append(out, undefinedProperties(s.AdditionalProperties.Schema, child, p)...)
			} else if len(s.Properties) > 0 {
				out = append(out, p+": unknown field")
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for i, child := range v {
				out = append(out, undefinedProperties(s.Items.Schema, child, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return out
}
