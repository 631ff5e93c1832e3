package proxyversion

// The flag tables of proxy-server and proxy-agent: every flag their --help
// lists in any supported version (cmd/server/app/options and
// cmd/agent/app/options, plus klog), with its kind, default, allowed values
// and, for a flag younger than the oldest supported version, the upstream tag
// that introduced it (Since). Each Version keeps the flags it has
// (version.go). TestTablesMatchHelp compares every version's tables with its
// real binaries' --help.

// Values of the flags whose allowed values the binaries enforce at start.
const (
	ModeGRPC        = "grpc"
	ModeHTTPConnect = "http-connect"
)

// FlagCipherSuites is proxy-server's list of the agent listener's TLS 1.2
// suites (Go's names; an unknown one becomes suite 0 and serves nothing).
const FlagCipherSuites = "cipher-suites"

// klogSince is the first ANP tag built with a klog (v2.140.0) that has
// --legacy-stderr-threshold-behavior and --alsologtostderrthreshold; the
// v0.28-era binaries (klog v2.90) and v0.31.0 to v0.34.0 (klog v2.130.1)
// refuse both.
const klogSince = "v0.35.0"

// klogFlags are added to both binaries from klog.InitFlags with '_' turned
// into '-' (ANP's util.Normalize), so `--log_file` is unknown to them.
var klogFlags = map[string]Flag{
	"log-dir":                          {Kind: KindString},
	"log-file":                         {Kind: KindString},
	"log-file-max-size":                {Kind: KindInt, Default: "1800"},
	"logtostderr":                      {Kind: KindBool, Default: "true"},
	"alsologtostderr":                  {Kind: KindBool, Default: "false"},
	"legacy-stderr-threshold-behavior": {Kind: KindBool, Default: "true", Since: klogSince},
	"v":                                {Kind: KindInt, Default: "4"},
	"add-dir-header":                   {Kind: KindBool, Default: "false"},
	"skip-headers":                     {Kind: KindBool, Default: "false"},
	"one-output":                       {Kind: KindBool, Default: "false"},
	"skip-log-headers":                 {Kind: KindBool, Default: "false"},
	"stderrthreshold":                  {Kind: KindString, Default: "2"},
	"alsologtostderrthreshold":         {Kind: KindString, Since: klogSince},
	"vmodule":                          {Kind: KindString},
	"log-backtrace-at":                 {Kind: KindString, Default: ":0"},
	"help":                             {Kind: KindBool, Default: "false"},
}

// sharedFlags are declared alike, kind and default, by both binaries' options.
var sharedFlags = map[string]Flag{
	"enable-profiling":            {Kind: KindBool, Default: "false"},
	"enable-contention-profiling": {Kind: KindBool, Default: "false"},
	"kube-api-content-type":       {Kind: KindString, Default: "application/vnd.kubernetes.protobuf", Since: "v0.31.0"},
	"lease-namespace":             {Kind: KindString, Default: "kube-system", Since: "v0.31.1"},
	"lease-label":                 {Kind: KindString, Default: "k8s-app=konnectivity-server", Since: "v0.31.1"},
	"admin-bind-address":          {Kind: KindString, Default: "127.0.0.1"},
	"keepalive-time":              {Kind: KindDuration, Default: "1h0m0s"},
}

// serverFlags are proxy-server's own flags.
var serverFlags = map[string]Flag{
	"kubeconfig":                {Kind: KindString},
	"server-cert":               {Kind: KindString},
	"server-key":                {Kind: KindString},
	"server-ca-cert":            {Kind: KindString},
	"cluster-cert":              {Kind: KindString},
	"cluster-key":               {Kind: KindString},
	"cluster-ca-cert":           {Kind: KindString},
	"mode":                      {Kind: KindString, Default: ModeGRPC, Allowed: []string{ModeGRPC, ModeHTTPConnect}},
	"uds-name":                  {Kind: KindString},
	"delete-existing-uds-file":  {Kind: KindBool, Default: "true"},
	"server-port":               {Kind: KindInt, Default: "8090"},
	"server-bind-address":       {Kind: KindString},
	"agent-port":                {Kind: KindInt, Default: "8091"},
	"agent-bind-address":        {Kind: KindString},
	"admin-port":                {Kind: KindInt, Default: "8095"},
	"health-port":               {Kind: KindInt, Default: "8092"},
	"health-bind-address":       {Kind: KindString},
	"frontend-keepalive-time":   {Kind: KindDuration, Default: "1h0m0s"},
	"server-id":                 {Kind: KindString},
	"server-count":              {Kind: KindInt, Default: "1"},
	"agent-namespace":           {Kind: KindString},
	"agent-service-account":     {Kind: KindString},
	"kubeconfig-qps":            {Kind: KindFloat, Default: "0"},
	"kubeconfig-burst":          {Kind: KindInt, Default: "0"},
	"authentication-audience":   {Kind: KindString},
	"proxy-strategies":          {Kind: KindString, Default: "default", Allowed: ProxyStrategies, List: true},
	FlagCipherSuites:            {Kind: KindString, Repeatable: true},
	flagTLSFloor:                {Kind: KindString, Allowed: append([]string{""}, tlsVersions...), Since: "v0.35.0"},
	flagXfrChannel:              {Kind: KindInt, Default: "10", Since: "v0.31.0"},
	"enable-lease-controller":   {Kind: KindBool, Default: "false", Since: "v0.31.0"},
	"graceful-shutdown-timeout": {Kind: KindDuration, Default: "0s", Since: "v0.35.0"},
	flagDialBound:               {Kind: KindDuration, Default: "0s", Since: "v0.36.0"},
	// Deprecated and hidden from --help, but still parsed.
	"warn-on-channel-limit": {Kind: KindBool, Default: "true", Hidden: true},
}

// agentFlags are proxy-agent's own flags.
var agentFlags = map[string]Flag{
	"kubeconfig":                 {Kind: KindString, Since: "v0.31.0"},
	"agent-cert":                 {Kind: KindString},
	"agent-key":                  {Kind: KindString},
	"ca-cert":                    {Kind: KindString},
	"proxy-server-host":          {Kind: KindString, Default: "127.0.0.1"},
	"proxy-server-port":          {Kind: KindInt, Default: "8091"},
	"alpn-proto":                 {Kind: KindString, Repeatable: true},
	"health-server-host":         {Kind: KindString},
	"health-server-port":         {Kind: KindInt, Default: "8093"},
	"admin-server-port":          {Kind: KindInt, Default: "8094"},
	"agent-id":                   {Kind: KindString},
	"sync-interval":              {Kind: KindDuration, Default: "1s"},
	"probe-interval":             {Kind: KindDuration, Default: "1s"},
	"sync-interval-cap":          {Kind: KindDuration, Default: "10s"},
	"service-account-token-path": {Kind: KindString},
	"agent-identifiers":          {Kind: KindString},
	"warn-on-channel-limit":      {Kind: KindBool, Default: "false"},
	"sync-forever":               {Kind: KindBool, Default: "false"},
	"xfr-channel-size":           {Kind: KindInt, Default: "150", Since: "v0.31.0"},
	"count-server-leases":        {Kind: KindBool, Default: "false", Since: "v0.31.0"},
	"server-count-source":        {Kind: KindString, Default: "default", Allowed: []string{"", "default", "max"}, Since: "v0.31.1"},
}
