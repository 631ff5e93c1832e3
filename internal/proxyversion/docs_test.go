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
