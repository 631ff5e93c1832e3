package bundlediff

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// TestKeyMaterialNeverPrinted: a private key anywhere in an object, as PEM or
// as base64 of PEM at any alignment, never reaches any output format.
func TestKeyMaterialNeverPrinted(t *testing.T) {
	der, keyPEM := newKey(t)
	b64 := base64.StdEncoding.EncodeToString(keyPEM)
	lastApplied, err := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"},
		"data": map[string]any{"tls.key": b64},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, value string
		summary     string // what the value becomes
	}{
		{"last-applied-configuration of a Secret", string(lastApplied), "holds base64-encoded PEM"},
		{"PEM in an annotation", string(keyPEM), "private key (EC PRIVATE KEY) sha256:"},
		{"base64 of PEM as the whole value", b64, "base64 of private key (EC PRIVATE KEY) sha256:"},
		{"base64 wrapped at 76 columns", wrap(b64, 76), "base64 of private key (EC PRIVATE KEY) sha256:"},
		{"base64 of PEM after one byte", base64.StdEncoding.EncodeToString(append([]byte("k"), keyPEM...)), "base64 of "},
		{"base64 of PEM after two bytes", "key=" + base64.StdEncoding.EncodeToString(append([]byte("k:"), keyPEM...)), "holds base64-encoded PEM"},
	}
	fragments := []string{b64[20:60], base64.StdEncoding.EncodeToString(der)[10:50]}
	for _, line := range strings.Split(string(keyPEM), "\n") {
		if len(line) > 20 && !strings.HasPrefix(line, "-----") {
			fragments = append(fragments, line)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, where := range []string{"annotation", "configmap-data"} {
				r := compareYAML(t, object(where, "old"), object(where, tc.value))
				for _, f := range Formats {
					var buf bytes.Buffer
					if err := output.Write(&buf, f, Report{r, false}); err != nil {
						t.Fatal(err)
					}
					out := buf.String()
					for _, frag := range fragments {
						if strings.Contains(out, frag) {
							t.Fatalf("%s, %s output prints key material %q:\n%s", where, f, frag, out)
						}
					}
					if !strings.Contains(out, tc.summary) {
						t.Fatalf("%s, %s output lacks %q:\n%s", where, f, tc.summary, out)
					}
				}
			}
		})
	}
}

// TestAmbiguousKindIsAnError: with two kind keys one reader could see a
// ConfigMap (printed as is) where another sees a Secret.
func TestAmbiguousKindIsAnError(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nkind: ConfigMap\ndata: {k: dmFsdWU=}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata: {k: v}\nkind: Secret\n",
	} {
		_, err := manifest.Parse([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), `a second "kind" in one YAML document`) {
			t.Errorf("Parse(%q) = %v, want a duplicate kind error", doc, err)
		}
	}
}

func object(where, value string) string {
	v, _ := json.Marshal(value)
	if where == "annotation" {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: " + string(v) + "\n"
	}
	return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  key: " + string(v) + "\n"
}

func compareYAML(t *testing.T, a, b string) *Result {
	t.Helper()
	oa, err := manifest.Parse([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	ob, err := manifest.Parse([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	return Compare("a", oa, "b", ob)
}

func newKey(t *testing.T) (der, pemBytes []byte) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err = x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return der, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
}

func wrap(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width] + "\n")
		s = s[width:]
	}
	return b.String() + s
}
