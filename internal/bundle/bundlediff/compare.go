// Package bundlediff compares two parsed bundles object by object and field
// by field, the way a reviewer reads them: objects matched by identity,
// container args flag by flag, named list items by name, and secret material
// summarised instead of printed. It diffs and formats only: the caller reads
// and parses the bundles (internal/bundle/manifest).
package bundlediff

import (
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
)

// Status says what happened to an object.
type Status string

// Object statuses.
const (
	added   Status = "added"
	removed Status = "removed"
	changed Status = "changed"
)

// Op says what happened to a field.
type Op string

// Field operations.
const (
	opAdd    Op = "add"
	opRemove Op = "remove"
	opChange Op = "change"
)

// Change is one field that differs. Old is absent for opAdd, New for opRemove.
type Change struct {
	Op   Op     `json:"op"`
	Path string `json:"path"`
	Old  any    `json:"old,omitempty"`
	New  any    `json:"new,omitempty"`
}

// ObjectDiff is one object that was added, removed or changed.
type ObjectDiff struct {
	manifest.ID
	Status  Status   `json:"status"`
	Changes []Change `json:"changes,omitempty"`
}

// Result is the whole comparison of bundle A (old) with bundle B (new).
type Result struct {
	A       string       `json:"a"`
	B       string       `json:"b"`
	Objects []ObjectDiff `json:"objects"`
}

// Equal reports whether the bundles mean the same to the cluster.
func (r *Result) Equal() bool { return len(r.Objects) == 0 }

// count returns how many objects have status s.
func (r *Result) count(s Status) int {
	n := 0
	for _, o := range r.Objects {
		if o.Status == s {
			n++
		}
	}
	return n
}

// Compare diffs two parsed bundles; labelA and labelB name them in output.
// Secret material in both is replaced by its summary in place before
// comparing, so the objects never carry it to any output afterwards.
func Compare(labelA string, a []manifest.Object, labelB string, b []manifest.Object) *Result {
	r := &Result{A: labelA, B: labelB, Objects: []ObjectDiff{}}
	inB := map[manifest.ID]manifest.Object{}
	for _, o := range b {
		redact(o)
		dropOwner(o)
		inB[o.ID] = o
	}
	inA := map[manifest.ID]bool{}
	for _, o := range a {
		redact(o)
		dropOwner(o)
		inA[o.ID] = true
		nb, ok := inB[o.ID]
		if !ok {
			r.Objects = append(r.Objects, ObjectDiff{ID: o.ID, Status: removed})
			continue
		}
		var cs []Change
		diffValue(nil, o.Body, nb.Body, &cs)
		if len(cs) > 0 {
			r.Objects = append(r.Objects, ObjectDiff{ID: o.ID, Status: changed, Changes: cs})
		}
	}
	for _, o := range b {
		if !inA[o.ID] {
			r.Objects = append(r.Objects, ObjectDiff{ID: o.ID, Status: added})
		}
	}
	sortObjects(r.Objects)
	return r
}

// dropOwner removes the owner marker render stamps on cluster objects
// (hostlayout.AnnotationOwner). It is a random id per host root, so two
// renders of one bundle always differ there, and it says nothing about what
// the bundle does: comparing rendered roots must not report it.
func dropOwner(o manifest.Object) {
	md, _ := o.Body["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if _, ok := ann[hostlayout.AnnotationOwner]; !ok {
		return
	}
	delete(ann, hostlayout.AnnotationOwner)
	if len(ann) == 0 {
		delete(md, "annotations")
	}
}

func sortObjects(objs []ObjectDiff) {
	sort.Slice(objs, func(i, j int) bool { return objs[i].ID.Less(objs[j].ID) })
}
