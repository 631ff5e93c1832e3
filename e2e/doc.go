// Package e2e proves the Konnectivity tunnel end to end with the real
// proxy-server, proxy-agent, kube-apiserver and etcd, configured only by what
// konnectivity-bundle renders. The tests are behind the build tag e2e, need
// root (network namespaces) and the binaries from tools/build.sh:
//
//	tools/build.sh && go test -tags e2e ./e2e/...
//
// See README.md for the topology and the figures measured.
package e2e
