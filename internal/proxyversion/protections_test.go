package proxyversion

import "testing"

// TestProtectionRows: each protection is a proxy-server flag some
// supported version has, its default is a value that server accepts and
// that its own validation and check let pass, and the newest version has
// every protection (a bundle for it renders them all).
func TestProtectionRows(t *testing.T) {
	for _, p := range Protections {
		flag, ok := Newest.Server.Flags[p.Flag]
		if !ok {
			t.Errorf("--%s: the newest proxy-server has no such flag", p.Flag)
			continue
		}
		if msg := flag.Kind.ParseError(p.Default); msg != "" || !flag.Allows(p.Default) {
			t.Errorf("--%s: default %q is not a value proxy-server takes", p.Flag, p.Default)
		}
		if fix, msg := p.Validate(p.Default); msg != "" {
			t.Errorf("--%s: the generator refuses its own default: %s (fix: %s)", p.Flag, msg, fix)
		}
		if pr := p.Check(p.Default, flag); pr != nil {
			t.Errorf("--%s: check finds its default wrong: [%s] %s", p.Flag, pr.Rule, pr.Message)
		}
		if p.Validate == nil || p.Check == nil {
			t.Errorf("--%s: a row needs its validation and its check", p.Flag)
		}
	}
}

// TestProtectionJudges: each judge, on a value it must refuse, names the
// rule and level check reports.
func TestProtectionJudges(t *testing.T) {
	cases := []struct {
		p     *Protection
		value string
		rule  string
		level Level
	}{
		{BackendDialTimeout, "-1s", "backend-dial-timeout-unbounded", Fatal},
		{BackendDialTimeout, "0s", "backend-dial-timeout-unbounded", Weak},
		{BackendDialTimeout, "30s", "backend-dial-timeout-unbounded", Weak},
		{TLSMinVersion, "TLS1.2", "flag-value-invalid", Fatal},
		{TLSMinVersion, "VersionTLS11", "tls-min-version-insecure", Weak},
		{XfrChannelSize, "0", "xfr-channel-size-invalid", Fatal},
	}
	for _, tc := range cases {
		got := tc.p.Check(tc.value, Newest.Server.Flags[tc.p.Flag])
		if got == nil || got.Rule != tc.rule || got.Level != tc.level {
			t.Errorf("--%s=%s: got %+v, want rule %s at level %d", tc.p.Flag, tc.value, got, tc.rule, tc.level)
		}
		if _, msg := tc.p.Validate(tc.value); msg == "" {
			t.Errorf("--%s=%s: the generator lets it pass", tc.p.Flag, tc.value)
		}
	}
	note := BackendDialTimeout.Absent(V028, ModeGRPC)
	if note == nil || note.Rule != "backend-dial-timeout-unavailable" || note.Level != Note {
		t.Errorf("absent dial bound on %s: got %+v", V028, note)
	}
}
