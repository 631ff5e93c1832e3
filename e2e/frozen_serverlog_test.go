//go:build e2e

package e2e

import (
	"regexp"
	"time"
)

// dialCancelled matches the server's line for a pending dial its grpc
// frontend cancelled with DIAL_CLS (ANP v0.36.0 pkg/server/server.go,
// logged at every verbosity) and captures how long the dial had waited.
var dialCancelled = regexp.MustCompile(`"Dial cancelled \(DIAL_CLS\) by frontend".* dialDuration="([^"]+)"`)

// cancelledDials reads, from the server's log, the dials the kube-apiserver
// gave up on itself: in grpc mode its konnectivity-client sends DIAL_CLS
// when its own 30 s backstop ends a dial (net/http no longer cancels a dial
// with the request that started it). None in http-connect mode, where a
// dial has no cancel message.
func cancelledDials(log string) []time.Duration {
	var ds []time.Duration
	for _, m := range dialCancelled.FindAllStringSubmatch(log, -1) {
		if d, err := time.ParseDuration(m[1]); err == nil {
			ds = append(ds, d)
		}
	}
	return ds
}
