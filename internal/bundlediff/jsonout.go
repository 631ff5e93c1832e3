package bundlediff

import (
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/jsonout"
)

type jsonReport struct {
	*Result
	Equal   bool           `json:"equal"`
	Summary map[Status]int `json:"summary"`
}

func writeJSON(w io.Writer, r *Result) error {
	rep := jsonReport{Result: r, Equal: r.Equal(), Summary: map[Status]int{
		Changed: r.Count(Changed), Added: r.Count(Added), Removed: r.Count(Removed),
	}}
	return jsonout.Write(w, rep)
}
