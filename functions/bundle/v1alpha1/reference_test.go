package v1alpha1_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// configReference is the user's field reference, relative to this package.
var configReference = filepath.Join("..", "..", "..", "docs", "config.md")

// TestConfigReferenceListsEverySpecField: docs/config.md's field table names
// every field of Spec, and nothing that is not one, so a new field cannot
// ship undocumented and a removed one cannot linger in the docs.
func TestConfigReferenceListsEverySpecField(t *testing.T) {
	doc, err := os.ReadFile(configReference)
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(spec\\.[A-Za-z.]+)` \\|").FindAllSubmatch(doc, -1) {
		documented = append(documented, string(m[1]))
	}
	fields := specFields("spec", reflect.TypeFor[v1alpha1.Spec]())
	if len(fields) < 20 {
		t.Fatalf("found only %d Spec fields (%v): the walk is broken", len(fields), fields)
	}
	for _, f := range fields {
		if !slices.Contains(documented, f) {
			t.Errorf("%s: field %s is not in the table; add a row", configReference, f)
		}
	}
	for _, d := range documented {
		if !slices.Contains(fields, d) {
			t.Errorf("%s: the table lists %s, which Spec does not have", configReference, d)
		}
	}
}

// specFields lists the JSON paths of typ's fields: the package's own
// structs are walked into, anything else (Kubernetes types, scalars,
// lists, maps) is one field the user sets whole.
func specFields(prefix string, typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + "." + name
		if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == typ.PkgPath() {
			out = append(out, specFields(path, f.Type)...)
			continue
		}
		out = append(out, path)
	}
	return out
}
