package proxyversion

import (
	"reflect"
	"slices"
	"testing"
)

// TestDefaultsAreAccepted: every default in the tables parses as its flag's
// kind and is an allowed value, since check's rules fall back on them.
func TestDefaultsAreAccepted(t *testing.T) {
	for _, b := range []*Binary{V028.Server, V028.Agent, V036.Server, V036.Agent} {
		for name, f := range b.Flags {
			if f.Default == "" && f.Kind != KindString {
				t.Errorf("%s --%s: only a string flag may leave its default empty", b.Name, name)
				continue
			}
			if msg := f.Kind.ParseError(f.Default); msg != "" {
				t.Errorf("%s --%s: default %q is not %s", b.Name, name, f.Default, msg)
			}
			if !f.Allows(f.Default) {
				t.Errorf("%s --%s: default %q is not among %v", b.Name, name, f.Default, f.Allowed)
			}
		}
	}
}

func TestAllows(t *testing.T) {
	mode, strategies := V036.Server.Flags["mode"], V036.Server.Flags["proxy-strategies"]
	cases := []struct {
		flag  Flag
		value string
		want  bool
	}{
		{mode, "grpc", true},
		{mode, "http-connect", true},
		{mode, "GRPC", false},
		{mode, "grpc,http-connect", false},
		{strategies, "destHost,defaultRoute", true},
		{strategies, "destHost,,default", true},
		{strategies, "desthost", false},
		{V036.Server.Flags["uds-name"], "anything", true},
	}
	for _, tc := range cases {
		if got := tc.flag.Allows(tc.value); got != tc.want {
			t.Errorf("Allows(%q) with allowed %v = %v, want %v", tc.value, tc.flag.Allowed, got, tc.want)
		}
	}
}

// TestListItems: a list flag splits as proxy-server splits --proxy-strategies.
func TestListItems(t *testing.T) {
	cases := []struct {
		value string
		want  []string
	}{
		{"", nil},
		{",", nil},
		{"default", []string{"default"}},
		{"destHost,,default,", []string{"destHost", "default"}},
		{"destHost, default", []string{"destHost", " default"}}, // not trimmed: the server refuses " default"
	}
	for _, tc := range cases {
		if got := ListItems(tc.value); !slices.Equal(got, tc.want) {
			t.Errorf("ListItems(%q) = %q, want %q", tc.value, got, tc.want)
		}
	}
}

// TestParse covers the pflag forms the binaries accept, by argv position.
func TestParse(t *testing.T) {
	argv := []string{"proxy-server", "--mode", "grpc", "--enable-profiling", "-v=3", "-v4",
		"--server-count=1", "positional", "--log_file=x", "-x", "--", "--after=1"}
	got := V036.Server.Parse(argv)
	want := &CommandLine{
		Uses: []Use{
			{Name: "mode", Value: "grpc", HasValue: true, Arg: 1, ValueArg: 2},
			{Name: "enable-profiling", Value: "true", Arg: 3},
			{Name: "v", Value: "3", HasValue: true, Arg: 4},
			{Name: "v", Value: "4", HasValue: true, Arg: 5},
			{Name: "server-count", Value: "1", HasValue: true, Arg: 6},
		},
		Unknown: []Use{
			{Name: "log_file", Value: "x", HasValue: true, Arg: 8},
			{Name: "-x", Arg: 9},
		},
		End: 10,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse(%q)\n got %+v\nwant %+v", argv, got, want)
	}
	missing := V036.Server.Parse([]string{"proxy-server", "--agent-port"})
	if len(missing.Missing) != 1 || missing.Missing[0].Name != "agent-port" || len(missing.Uses) != 0 {
		t.Errorf("--agent-port last on the line: got %+v, want it in Missing", missing)
	}
}
