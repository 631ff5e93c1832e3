// Package guidetest keeps the guides in docs/ honest: it extracts their
// code blocks, fenced and indented, so tests can run the runnable ones
// (```sh) against a copy of the repository, and check the shape of the rest.
package guidetest

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// Block is one code block: fenced (```), or indented by four spaces.
type Block struct {
	Lang string // the info string's first word: sh, bash, yaml, ...; "" for an indented block
	Line int    // 1-based line of the opening fence, or of an indented block's first line
	Body string
	// Section is the nearest heading above the block.
	Section string
	// Skip is why the block cannot run as written, from a mark on the
	// nearest non-blank line above its fence:
	// <!-- guidetest: skip: REASON -->. "" for every other block.
	Skip string
	// Indented is a block written by indentation, which names no language:
	// markdown shows it as code, so a command in it must be fenced as sh to
	// be run (IsCommands).
	Indented bool
}

// skipMark is the mark a guide puts before a command block that no test
// can run as written (it needs a real bootstrap node, say).
var skipMark = regexp.MustCompile(`^<!-- guidetest: skip: (.+?) -->$`)

// listItem is a line that starts a list item: text indented below it
// continues the item, and is no code block.
var listItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s`)

// scanner walks a document line by line, keeping what a block needs of
// the lines above it.
type scanner struct {
	out      []Block
	fenced   *Block
	indented *Block
	body     strings.Builder
	section  string
	above    string // the nearest non-blank line outside a block
	blank    bool   // the previous line was blank (or the document starts)
	inList   bool   // the paragraph above is a list item
}

// Blocks returns every code block of a markdown document: fenced (```)
// ones, and indented ones (four spaces, after a blank line, outside a list).
func Blocks(md []byte) []Block {
	s := &scanner{blank: true}
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		s.line(n, sc.Text())
	}
	s.endIndented()
	return s.out
}

func (s *scanner) line(n int, line string) {
	blank := strings.TrimSpace(line) == ""
	switch {
	case s.fenced != nil && strings.TrimSpace(line) == "```":
		s.fenced.Body = s.body.String()
		s.out = append(s.out, *s.fenced)
		s.fenced = nil
	case s.fenced != nil:
		s.body.WriteString(line + "\n")
		return
	case s.indented != nil && (blank || strings.HasPrefix(line, "    ")):
		s.body.WriteString(strings.TrimPrefix(line, "    ") + "\n")
		return
	case s.indented != nil:
		s.endIndented()
		s.line(n, line)
		return
	case strings.HasPrefix(line, "```"):
		lang, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "```")), " ")
		s.fenced = s.open(n, lang)
	case strings.HasPrefix(line, "    ") && !blank && s.blank && !s.inList:
		s.indented = s.open(n, "")
		s.indented.Indented = true
		s.body.WriteString(strings.TrimPrefix(line, "    ") + "\n")
	case strings.HasPrefix(line, "#"):
		s.section = strings.TrimSpace(strings.TrimLeft(line, "#"))
	}
	s.track(line, blank)
}

// open starts a block at line n, taking the skip mark above it.
func (s *scanner) open(n int, lang string) *Block {
	b := &Block{Lang: lang, Line: n, Section: s.section}
	if m := skipMark.FindStringSubmatch(s.above); m != nil {
		b.Skip = m[1]
	}
	s.body.Reset()
	return b
}

// track keeps the context the next block's start needs.
func (s *scanner) track(line string, blank bool) {
	s.blank = blank
	if blank || s.fenced != nil || s.indented != nil {
		return
	}
	s.above = strings.TrimSpace(line)
	switch {
	case listItem.MatchString(line):
		s.inList = true
	case !strings.HasPrefix(line, " "):
		s.inList = false
	}
}

// endIndented closes an open indented block; its trailing blank lines are
// not part of it.
func (s *scanner) endIndented() {
	if s.indented == nil {
		return
	}
	s.indented.Body = strings.TrimRight(s.body.String(), "\n") + "\n"
	s.out = append(s.out, *s.indented)
	s.indented = nil
	s.blank = true
}

// Runnable is the subset of blocks a test runs: those marked sh, but not
// those whose guide marks them as impossible to run (Skip).
func Runnable(bs []Block) []Block {
	var out []Block
	for _, b := range bs {
		if b.Lang == "sh" && b.Skip == "" {
			out = append(out, b)
		}
	}
	return out
}

// commandWords are the programs the docs' commands start with: an
// indented block whose first word is one of them holds commands.
var commandWords = []string{"konnectivity-bundle", "sudo", "make", "go", "kustomize", "podman", "crictl", "curl",
	"kubectl", "oc", "openssl", "nft", "sh", "bash", "export", "cd"}

// assignment is a first word that sets a variable for the command after it.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// IsCommands says b holds shell commands: a fenced sh or bash block, or an
// indented one whose first word is a program (commandWords) or a variable
// assignment before one. A console block is a transcript, shown.
func IsCommands(b Block) bool {
	if !b.Indented {
		return b.Lang == "sh" || b.Lang == "bash"
	}
	first, _, _ := strings.Cut(strings.TrimSpace(b.Body), " ")
	for _, w := range commandWords {
		if first == w {
			return true
		}
	}
	return assignment.MatchString(first)
}
