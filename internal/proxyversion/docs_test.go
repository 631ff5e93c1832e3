package proxyversion_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestDocsStateTheReleases: the versions table of docs/proxy-versions.md
// and the README's --proxy-version sentence give each version the
// OpenShift range its Version.OpenShift holds, and both name the oldest
// supported release, so the docs cannot drift from the tag mapping.
func TestDocsStateTheReleases(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(string(b)), " ")
	}
	table, readme := read("docs/proxy-versions.md"), read("README.md")
	for _, v := range proxyversion.Versions {
		row := regexp.MustCompile(`\| ` + regexp.QuoteMeta(v.OpenShift.String()) + `[^|]*\| ` + "`" + regexp.QuoteMeta(v.Name) + "` \\|")
		if !row.MatchString(table) {
			t.Errorf("docs/proxy-versions.md has no table row for %s starting %q", v.Describe(), v.OpenShift.String())
		}
		if say := fmt.Sprintf("`%s` for OpenShift %s", v.Name, v.OpenShift); !strings.Contains(readme, say) {
			t.Errorf("README.md does not say %q", say)
		}
	}
	oldest := "oldest supported OpenShift release is **" + proxyversion.OldestRelease().String() + "**"
	for name, doc := range map[string]string{"docs/proxy-versions.md": table, "README.md": readme} {
		if !strings.Contains(doc, oldest) {
			t.Errorf("%s does not say %q", name, oldest)
		}
	}
}

// TestDocsTableThePairs: docs/proxy-versions.md's "Release pairs" table has
// one row per pair, in order, with its minor, client, family, rendered mode
// and how it is proven, so the docs cannot drift from the table in code.
func TestDocsTableThePairs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "docs/proxy-versions.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Release pairs\n")
	if !ok {
		t.Fatal(`docs/proxy-versions.md has no "## Release pairs" section`)
	}
	var rows []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| 4.") || strings.HasPrefix(l, "| 5.") {
			rows = append(rows, l)
		} else if len(rows) > 0 && !strings.HasPrefix(l, "|") {
			break // the table ended
		}
	}
	var want []string
	for _, p := range proxyversion.Pairs {
		want = append(want, p.DocsRow())
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/proxy-versions.md's release pairs:\n%s\nwant (internal/proxyversion.Pairs; go run ./tools/pairs -docs prints them):\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// TestReadmeNamesTheProvenPairs: README.md names every pair a test runs
// as "4.N (Kubernetes 1.M)", so its claim of what is proven follows the table.
func TestReadmeNamesTheProvenPairs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	for _, p := range proxyversion.Pairs {
		say := fmt.Sprintf("%s (Kubernetes %s)", p.OpenShift, p.Kubernetes)
		if p.Proof != proxyversion.NotRun && !strings.Contains(readme, say) {
			t.Errorf("README.md does not name the proven pair %q", say)
		}
	}
}
