package bundlediff

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// writeMarkdown writes a pull-request comment: a heading with the counts,
// then one table per changed object.
func writeMarkdown(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### Bundle diff: %s → %s\n\n", code(r.A), code(r.B))
	if r.Equal() {
		fmt.Fprintln(bw, "No differences.")
		return bw.Flush()
	}
	fmt.Fprintf(bw, "**%s**\n", summary(r))
	for _, o := range r.Objects {
		fmt.Fprintf(bw, "\n#### %s %s (%s)\n", statusSign(o.Status), code(o.ID.String()), o.Status)
		if len(o.Changes) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\n| | field | %s | %s |\n|---|---|---|---|\n", cell("old"), cell("new"))
		for _, c := range o.Changes {
			old, nu := "", ""
			if c.Op != opAdd {
				old = code(display(c.Old))
			}
			if c.Op != opRemove {
				nu = code(display(c.New))
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", opSign(c.Op), code(c.Path), old, nu)
		}
	}
	return bw.Flush()
}

// code wraps s in a code span that survives backticks and table pipes.
func code(s string) string {
	s = cell(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell escapes what would end a table cell, and the control characters a
// terminal showing the comment would act on (internal/report/textsafe).
func cell(s string) string {
	return textsafe.Escape(strings.NewReplacer("|", `\|`, "\n", " ").Replace(s))
}
