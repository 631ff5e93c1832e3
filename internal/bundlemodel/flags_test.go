package bundlemodel

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

// TestParseFlags covers the pflag forms the ANP binaries accept.
func TestParseFlags(t *testing.T) {
	argv := []string{"/usr/bin/proxy-agent", "--ca-cert", "/a", "--sync-forever", "-v=3", "--keepalive-time=1m", "positional", "--bogus", "--", "--after=1"}
	fields := argvFields("c", 1, len(argv)-1)
	s := parseFlags(anp.Newest.Agent, argv, fields)
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
