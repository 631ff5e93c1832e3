// The module root only: every release pair builds this program from its
// own go.mod, k8s-<minor>.mod, with go build -modfile (tools/build.sh), so
// one source serves every pair and each pins its release's k8s.io/apiserver.
module github.com/bootstrap-konnectivity/konnectivity-bundle/tools/kas-caller

go 1.26.0
