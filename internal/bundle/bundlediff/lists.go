package bundlediff

import (
	"fmt"
	"strconv"
	"strings"
)

// listKeys are the fields that identify items of well-known lists, in order
// of preference; other lists of objects use "name" when every item has a
// unique one.
var listKeys = map[string][]string{
	"volumeMounts":  {"name", "mountPath"},
	"volumeDevices": {"name", "devicePath"},
}

func diffList(p path, a, b []any, out *[]Change) {
	if isArgList(p, a, b) {
		diffFlags(p, argList(a), argList(b), out)
		return
	}
	if key := mergeKey(p.last(), a, b); key != "" {
		diffKeyed(p, key, a, b, out)
		return
	}
	if len(a) == len(b) {
		for i := range a {
			diffValue(p.item(strconv.Itoa(i)), a[i], b[i], out)
		}
		return
	}
	diffUnkeyed(p, a, b, out)
}

// diffUnkeyed reports the items only one side has: lists of different
// length without identity compare as multisets.
func diffUnkeyed(p path, a, b []any, out *[]Change) {
	usedB := make([]bool, len(b))
	var removed []int
	for i, av := range a {
		found := false
		for j, bv := range b {
			if !usedB[j] && equalValue(av, bv) {
				usedB[j], found = true, true
				break
			}
		}
		if !found {
			removed = append(removed, i)
		}
	}
	for _, i := range removed {
		*out = append(*out, Change{Op: opRemove, Path: p.item(strconv.Itoa(i)).String(), Old: a[i]})
	}
	for j, used := range usedB {
		if !used {
			*out = append(*out, Change{Op: opAdd, Path: p.item(strconv.Itoa(j)).String(), New: b[j]})
		}
	}
}

// mergeKey picks the field that names each item, or "" when none does on
// both sides.
func mergeKey(field string, a, b []any) string {
	cands := listKeys[field]
	if cands == nil {
		cands = []string{"name"}
	}
	for _, k := range cands {
		if uniqueKey(k, a) && uniqueKey(k, b) {
			return k
		}
	}
	return ""
}

func uniqueKey(k string, items []any) bool {
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		v, ok := m[k]
		if !ok {
			return false
		}
		s := fmt.Sprint(v)
		if seen[s] {
			return false
		}
		seen[s] = true
	}
	return len(items) > 0
}

func diffKeyed(p path, key string, a, b []any, out *[]Change) {
	byName := map[string]any{}
	for _, it := range b {
		byName[fmt.Sprint(it.(map[string]any)[key])] = it
	}
	inA := map[string]bool{}
	for _, it := range a {
		name := fmt.Sprint(it.(map[string]any)[key])
		inA[name] = true
		q := p.item(name)
		if bv, ok := byName[name]; ok {
			diffValue(q, it, bv, out)
		} else {
			*out = append(*out, Change{Op: opRemove, Path: q.String(), Old: it})
		}
	}
	for _, it := range b {
		name := fmt.Sprint(it.(map[string]any)[key])
		if !inA[name] {
			*out = append(*out, Change{Op: opAdd, Path: p.item(name).String(), New: it})
		}
	}
}

// isArgList: a container's command or args, or any list of strings that
// holds flags.
func isArgList(p path, a, b []any) bool {
	flags := false
	for _, l := range [][]any{a, b} {
		for _, it := range l {
			s, ok := it.(string)
			if !ok {
				return false
			}
			flags = flags || strings.HasPrefix(s, "-")
		}
	}
	f := p.last()
	return flags || ((f == "args" || f == "command") && len(a)+len(b) > 0)
}
