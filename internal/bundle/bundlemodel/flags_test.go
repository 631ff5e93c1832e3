package bundlemodel

import (
	"slices"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestParseFlags covers the pflag forms the ANP binaries accept.
func TestParseFlags(t *testing.T) {
	argv := []string{"/usr/bin/proxy-agent", "--ca-cert", "/a", "--sync-forever", "-v=3", "--keepalive-time=1m", "positional", "--bogus", "--", "--after=1"}
	fields := argvFields("c", 1, len(argv)-1)
	s := parseFlags(proxyversion.Newest.Agent, argv, fields)
	for name, want := range map[string]string{"ca-cert": "/a", "sync-forever": "true", "v": "3", "keepalive-time": "1m"} {
		if got := s.Value(name); got != want {
			t.Errorf("--%s = %q, want %q", name, got, want)
		}
	}
	if len(s.Unknown) != 1 || s.Unknown[0].Name != "bogus" || s.Unknown[0].Field != "c.args[6]" {
		t.Errorf("unknown = %+v, want bogus at c.args[6]", s.Unknown)
	}
	if _, ok := s.Get("after"); ok {
		t.Errorf("a flag after -- was parsed")
	}
	if u, _ := s.Get("ca-cert"); u.Field != "c.args[0]" {
		t.Errorf("ca-cert field = %q, want c.args[0]", u.Field)
	}
}

// TestStrategies: the server's strategies as proxy-server splits them, its
// default when the flag is absent.
func TestStrategies(t *testing.T) {
	cases := []struct {
		name string
		argv []string
		want []string
	}{
		{"absent", nil, []string{"default"}},
		{"given", []string{"--proxy-strategies=destHost,default"}, []string{"destHost", "default"}},
		{"empty items", []string{"--proxy-strategies=,destHost,,"}, []string{"destHost"}},
		{"empty", []string{"--proxy-strategies="}, nil},
		{"last wins", []string{"--proxy-strategies=destHost", "--proxy-strategies", "defaultRoute"}, []string{"defaultRoute"}},
	}
	for _, tc := range cases {
		argv := append([]string{"proxy-server"}, tc.argv...)
		s := parseFlags(proxyversion.Newest.Server, argv, argvFields("c", 0, len(argv)))
		if got := s.Strategies(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Strategies() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestIdentifiers: the agents' identifiers as proxy-agent parses them.
func TestIdentifiers(t *testing.T) {
	cases := []struct {
		name, arg   string
		want        string // the values re-encoded
		wantUnknown []string
		wantErr     bool
	}{
		{"absent", "", "", nil, false},
		{"given", "--agent-identifiers=ipv4=10.0.0.5&default-route=true", "default-route=true&ipv4=10.0.0.5", nil, false},
		{"unknown key", "--agent-identifiers=ip=10.0.0.5&host=a", "host=a&ip=10.0.0.5", []string{"ip"}, false},
		{"not URL-query form", "--agent-identifiers=ipv4=%zz", "", nil, true},
	}
	for _, tc := range cases {
		argv := []string{"proxy-agent"}
		if tc.arg != "" {
			argv = append(argv, tc.arg)
		}
		s := parseFlags(proxyversion.Newest.Agent, argv, argvFields("c", 0, len(argv)))
		q, unknown, err := s.Identifiers()
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v, want error %v", tc.name, err, tc.wantErr)
			continue
		}
		if got := q.Encode(); got != tc.want || !slices.Equal(unknown, tc.wantUnknown) {
			t.Errorf("%s: Identifiers() = %q, unknown %q; want %q, unknown %q", tc.name, got, unknown, tc.want, tc.wantUnknown)
		}
	}
}
