package bundle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/fn/framework/frameworktestutil"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// envFile optionally sits next to a case's config.yaml and lists the
// environment the function sees, so env-driven cases never read the real
// environment of the machine running the tests.
const envFile = "env.yaml"

// TestFunctionSuccess runs every testdata/success/<case>/config.yaml through the
// Processor and compares the emitted stream with expected.yaml.
func TestFunctionSuccess(t *testing.T) {
	checker := frameworktestutil.ProcessorResultsChecker{
		TestDataDirectory:        "testdata/success",
		InputFilename:            "config.yaml",
		UpdateExpectedFromActual: goldenfile.Update(t),
		OutputAssertionFunc:      equalIgnoringComments,
		Processor:                processorForCase(),
	}
	checker.Assert(t)
}

// TestFunctionErrors runs every testdata/error/<case>/config.yaml and requires
// each line of errors.txt, a regex, to match the error. errors.txt files are
// written by hand (never by -update) so they pin the field, message and fix.
func TestFunctionErrors(t *testing.T) {
	checker := frameworktestutil.ProcessorResultsChecker{
		TestDataDirectory:  "testdata/error",
		InputFilename:      "config.yaml",
		ErrorAssertionFunc: everyLineAndEveryResultMatch,
		Processor:          processorForCase(),
	}
	checker.Assert(t)
}

// processorForCase is called by the checker with the case directory as the
// working directory. It feeds config.yaml to the function the way kustomize
// runs a generator: as the functionConfig, with no input items. Problems with
// the fixture itself are returned as errors: the checker runs this inside a
// subtest, where the parent's t must not be failed.
func processorForCase() func() framework.ResourceListProcessor {
	return func() framework.ResourceListProcessor {
		return framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
			getenv, err := readEnvFile(".")
			if err != nil {
				return err
			}
			if len(rl.Items) != 1 {
				return fmt.Errorf("fixture: config.yaml must hold exactly one document, got %d", len(rl.Items))
			}
			rl.FunctionConfig, rl.Items = rl.Items[0], nil
			return bundle.Processor(v1alpha1.Inputs{Getenv: getenv}).Process(rl)
		})
	}
}

// readEnvFile reads a case directory's env.yaml into a fake getenv.
func readEnvFile(dir string) (func(string) string, error) {
	env := map[string]string{}
	data, err := os.ReadFile(filepath.Join(dir, envFile))
	switch {
	case os.IsNotExist(err):
	case err != nil:
		return nil, fmt.Errorf("fixture: reading %s: %w", envFile, err)
	default:
		if err := yaml.UnmarshalStrict(data, &env); err != nil {
			return nil, fmt.Errorf("fixture: parsing %s: %w", envFile, err)
		}
	}
	return func(key string) string { return env[key] }, nil
}

// caseEnv is readEnvFile for a test's own case directory.
func caseEnv(t *testing.T, dir string) func(string) string {
	t.Helper()
	getenv, err := readEnvFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	return getenv
}

// everyLineAndEveryResultMatch is the checker's default (each errors.txt line
// matches the error) plus the converse: each reported result matches some
// line, so a case cannot pass while also tripping a rule it does not name.
func everyLineAndEveryResultMatch(t *testing.T, expected, actual string) {
	t.Helper()
	frameworktestutil.RequireEachLineMatches(t, expected, actual)
	var lines []*regexp.Regexp
	for _, l := range strings.Split(strings.TrimSpace(expected), "\n") {
		lines = append(lines, regexp.MustCompile(l))
	}
	for _, result := range strings.Split(actual, "\n\n") { // how framework.Results joins them
		if !slices.ContainsFunc(lines, func(re *regexp.Regexp) bool { return re.MatchString(result) }) {
			t.Errorf("result not named in errors.txt: %s", result)
		}
	}
}

var commentLine = regexp.MustCompile(`(?m)^#.*\n?`)

// equalIgnoringComments lets an expected.yaml say why it is what it is (the
// disabled case expects nothing at all, and an empty file would read as a
// missing fixture to the checker).
func equalIgnoringComments(t *testing.T, expected, actual string) {
	t.Helper()
	frameworktestutil.RequireStrippedStringsEqual(t, commentLine.ReplaceAllString(expected, ""), actual)
}

// TestEveryFieldHasASuccessCase keeps "one case per config field" true as
// fields are added: every JSON path of Spec (down to the bundle's own types)
// must be set by some testdata/success config.
func TestEveryFieldHasASuccessCase(t *testing.T) {
	set := map[string]bool{}
	dirs, err := os.ReadDir("testdata/success")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		data, err := os.ReadFile("testdata/success/" + d.Name() + "/config.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var tree map[string]any
		if err := yaml.Unmarshal(data, &tree); err != nil {
			t.Fatalf("%s: %v", d.Name(), err)
		}
		collectPaths(tree, "", set)
	}
	for _, field := range specFieldPaths() {
		if !set[field] {
			t.Errorf("no testdata/success case sets %s; add one", field)
		}
	}
}

func collectPaths(node any, prefix string, into map[string]bool) {
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	for k, v := range m {
		p := strings.TrimPrefix(prefix+"."+k, ".")
		into[p] = true
		collectPaths(v, p, into)
	}
}

// specFieldPaths lists spec.* JSON paths from the Go type, recursing only
// into the bundle's own structs (Kubernetes types are leaves).
func specFieldPaths() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue // what Default resolves, not part of the config
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			p := prefix + "." + name
			if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == t.PkgPath() {
				walk(f.Type, p)
				continue
			}
			out = append(out, p)
		}
	}
	walk(reflect.TypeFor[v1alpha1.Spec](), "spec")
	return out
}

// TestErrorCasesEmitNothing: a rejected config adds no objects, and every
// result is an error that names a field and says how to fix it.
func TestErrorCasesEmitNothing(t *testing.T) {
	dirs, err := os.ReadDir("testdata/error")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			t.Chdir("testdata/error/" + d.Name())
			data, err := os.ReadFile("config.yaml")
			if err != nil {
				t.Fatal(err)
			}
			config, err := kyaml.Parse(string(data))
			if err != nil {
				t.Fatal(err)
			}
			rl := &framework.ResourceList{FunctionConfig: config}
			err = bundle.Processor(v1alpha1.Inputs{Getenv: caseEnv(t, ".")}).Process(rl)
			results, ok := err.(framework.Results)
			if !ok || len(results) == 0 {
				t.Fatalf("want framework.Results, got %T %v", err, err)
			}
			if len(rl.Items) != 0 {
				t.Errorf("a rejected config emitted %d objects", len(rl.Items))
			}
			for _, r := range results {
				if r.Severity != framework.Error || r.Field == nil || r.Field.Path == "" || !strings.Contains(r.Message, "(fix: ") {
					t.Errorf("result without severity error, field path and fix: %s", r)
				}
			}
		})
	}
}
