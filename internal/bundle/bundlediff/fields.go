package bundlediff

import (
	"encoding/json"
	"reflect"
	"sort"
)

// diffValue appends the changes that turn a into b at path p.
func diffValue(p path, a, b any, out *[]Change) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			diffMap(p, av, bv, out)
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			diffList(p, av, bv, out)
			return
		}
	}
	if !equalValue(a, b) {
		*out = append(*out, Change{Op: opChange, Path: p.String(), Old: a, New: b})
	}
}

func diffMap(p path, a, b map[string]any, out *[]Change) {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	argvA, okA := containerArgv(a)
	argvB, okB := containerArgv(b)
	for _, k := range keys {
		av, inA := a[k]
		bv, inB := b[k]
		q := p.field(k)
		switch {
		case !inA:
			*out = append(*out, Change{Op: opAdd, Path: q.String(), New: bv})
		case !inB:
			*out = append(*out, Change{Op: opRemove, Path: q.String(), Old: av})
		default:
			if i, isArgv := argvFields[k]; isArgv && okA && okB {
				diffFlags(q, argvA[i], argvB[i], out)
				continue
			}
			diffValue(q, av, bv, out)
		}
	}
}

// equalValue compares decoded values; json.Number compares by text so 8091
// and 8091.0 differ, as they would to a strict decoder.
func equalValue(a, b any) bool {
	if an, ok := a.(json.Number); ok {
		bn, ok := b.(json.Number)
		return ok && an == bn
	}
	return reflect.DeepEqual(a, b)
}
