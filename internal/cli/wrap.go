package cli

import "strings"

// wrap breaks text into lines of at most width characters at spaces; a
// word longer than width gets a line of its own. The help text that
// tables generate (exit codes, wait's causes) is wrapped with it.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(text) {
		switch {
		case line == 0:
		case line+1+len(word) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}
