package guidetest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
)

// causeName is a backticked word of the causes' list: a cause.
var causeName = regexp.MustCompile("`([a-z]+(?:-[a-z]+)*)`")

// TestTroubleshootingListsWaitsCauses: the troubleshooting guide's list of
// wait's causes names the causes of the gate's table (which wait --help is
// generated from), in its order, each once. The list is the guide's
// sentence "The causes, in the order the gate meets them ..." without what
// it says in parentheses about each.
func TestTroubleshootingListsWaitsCauses(t *testing.T) {
	doc := string(readGuide(t, "troubleshooting.md"))
	_, list, ok := strings.Cut(doc, "The causes, in the order the gate")
	if !ok {
		t.Fatal("docs/troubleshooting.md no longer says \"The causes, in the order the gate meets them\"; this test reads that list")
	}
	list, _, ok = strings.Cut(list, "\n\n")
	if !ok {
		t.Fatal("the list of causes in docs/troubleshooting.md never ends")
	}
	var named []string
	for _, m := range causeName.FindAllStringSubmatch(outsideParens(list), -1) {
		named = append(named, m[1])
	}
	var want []string
	for _, c := range gate.Causes() {
		want = append(want, string(c))
	}
	if len(want) == 0 || !slices.Equal(named, want) {
		t.Errorf("docs/troubleshooting.md lists wait's causes as\n  %v\nthe gate's table (wait --help) has\n  %v", named, want)
	}
}

// outsideParens is s without its parenthesised parts, nested ones too.
func outsideParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
