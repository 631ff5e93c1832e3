package egressconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/server/egressselector"
)

const head = "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\n"

// sel is one selection in YAML, indented for egressSelections.
func sel(name, connection string) string {
	return "- name: " + name + "\n  connection:\n" + indent(connection, "    ")
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+by) + "\n"
}

func doc(sels ...string) string {
	return head + "egressSelections:\n" + strings.Join(sels, "")
}

const (
	udsHTTP = "proxyProtocol: HTTPConnect\ntransport:\n  uds:\n    udsName: /etc/kubernetes/config/konnectivity-server.socket\n"
	udsGRPC = "proxyProtocol: GRPC\ntransport:\n  uds:\n    udsName: /etc/kubernetes/config/konnectivity-server.socket\n"
	direct  = "proxyProtocol: Direct\n"
)

func tcp(url, tls string) string {
	s := "proxyProtocol: HTTPConnect\ntransport:\n  tcp:\n    url: " + url + "\n"
	if tls != "" {
		s += "    tlsConfig:\n" + indent(tls, "      ")
	}
	return s
}

// cases are files the kube-apiserver loads or refuses. DIR stands for a
// directory holding ca.crt, client.crt and client.key.
var cases = []struct{ name, file string }{
	{"rendered http-connect", doc(sel("cluster", udsHTTP), sel("controlplane", direct), sel("etcd", direct))},
	{"rendered grpc", doc(sel("cluster", udsGRPC), sel("controlplane", direct), sel("etcd", direct))},
	{"v1alpha1", strings.Replace(doc(sel("cluster", udsHTTP)), "v1beta1", "v1alpha1", 1)},
	{"master is controlplane", doc(sel("master", direct), sel("cluster", udsHTTP))},
	{"master and controlplane", doc(sel("master", direct), sel("controlplane", direct))},
	{"capitalised name", doc(sel("Cluster", udsHTTP))},
	{"unknown name", doc(sel("cluster", udsHTTP), sel("storage", direct))},
	{"duplicate name", doc(sel("cluster", udsHTTP), sel("CLUSTER", direct), sel("storage", direct), sel("storage", direct))},
	{"empty selections", head + "egressSelections: []\n"},
	{"no selections", head},
	{"direct with transport", doc(sel("etcd", direct+"transport:\n  uds:\n    udsName: /x.sock\n"))},
	{"http-connect without transport", doc(sel("cluster", "proxyProtocol: HTTPConnect\n"))},
	{"http-connect empty transport", doc(sel("cluster", "proxyProtocol: HTTPConnect\ntransport: {}\n"))},
	{"http-connect tcp and uds", doc(sel("cluster", "proxyProtocol: HTTPConnect\ntransport:\n  tcp:\n    url: https://127.0.0.1:8090\n  uds:\n    udsName: /x.sock\n"))},
	{"http-connect tcp with tls and uds", doc(sel("cluster", "proxyProtocol: HTTPConnect\ntransport:\n  tcp:\n    url: https://127.0.0.1:8090\n    tlsConfig:\n      clientCert: /c.crt\n  uds:\n    udsName: /x.sock\n"))},
	{"uds without name", doc(sel("cluster", "proxyProtocol: HTTPConnect\ntransport:\n  uds: {}\n"))},
	{"tcp http", doc(sel("cluster", tcp("http://127.0.0.1:8090", "")))},
	{"tcp http with tls", doc(sel("cluster", tcp("http://127.0.0.1:8090", "clientCert: DIR/client.crt\n")))},
	{"tcp other scheme", doc(sel("cluster", tcp("ftp://127.0.0.1:8090", "")))},
	{"tcp https without tls", doc(sel("cluster", tcp("https://127.0.0.1:8090", "")))},
	{"tcp https files exist", doc(sel("cluster", tcp("https://127.0.0.1:8090", "caBundle: DIR/ca.crt\nclientCert: DIR/client.crt\nclientKey: DIR/client.key\n")))},
	{"tcp https files missing", doc(sel("cluster", tcp("https://127.0.0.1:8090", "caBundle: DIR/no-ca.crt\nclientCert: DIR/no.crt\nclientKey: DIR/no.key\n")))},
	{"tcp https names empty", doc(sel("cluster", tcp("https://127.0.0.1:8090", "caBundle: \"\"\n")))},
	{"grpc without transport", doc(sel("cluster", "proxyProtocol: GRPC\n"))},
	{"grpc over tcp", doc(sel("cluster", "proxyProtocol: GRPC\ntransport:\n  tcp:\n    url: https://127.0.0.1:8090\n"))},
	{"no protocol", doc(sel("cluster", "transport:\n  uds:\n    udsName: /x.sock\n"))},
	{"unknown protocol", doc(sel("cluster", "proxyProtocol: http-connect\n"))},
	{"misspelt field", strings.Replace(doc(sel("cluster", udsHTTP)), "udsName", "udsname", 1)},
	{"duplicate key", doc(sel("cluster", udsHTTP+"proxyProtocol: GRPC\n"))},
	{"metadata", head + "metadata:\n  name: x\negressSelections: []\n"},
	{"json", `{"apiVersion":"apiserver.k8s.io/v1beta1","kind":"EgressSelectorConfiguration","egressSelections":[{"name":"cluster","connection":{"proxyProtocol":"Direct"}}]}`},
	{"wrong version", strings.Replace(doc(sel("cluster", udsHTTP)), "v1beta1", "v1", 1)},
	{"wrong group", strings.Replace(doc(sel("cluster", udsHTTP)), "apiserver.k8s.io", "example.com", 1)},
	{"wrong kind", strings.Replace(doc(sel("cluster", udsHTTP)), "kind: EgressSelectorConfiguration", "kind: KubeAPIServerConfig", 1)},
	{"no kind", strings.Replace(doc(sel("cluster", udsHTTP)), "kind: EgressSelectorConfiguration\n", "", 1)},
	{"no apiVersion", strings.Replace(doc(sel("cluster", udsHTTP)), "apiVersion: apiserver.k8s.io/v1beta1\n", "", 1)},
	{"number as protocol", doc(sel("cluster", "proxyProtocol: 5\n"))},
	{"selections not a list", head + "egressSelections: cluster\n"},
	{"not YAML", head + "egressSelections: [\n"},
}

// TestAgreesWithKubeAPIServer loads and validates each case with
// kube-apiserver's own egressselector (linked by this test only) and with
// this package: the verdict, the loaded config and every validation error
// must be the same, and so must the load error's text but for the Go type
// names and the scheme's source line it mentions.
func TestAgreesWithKubeAPIServer(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"ca.crt", "client.crt", "client.key"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rejected := 0
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "case"+string(rune('a'+i))+".yaml")
			if err := os.WriteFile(path, []byte(strings.ReplaceAll(tc.file, "DIR", dir)), 0o600); err != nil {
				t.Fatal(err)
			}
			want, wantErr := egressselector.ReadEgressSelectorConfiguration(path)
			got, gotErr := readFile(path)
			if (wantErr != nil) != (gotErr != nil) {
				t.Fatalf("load: kube-apiserver %v, ours %v", wantErr, gotErr)
			}
			if wantErr != nil {
				rejected++
				if loadErrorText(wantErr) != loadErrorText(gotErr) {
					t.Errorf("load error:\n kube-apiserver %v\n ours           %v", wantErr, gotErr)
				}
				return
			}
			if !reflect.DeepEqual(asOurs(t, want), got) {
				t.Errorf("loaded config:\n kube-apiserver %+v\n ours           %+v", asOurs(t, want), got)
			}
			wantErrs, gotErrs := errorTexts(egressselector.ValidateEgressSelectorConfiguration(want)), errorTexts(Validate(got))
			if !reflect.DeepEqual(wantErrs, gotErrs) {
				t.Errorf("validation:\n kube-apiserver %q\n ours           %q", wantErrs, gotErrs)
			}
			if len(wantErrs) > 0 {
				rejected++
			}
		})
	}
	if rejected < len(cases)/2 {
		t.Errorf("only %d of %d cases rejected: the table lost its invalid files", rejected, len(cases))
	}
}

// Load errors differ only where they name a Go type or the scheme's source
// line; loadErrorText drops those and keeps the rest, field paths included.
var (
	goType     = regexp.MustCompile(`of type \S+`)
	goStruct   = regexp.MustCompile(`Go struct field \w+\.`)
	kindInSome = regexp.MustCompile(`(no kind "[^"]*" is registered for version "[^"]*").*`)
)

func loadErrorText(err error) string {
	s := goStruct.ReplaceAllString(goType.ReplaceAllString(err.Error(), "of type T"), "Go struct field T.")
	return kindInSome.ReplaceAllString(s, "$1")
}

// asOurs converts the kube-apiserver's internal config (no json tags: its
// fields marshal under their Go names) into this package's type.
func asOurs(t *testing.T, v any) *Config {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil { // field names match case-insensitively
		t.Fatal(err)
	}
	return &c
}

var pointer = regexp.MustCompile(`0x[0-9a-f]+`)

func errorTexts(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, pointer.ReplaceAllString(e.Error(), "0xPTR"))
	}
	return out
}

// readFile loads path as the kube-apiserver's --egress-selector-config-file
// does; probe reads it through internal/rootdir/hostfs instead, then decodes it.
func readFile(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}
