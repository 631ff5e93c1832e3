// Package fieldhint says where an unknown field of a Go-typed document was
// meant to go: the field of the same name deeper under the same parent (a
// misplaced field), else the field at that place nearest by edit distance
// (a misspelled one), else the fields that place knows. The names are the
// JSON names encoding/json and the API machinery decode by, read from the
// type itself, so a hint is never a hand-written list.
package fieldhint

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// maxSearchDepth bounds the search for a misplaced field below its parent:
// deeper matches are no useful hint, and the bound keeps recursive types
// finite.
const maxSearchDepth = 4

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// For is the hint for the unknown field at path (dotted JSON names, list
// items as [i], e.g. spec.template.spec.nodeSelecter) of a document of
// type root: `did you mean "nodeSelector"?`, `it belongs at
// spec.server.agentPort`, or the known fields there. "" when the parent of
// path is not a struct of root.
func For(root reflect.Type, path string) string {
	parts := split(path)
	if len(parts) == 0 {
		return ""
	}
	parent := typeAt(root, parts[:len(parts)-1])
	if parent == nil {
		return ""
	}
	return Hint(parent, strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1])
}

// Hint is the hint for an unknown key in a struct of type parent found at
// parentPath (dotted, "" at the top).
func Hint(parent reflect.Type, parentPath, key string) string {
	fields := JSONFields(elem(parent))
	if len(fields) == 0 {
		return ""
	}
	if near := nearest(key, fields, 1); near != "" {
		return fmt.Sprintf("did you mean %q?", near)
	}
	if deeper := findBelow(elem(parent), key); len(deeper) > 0 {
		for i, d := range deeper {
			if parentPath != "" {
				deeper[i] = parentPath + "." + d
			}
		}
		return "it belongs at " + strings.Join(deeper, " or ")
	}
	if near := nearest(key, fields, len(key)/2+1); near != "" {
		return fmt.Sprintf("did you mean %q?", near)
	}
	return "known fields: " + strings.Join(sortedNames(fields), ", ")
}

// split cuts a field path into its names, dropping list indexes: "a.b[0].c"
// is a, b, c.
func split(path string) []string {
	var out []string
	for _, p := range strings.Split(path, ".") {
		if i := strings.IndexByte(p, '['); i >= 0 {
			p = p[:i]
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// typeAt follows names from root through structs, pointers, slices and
// maps; nil when a name is no field there or a type decodes itself.
func typeAt(root reflect.Type, names []string) reflect.Type {
	t := elem(root)
	for _, name := range names {
		if t == nil || t.Kind() != reflect.Struct {
			return nil
		}
		ft, ok := JSONFields(t)[name]
		if !ok {
			return nil
		}
		t = elem(ft)
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

// elem strips pointers, slices and maps down to the element a key of the
// document decodes into; nil for a type with its own decoding (quantities,
// times), whose keys are no fields.
func elem(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
			continue
		}
		if reflect.PointerTo(t).Implements(unmarshaler) {
			return nil
		}
		return t
	}
}

// JSONFields maps the JSON names of a struct's fields to their types,
// flattening embedded and inline structs as encoding/json and the API
// machinery do.
func JSONFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	if t == nil || t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if (f.Anonymous && name == "") || strings.Contains(opts, "inline") {
			for k, v := range JSONFields(elem(f.Type)) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// nearest is the field name closest to key (ignoring case) within
// maxDist edits, "" when none is; ties go to the first name in order.
func nearest(key string, fields map[string]reflect.Type, maxDist int) string {
	best, bestDist := "", maxDist+1
	for _, name := range sortedNames(fields) {
		if d := EditDistance(strings.ToLower(key), strings.ToLower(name)); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best
}

// findBelow is the shortest dotted paths under t, within maxSearchDepth
// levels, that end in a field named key (ignoring case): several when one
// depth holds more (healthPort under server and agent), none when no depth
// does.
func findBelow(t reflect.Type, key string) []string {
	type step struct {
		t    reflect.Type
		path string
	}
	level := []step{{t: t}}
	for range maxSearchDepth {
		var next []step
		var found []string
		for _, s := range level {
			fields := JSONFields(s.t)
			for _, name := range sortedNames(fields) {
				p := name
				if s.path != "" {
					p = s.path + "." + name
				}
				if s.path != "" && strings.EqualFold(name, key) {
					found = append(found, p)
				}
				if ft := elem(fields[name]); ft != nil && ft.Kind() == reflect.Struct {
					if k := fields[name].Kind(); k == reflect.Slice || k == reflect.Array {
						p += "[]" // spec.containers[].image: in every item
					}
					next = append(next, step{ft, p})
				}
			}
		}
		if len(found) > 0 {
			return found
		}
		level = next
	}
	return nil
}

func sortedNames(fields map[string]reflect.Type) []string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// EditDistance is the Levenshtein distance of a and b in bytes.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
