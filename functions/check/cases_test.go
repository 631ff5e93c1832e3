package check

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/yaml"
)

// ruleCase is one file of testdata/cases: a bundle (the good bundle with text
// edits, or an input of its own) and exactly the findings it must produce.
type ruleCase struct {
	Description string `json:"description"`
	// Base is the bundle the edits apply to (default bundle/good.yaml); Input replaces it.
	Base  string `json:"base"`
	Input string `json:"input"`
	Edits []struct {
		Replace string `json:"replace"`
		With    string `json:"with"`
	} `json:"edits"`
	// CertDir is a directory under testdata/certs whose files become Options.CertFiles.
	CertDir string `json:"certDir"`
	Options struct {
		AllowMissingClusterCA bool `json:"allowMissingClusterCA"`
		AllowEmpty            bool `json:"allowEmpty"`
	} `json:"options"`
	Expect []struct {
		Severity framework.Severity `json:"severity"`
		Rule     string             `json:"rule"`
		Object   string             `json:"object"`
		Field    string             `json:"field"`
		Message  string             `json:"message"` // a regular expression
	} `json:"expect"`
}

func loadCase(t *testing.T, file string) (*ruleCase, []byte, Options) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &ruleCase{}
	if err := yaml.UnmarshalStrict(raw, c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	stream := []byte(c.Input)
	if c.Input == "" {
		base := c.Base
		if base == "" {
			base = "bundle/good.yaml"
		}
		if stream, err = os.ReadFile(filepath.Join("testdata", base)); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range c.Edits {
		if n := strings.Count(string(stream), e.Replace); n != 1 {
			t.Fatalf("%s: edit %q matches %d times, want exactly once", file, e.Replace, n)
		}
		stream = []byte(strings.Replace(string(stream), e.Replace, e.With, 1))
	}
	opts := Options{AllowMissingClusterCA: c.Options.AllowMissingClusterCA, AllowEmpty: c.Options.AllowEmpty}
	if c.CertDir != "" {
		if opts.CertFiles, err = ReadCertDir(filepath.Join("testdata/certs", c.CertDir)); err != nil {
			t.Fatal(err)
		}
	}
	return c, stream, opts
}

func caseFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/cases: %v", err)
	}
	return files
}

// TestRuleCases: every case yields exactly its expected findings, no more.
func TestRuleCases(t *testing.T) {
	for _, file := range caseFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			c, stream, opts := loadCase(t, file)
			got, err := Check(stream, opts)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if len(c.Expect) == 0 {
				t.Fatalf("%s has no expected findings", file)
			}
			unmatched := append(framework.Results(nil), got...)
			for _, want := range c.Expect {
				re := regexp.MustCompile(want.Message)
				i := indexOf(unmatched, func(f *framework.Result) bool {
					return f.Severity == want.Severity && result.Rule(f) == want.Rule && result.Object(f) == want.Object && result.FieldPath(f) == want.Field && re.MatchString(f.Message)
				})
				if i < 0 {
					t.Errorf("missing finding %s %s %s %s /%s/\ngot:\n%s", want.Severity, want.Rule, want.Object, want.Field, want.Message, dump(got))
					continue
				}
				unmatched = append(unmatched[:i], unmatched[i+1:]...)
			}
			for _, f := range unmatched {
				t.Errorf("unexpected finding: [%s] %s", result.Rule(f), result.Text(f))
			}
		})
	}
}

// TestEveryRuleHasACase: README.md's rule table and the cases cover each other.
func TestEveryRuleHasACase(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllSubmatch(readme, -1) {
		documented[string(m[1])] = true
	}
	tested := map[string]bool{}
	for _, file := range caseFiles(t) {
		c, _, _ := loadCase(t, file)
		for _, e := range c.Expect {
			tested[e.Rule] = true
		}
	}
	for _, id := range sortedKeys(documented) {
		if !tested[id] {
			t.Errorf("rule %s is documented but no case in testdata/cases expects it", id)
		}
	}
	for _, id := range sortedKeys(tested) {
		if !documented[id] {
			t.Errorf("rule %s is expected by a case but not documented in README.md", id)
		}
	}
}

func indexOf(fs framework.Results, match func(*framework.Result) bool) int {
	for i, f := range fs {
		if match(f) {
			return i
		}
	}
	return -1
}

func dump(fs framework.Results) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  [%s] %s\n", result.Rule(f), result.Text(f))
	}
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
