package hoststatus

// CheckName names one status check: its rule in the results, its column in
// status's text, and what the gate looks its causes up by (internal/diagnostics/gate).
type CheckName string

// The checks, in the order status runs them. Every check status reports is
// made with one of these (newCheck takes no other), so a renamed check is a
// compile error wherever it is read.
const (
	CheckRenderedFiles CheckName = "rendered files"
	CheckSocket        CheckName = "socket"
	CheckEgress        CheckName = "egress selector"
	CheckServerHealth  CheckName = "server health"
	CheckServerReady   CheckName = "server ready"
	CheckAgents        CheckName = "agents"
	CheckCertificates  CheckName = "certificates"
)

// CheckNames are every check status can report, in its order. A test holds
// it to the constants above and to every newCheck call, and the gate's test
// holds the gate's table of causes to it.
var CheckNames = []CheckName{CheckRenderedFiles, CheckSocket, CheckEgress, CheckServerHealth, CheckServerReady, CheckAgents, CheckCertificates}
