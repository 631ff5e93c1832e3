package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// The property: whatever outside value a command prints (object and field
// names, label keys, file and directory names, a kube-apiserver's object
// names and messages, the words typed), every human line carries it
// escaped: no raw control character, line or paragraph separator or format
// character, and no line that starts with a word the program did not write
// (hostiletext.Forged, after a CR, LF or U+2028 in the value). What -o
// json|yaml writes as data is left to its encoder. The commands come from
// the CLI: one it lists without a row in hostileNameRuns or
// hostileNamesNowhere fails the test.

// hostileName is hostiletext's attack, short enough to stay one name.
const hostileName = "web\r\n" + hostiletext.Forged + "\x1b[31m\a\x00\u2028" + hostiletext.Forged + "\u202e"

// nameRun is one run: its arguments and stdin, and whether stdout is data
// (-o json|yaml, a built bundle, a script), not text for a person.
type nameRun struct {
	args  []string
	stdin string
	data  bool
}

// nameFixture is what the runs use: bundles, files and directories with
// hostile names, a rendered root, and kube-apiservers that answer with
// hostile names and messages.
type nameFixture struct {
	namesFile, fieldFile, namedFile string        // hostile object names; a hostile field name; a hostile file name
	fieldDir, namedDir              string        // kustomizations: a hostile field name; in a hostile directory name
	brokenDir                       string        // a kustomization in a hostile directory naming a missing hostile file: kustomize's error quotes both
	helpFile                        string        // a proxy-server --help with hostile lines
	root                            string        // a rendered root
	fresh                           func() string // a new rendered root, for a run that removes it
	objects, forbidden              string        // kubeconfigs: hostile objects; every request refused with a hostile message
	namedKube                       string        // a kubeconfig whose user, context and token file have hostile names
}

// hostileNameRuns has the runs of every command that prints an outside
// value, each putting a hostile one in every field it prints.
var hostileNameRuns = map[string]func(f nameFixture) []nameRun{
	"build": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"build", f.fieldDir}, data: true}, {args: []string{"build", f.namedDir}, data: true}, {args: []string{"build", f.brokenDir}}}
	},
	"certs": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"certs", "--bootstrap-ip", hostTestIP, "--dir", filepath.Join(f.namedFile, "tls")}}}
	},
	"check": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"check", f.namesFile}}, {args: []string{"check", f.fieldFile}}, {args: []string{"check", f.namedFile}}, {args: []string{"check", f.brokenDir}},
			{args: []string{"check", "-"}, stdin: readFixture(f.namesFile)}}
	},
	"completion": func(nameFixture) []nameRun {
		return []nameRun{{args: []string{"completion", "bash"}, data: true}, {args: []string{"__complete", hostileName, ""}},
			{args: []string{"__complete", "build", "--" + hostileName, ""}}, {args: []string{"completion", hostileName}}}
	},
	"detect-ip": func(nameFixture) []nameRun {
		return []nameRun{{args: []string{"detect-ip", "--family", hostileName}}}
	},
	"diff": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"diff", f.namesFile, "upi"}}, {args: []string{"diff", f.fieldFile, "upi"}}, {args: []string{"diff", f.namedFile, "upi"}}, {args: []string{"diff", f.brokenDir, "upi"}}}
	},
	"fn": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"fn"}, stdin: "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: " +
			jsonString(hostileName) + "\n  kind: " + jsonString(hostileName) + "\n  metadata: {name: " + jsonString(hostileName) + "}\n", data: true}}
	},
	"ports": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"ports", f.namesFile}}, {args: []string{"ports", f.fieldFile}}, {args: []string{"ports", f.namedFile}}, {args: []string{"ports", f.brokenDir}}}
	},
	"probe": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"probe", "--root", f.root, "--timeout", "2s", "--webhooks", "--kubeconfig", f.objects}},
			{args: []string{"probe", "--root", f.root, "--timeout", "2s", "--webhooks", "--kubeconfig", f.forbidden}},
			{args: []string{"probe", "--root", f.root, "--timeout", "2s", hostileName}}}
	},
	"proxy-version": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"proxy-version", "--from-help", f.helpFile}}, {args: []string{"proxy-version", "--from-image", hostileName}}}
	},
	"render": func(f nameFixture) []nameRun {
		return []nameRun{{args: hostRenderArgs(f.fresh(), "--dry-run", f.fieldDir)}, {args: hostRenderArgs(f.fresh(), "--dry-run", f.namedDir)},
			{args: hostRenderArgs(f.fresh(), "--dry-run", f.brokenDir)},
			{args: hostRenderArgs(filepath.Join(f.fresh(), "etc"), "--dry-run")}}
	},
	"status": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"status", "--root", f.root, "--timeout", "2s", "--kubeconfig", f.objects}},
			{args: []string{"status", "--root", f.root, "--timeout", "2s", "--kubeconfig", f.namedKube}},
			{args: []string{"status", "--root", f.root, "--timeout", "2s", "--kubeconfig", f.forbidden}}}
	},
	"teardown": func(f nameFixture) []nameRun {
		return []nameRun{{args: []string{"teardown", "--root", f.fresh(), "--timeout", "2s", "--kubeconfig", f.objects}},
			{args: []string{"teardown", "--root", f.fresh(), "--timeout", "2s", "--kubeconfig", f.forbidden}}}
	},
	"wait": func(f nameFixture) []nameRun {
		wait := []string{"wait", "--root", f.root, "--timeout", "2s", "--dial-timeout", "1s"}
		return []nameRun{{args: append(wait, "--kubeconfig", f.objects)}, {args: append(wait, "--kubeconfig", f.forbidden)},
			{args: append(wait, "--target", hostileName)}, {args: append(wait, "--server-log", f.helpFile)}}
	},
}

// hostileNamesNowhere are the commands that print no outside value
// (beyond the unknown flag every command is run with), each with why.
var hostileNamesNowhere = map[string]string{
	"version": "prints the version the binary was built with, and nothing it reads",
}

// TestHostileNamesAreEscaped runs every command the CLI lists, each with
// the runs of hostileNameRuns and with an unknown flag of a hostile name,
// and the dispatcher with an unknown command of one, and holds each
// output to hostiletext.AssertInert (stdout too, unless it is data). A
// command whose runs never print the hostile value (escaped) fails too: its
// runs would not reach its printer.
func TestHostileNamesAreEscaped(t *testing.T) {
	f := hostileNameFixture(t)
	for _, cmd := range New(Config{}).commands {
		runs, listed := hostileNameRuns[cmd.Name]
		why, nowhere := hostileNamesNowhere[cmd.Name]
		switch {
		case listed && nowhere:
			t.Errorf("%s is in both hostileNameRuns and hostileNamesNowhere (%s): keep one", cmd.Name, why)
		case !listed && !nowhere:
			t.Errorf("%s is not classified: add its runs with hostile names in every field it prints to hostileNameRuns, or say in hostileNamesNowhere why it prints no outside value", cmd.Name)
		}
		var all []nameRun
		if listed {
			all = runs(f)
		}
		all = append(all, nameRun{args: []string{cmd.Name, "--" + hostileName}})
		reached := false
		for _, r := range all {
			code, stdout, stderr := runCLI(t, r.stdin, r.args...)
			what := textOf(r.args)
			hostiletext.AssertInert(t, what+" (exit "+itoa(code)+") stderr", stderr)
			if !r.data {
				hostiletext.AssertInert(t, what+" (exit "+itoa(code)+") stdout", stdout)
			}
			reached = reached || strings.Contains(stderr, hostiletext.Forged) || !r.data && strings.Contains(stdout, hostiletext.Forged)
		}
		if listed && !reached {
			t.Errorf("no run of %s printed the hostile value, even escaped: its runs in hostileNameRuns do not reach what it prints", cmd.Name)
		}
	}
	for _, name := range []string{hostileName, strings.Repeat("x", 100<<10)} {
		_, _, stderr := runCLI(t, "", name)
		hostiletext.AssertInert(t, "an unknown command", stderr)
		if len(stderr) > 400 {
			t.Errorf("an unknown command of %d bytes is echoed in %d bytes of stderr, want one bounded line:\n%.300s", len(name), len(stderr), stderr)
		}
	}
}

// hostileNameFixture writes the bundles, files and roots the runs use and
// starts the kube-apiservers.
func hostileNameFixture(t *testing.T) nameFixture {
	t.Helper()
	dir := t.TempDir()
	golden, err := os.ReadFile(golden("upi"))
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Replace(string(golden), "  name: konnectivity-server\n",
		"  name: "+jsonString(hostileName)+"\n", 1)
	named = strings.Replace(named, "    app: konnectivity-server\n", "    app: konnectivity-server\n    "+jsonString(hostileName)+": "+jsonString(hostileName)+"\n", 1)
	field := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + jsonString(hostileName) + "\n  namespace: kube-system\nspec:\n  " +
		jsonString("nodeSelecter"+hostileName) + ": {}\n  containers: [{name: c, image: i}]\n"
	fileName := strings.ReplaceAll(hostileName, "\x00", "") // the one byte no file name holds
	f := nameFixture{
		namesFile: writeFixture(t, filepath.Join(dir, "names.yaml"), named),
		fieldFile: writeFixture(t, filepath.Join(dir, "field.yaml"), field),
		namedFile: writeFixture(t, filepath.Join(dir, fileName+".yaml"), string(golden)),
		fieldDir:  filepath.Join(dir, "fielddir"),
		namedDir:  filepath.Join(dir, fileName),
		brokenDir: filepath.Join(dir, "broken"+fileName),
		helpFile:  writeFixture(t, filepath.Join(dir, "help.txt"), "Usage of proxy-server:\n      --"+hostileName+" string   "+hostileName+"\n"),
	}
	// The roots' own paths are hostile too: every command prints them.
	f.fresh = func() string {
		root := filepath.Join(t.TempDir(), fileName)
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runHostCmd(t, hostRenderArgs(root, "-q")...); code != 0 {
			t.Fatalf("render --root %q: exit %d: %s", root, code, stderr)
		}
		return root
	}
	f.root = f.fresh()
	writeFixture(t, filepath.Join(f.fieldDir, "kustomization.yaml"), "resources: [pod.yaml]\n")
	writeFixture(t, filepath.Join(f.fieldDir, "pod.yaml"), field)
	writeFixture(t, filepath.Join(f.namedDir, "kustomization.yaml"), "resources: [bundle.yaml]\n")
	writeFixture(t, filepath.Join(f.namedDir, "bundle.yaml"), named)
	writeFixture(t, filepath.Join(f.brokenDir, "kustomization.yaml"), "resources: ["+jsonString(fileName+".yaml")+"]\n")
	f.namedKube = writeFixture(t, filepath.Join(dir, fileName+".kubeconfig"), "apiVersion: v1\nkind: Config\ncurrent-context: "+jsonString(hostileName)+
		"\ncontexts:\n- name: "+jsonString(hostileName)+"\n  context: {cluster: k, user: "+jsonString(hostileName)+"}\nclusters:\n- name: k\n  cluster: {server: \"https://127.0.0.1:1\"}\n"+
		"users:\n- name: "+jsonString(hostileName)+"\n  user: {tokenFile: "+jsonString("/nonexistent/"+fileName)+"}\n")
	f.objects = hostileKAS(t, f.root, false)
	f.forbidden = hostileKAS(t, f.root, true)
	return f
}

// hostileKAS is a kubeconfig naming a kube-apiserver whose nodes, agent
// pods, events, webhooks and APIServices all have hostile names, reasons
// and messages; with forbid, one that refuses every request with a 403
// whose message is hostile.
func hostileKAS(t *testing.T, root string, forbid bool) string {
	t.Helper()
	refuse := &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure,
		Reason: metav1.StatusReasonForbidden, Code: http.StatusForbidden, Message: hostileName}
	routes := hostileObjects(t, root)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body, ok := routes[r.URL.Path]
		switch {
		case forbid || r.Method != http.MethodGet:
			w.WriteHeader(http.StatusForbidden)
			body = refuse
		case !ok:
			w.WriteHeader(http.StatusNotFound)
			body = &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure,
				Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound, Message: hostileName}
		}
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(srv.Close)
	return fakekas.Kubeconfig(t, "", srv.URL)
}

func writeFixture(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFixture(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err) // written by hostileNameFixture a moment ago
	}
	return string(b)
}

// jsonString is s as a JSON string, which YAML reads as the same string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// textOf names a run in a failure, escaped itself.
func textOf(args []string) string {
	b, _ := json.Marshal(args)
	return string(b)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
