package guidetest

import (
	"regexp"
	"strings"
)

// fenceLine is a line that may open or close a fenced block, as CommonMark
// reads one: up to three spaces, then three or more backticks or tildes,
// then the info string.
var fenceLine = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})(.*)$")

// fence is an opening fence: its character, its length and its indent.
type fence struct {
	char   byte
	n      int
	indent int
}

// fenceOf reads line as a fence, with its info string.
func fenceOf(line string) (f fence, info string, ok bool) {
	m := fenceLine.FindStringSubmatch(line)
	if m == nil {
		return f, "", false
	}
	return fence{char: m[2][0], n: len(m[2]), indent: len(m[1])}, strings.TrimSpace(m[3]), true
}

// closedBy says line closes f: the same character, at least as many of
// it, and nothing after them but spaces. A shorter run (``` inside
// ````) or another character is content.
func (f fence) closedBy(line string) bool {
	c, info, ok := fenceOf(line)
	return ok && c.char == f.char && c.n >= f.n && info == ""
}

// content is a line inside f with up to f's indent removed, as the
// fence's indent is the block's margin.
func (f fence) content(line string) string {
	for range f.indent {
		rest, ok := strings.CutPrefix(line, " ")
		if !ok {
			break
		}
		line = rest
	}
	return line
}

// mark is f's opening run, for messages.
func (f fence) mark() string { return strings.Repeat(string(f.char), f.n) }
