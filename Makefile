# konnectivity-bundle: run `make help` for the targets.

SHELL       := bash
.SHELLFLAGS := -eo pipefail -c
GO          ?= go
BIN         := bin/konnectivity-bundle
TOOLS_BIN   ?= $(CURDIR)/_output/bin
GOBIN       ?= $(shell $(GO) env GOPATH)/bin
PLUGIN_HOME ?= $(or $(KUSTOMIZE_PLUGIN_HOME),$(or $(XDG_CONFIG_HOME),$(HOME)/.config)/kustomize/plugin)
# The kinds the binary serves; each gets a legacy plugin link.
KINDS       := KonnectivityBundle KonnectivityCerts KonnectivityCheck
export KB_TOOLS_BIN := $(TOOLS_BIN)
# The version `version` prints and the image is tagged with, from git.
VERSION     ?= $(shell git describe --tags --always --dirty --abbrev=12 2>/dev/null || echo unknown)
LDFLAGS     := -X main.version=$(VERSION)
IMAGE_REPO  ?= localhost/konnectivity-bundle
# The linters, pinned in their own module (tools/lint/go.mod; tools/README.md
# says how to bump them) and run with `go tool`, so nothing is installed.
LINT        := $(GO) tool -modfile=tools/lint/go.mod
# gofmt of the same toolchain as $(GO), whatever PATH holds.
GOFMT        = $(shell $(GO) env GOROOT)/bin/gofmt
# Every Go file of the repository, tracked or new, but not what .gitignore hides.
GO_FILES     = $(shell git ls-files --cached --others --exclude-standard '*.go')
# Podman settings that work on any root host and are needed in CI (no rlimits,
# runc, cgroupfs); see deploy/podman/containers.conf. An explicit value wins.
export CONTAINERS_CONF ?= $(CURDIR)/deploy/podman/containers.conf

.PHONY: help build image test unit e2e releases node-e2e scale modes tools deps golden golden-overlay verify lint plugins bench bench-build bench-render fuzz vuln diff clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-15s %s\n", $$1, $$2}'

build: ## build bin/konnectivity-bundle
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/konnectivity-bundle

image: ## build the konnectivity-bundle image FROM scratch (nothing pulled), tagged $(VERSION) and v1alpha1
	VERSION=$(VERSION) IMAGE_REPO=$(IMAGE_REPO) deploy/image/build.sh --for-kustomize

# Each stage of `make test` says when it starts, every 30 s that it is still
# running, and how long it took (tools/progress.sh), so its log has stage times.
# The unit stage runs go test -json into _output/unit.json, so those lines
# name the packages and tests still running, and shows what plain go test
# would (results, failing tests' output) through tools/gotest-text.sh.
PROGRESS    := tools/progress.sh

test: ## everything CI runs: deps, tools, verify (lint and golden files), unit tests with real tools required, e2e, then the real-node test (root)
	@$(PROGRESS) "make test: deps" $(MAKE) --no-print-directory deps
	@$(PROGRESS) "make test: tools" $(MAKE) --no-print-directory tools
	@$(PROGRESS) "make test: verify" $(MAKE) --no-print-directory verify
	@mkdir -p _output
	@KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/unit.json $(PROGRESS) "make test: unit and integration tests" \
	  bash -c 'set -o pipefail; $(GO) test -json -timeout 30m ./... | tee _output/unit.json | tools/gotest-text.sh'
	@$(PROGRESS) "make test: e2e" $(MAKE) --no-print-directory e2e
	@$(PROGRESS) "make test: node-e2e" $(MAKE) --no-print-directory node-e2e

# -short skips the integration tests (root, network namespaces, podman,
# strace kill loops, the real binaries), each saying why: tooltest.Integration.
unit: ## the fast inner loop: every pure test (go test -short); make test runs the integration tests too
	$(GO) test -short ./...

# The lines of a `go test -v` log shown while it runs: test results (indented
# for subtests), package results and figures, all anchored where go test puts
# them, so a test's own log lines (status tables print "  ok ...") stay out.
GOTEST_LINES := ^( *--- (PASS|FAIL|SKIP)|PASS$$|FAIL|ok  |panic:|figure:)
# GOTEST_SHOWN,LOG is a bash -c script that runs its argument (a go test -v
# command line), logs all of it to LOG and shows GOTEST_LINES. It runs under
# tools/progress.sh, whose "still running" lines go to the terminal, not the filter.
GOTEST_SHOWN = 'set -o pipefail; eval "$$0" 2>&1 | tee $(1) | grep -E "$(GOTEST_LINES)"'

# The e2e cases that run on every supported proxy version, not only the
# newest: the tunnel in both modes with a webhook allowed and denied, the
# gate with a cluster, the usage report, status --gather in containers, the
# FIPS 140-only tunnel, how SIGTERM ends the server (docs/proxy-versions.md),
# and the tunnel cases through the release caller of each pair of that family
# the pair table proves with one (TestReleaseCaller: 1.27 with v0.28, 1.36
# with v0.36; docs/proxy-versions.md, "Release pairs").
E2E_EVERY_VERSION := ^(TestTunnel|TestWaitKubeconfig|TestTunnelUsage|TestTunnelInContainers|TestTunnelFIPS140Only|TestServerSIGTERM|TestTLSProfile|TestReleaseCaller|TestVerdict[A-Za-z]+)$$
# The supported proxy versions, oldest first, as the code lists them
# (internal/proxyversion.Versions): computed on first use (so `make help` runs no
# go run) and kept, and an empty list stops make rather than testing nothing.
PROXY_VERSIONS = $(eval PROXY_VERSIONS := $$(or $$(shell $(GO) run ./cmd/konnectivity-bundle proxy-version --list),$$(error proxy-version --list printed nothing)))$(PROXY_VERSIONS)
# Every version but the newest, which the first e2e pass runs.
OLDER_PROXY_VERSIONS = $(filter-out $(lastword $(PROXY_VERSIONS)),$(PROXY_VERSIONS))

e2e: tools ## end-to-end: real proxy-server, proxy-agent, kube-apiserver, etcd in network namespaces (root)
	@if [ "$$(id -u)" != 0 ]; then echo "make e2e: needs root for network namespaces (ip netns); run it as root" >&2; exit 1; fi
	@mkdir -p _output
	KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/e2e.log $(PROGRESS) "make e2e" bash -c $(call GOTEST_SHOWN,_output/e2e.log) \
	  '$(GO) test -tags e2e -count=1 -timeout 40m -v ./e2e/...' || { tools/e2e-failures.sh _output/e2e.log; exit 1; }
	@for v in $(OLDER_PROXY_VERSIONS); do \
	  v=$$v KB_PROXY_VERSION=$$v KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/e2e-$$v.log $(PROGRESS) "make e2e (proxy $$v)" bash -c $(call GOTEST_SHOWN,_output/e2e-$$v.log) \
	    '$(GO) test -tags e2e -count=1 -timeout 30m -v -run "$(E2E_EVERY_VERSION)" ./e2e/...' || { tools/e2e-failures.sh _output/e2e-$$v.log; exit 1; }; \
	done

# Every release pair with a whole kube-apiserver in the tools
# (internal/proxyversion.Pairs, KubeAPIServer; `go run ./tools/pairs` prints
# them): the cases of E2E_EVERY_VERSION with that kube-apiserver and its
# family's proxy (KB_PAIR), after building those kube-apiservers (each that
# make test does not build takes about 20 minutes on a cold cache). Then
# the real-node test on the oldest and the newest of those pairs, each with
# its own kubelet, controller-manager and scheduler (node lines of
# tools/pairs: kubelet-1.27 from tools/kube-apiserver-1.27, built once).
# PAIRS=1.27 runs only the pairs of those Kubernetes minors.
releases: tools ## the tunnel cases on every release pair's whole kube-apiserver, then the real-node test on the oldest and newest (root; builds each once, long)
	@if [ "$$(id -u)" != 0 ]; then echo "make releases: needs root for network namespaces (ip netns); run it as root" >&2; exit 1; fi
	@mkdir -p _output
	@list=$$($(GO) run ./tools/pairs $(PAIRS)) || exit 1; \
	pairs=$$(awk '$$1 == "kube-apiserver" { print $$2 }' <<<"$$list"); \
	if [ -z "$$pairs" ]; then echo "make releases: go run ./tools/pairs $(PAIRS) names no full kube-apiserver" >&2; exit 1; fi; \
	ends=$$(sed -n '1p;$$p' <<<"$$pairs" | uniq); \
	tools/build.sh $$(awk '$$1 == "kube-apiserver" { print $$3 }' <<<"$$list") \
	  $$(awk -v ends=" $$(echo $$ends) " '$$1 == "node" && index(ends, " " $$2 " ") { print $$3 }' <<<"$$list"); \
	for p in $$pairs; do \
	  p=$$p KB_PAIR=$$p KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/releases-$$p.log $(PROGRESS) "make releases (Kubernetes $$p)" bash -c $(call GOTEST_SHOWN,_output/releases-$$p.log) \
	    '$(GO) test -tags e2e -count=1 -timeout 40m -v -run "$(E2E_EVERY_VERSION)" ./e2e/...' || { tools/e2e-failures.sh _output/releases-$$p.log; exit 1; }; \
	done; \
	for p in $$ends; do \
	  p=$$p KB_PAIR=$$p KB_NODE_E2E=1 KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/releases-node-$$p.log $(PROGRESS) "make releases (real node, Kubernetes $$p)" bash -c $(call GOTEST_SHOWN,_output/releases-node-$$p.log) \
	    '$(GO) test -tags e2e -count=1 -timeout 30m -run "^TestRealNode\$$" -v ./e2e/' || { tools/e2e-failures.sh _output/releases-node-$$p.log; exit 1; }; \
	done

scale: tools ## the large scale case: 10/50/200 agents, 1/10/50 callers, 5 server restarts (root; minutes)
	@if [ "$$(id -u)" != 0 ]; then echo "make scale: needs root for network namespaces (ip netns); run it as root" >&2; exit 1; fi
	@mkdir -p _output
	KB_SCALE_AGENTS=10,50,200 KB_SCALE_CALLERS=1,10,50 KB_SCALE_RESTARTS=5 KB_SCALE_SECONDS=10 KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/scale.log \
	  $(PROGRESS) "make scale" bash -c $(call GOTEST_SHOWN,_output/scale.log) \
	  '$(GO) test -tags e2e -count=1 -timeout 30m -run "^TestScale\$$" -v ./e2e/' || { tail -50 _output/scale.log; exit 1; }

# The mode comparison's sizes (docs/proxy-versions.md, "Which mode, and why"):
# each agent count is one run per version, every run with MODES_CALLERS callers.
MODES_AGENTS  ?= 3 200
MODES_CALLERS ?= 50
MODES_REPS    ?= 3

modes: tools ## http-connect against grpc under faults, on every proxy version: 3 and 200 agents, 50 callers, both modes per repetition (root; about an hour)
	@if [ "$$(id -u)" != 0 ]; then echo "make modes: needs root for network namespaces (ip netns); run it as root" >&2; exit 1; fi
	@mkdir -p _output
	@for v in $(PROXY_VERSIONS); do for n in $(MODES_AGENTS); do \
	  v=$$v n=$$n KB_PROXY_VERSION=$$v KB_MODES=1 KB_MODES_AGENTS=$$n KB_MODES_CALLERS=$(MODES_CALLERS) KB_MODES_REPS=$(MODES_REPS) \
	  KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/modes-$$v-$$n.log $(PROGRESS) "make modes (proxy $$v, $$n agents)" bash -c $(call GOTEST_SHOWN,_output/modes-$$v-$$n.log) \
	    '$(GO) test -tags e2e -count=1 -timeout 90m -run "^TestModes\$$" -v ./e2e/' || { tail -50 _output/modes-$$v-$$n.log; exit 1; }; \
	done; done

node-e2e: tools ## the real-node test on proxy v0.28 (OpenShift 4.14-4.22): a kubelet, containerd, controller-manager and scheduler run the rendered bundle (root; builds the node tools once)
	@if [ "$$(id -u)" != 0 ]; then echo "make node-e2e: needs root (network and mount namespaces, containerd); run it as root" >&2; exit 1; fi
	tools/build.sh node
	@mkdir -p _output
	KB_NODE_E2E=1 KB_PROXY_VERSION=v0.28 KB_REQUIRE_TOOLS=1 KB_PROGRESS_LOG=_output/node-e2e.log $(PROGRESS) "make node-e2e" bash -c $(call GOTEST_SHOWN,_output/node-e2e.log) \
	  '$(GO) test -tags e2e -count=1 -timeout 30m -run "^TestRealNode\$$" -v ./e2e/' || { tools/e2e-failures.sh _output/node-e2e.log; exit 1; }

tools: ## build the real kustomize, proxy-server and proxy-agent of each proxy version, kube-apiserver, etcd, the release callers into _output/bin
	tools/build.sh

deps: ## install the Debian packages the tests use (root; no-op when present)
	tools/deps.sh

# The packages whose tests read golden files: every one goes through
# internal/testutil/goldenfile, so that import finds them all.
GOLDEN_PKGS  = $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... \
                 | awk '{ for (i = 2; i <= NF; i++) if ($$i ~ /\/internal\/testutil\/goldenfile$$/) { print $$1; break } }')

# KB_UPDATE_GOLDEN=1 reaches every test binary (a -update flag would fail the
# packages that do not declare it); with every tool required, a golden test
# cannot skip and leave its file stale.
golden: ## rewrite every golden file and test fixture from the current output (review the diff!); twice in a row changes nothing
	KB_UPDATE_GOLDEN=1 KB_REQUIRE_TOOLS=1 $(GO) test -count=1 -timeout 30m $(GOLDEN_PKGS)

# One overlay's golden file (testdata/golden/OVERLAY.yaml), the one make
# verify, make diff and the CI script compare, rewritten in seconds: the
# in-process build needs neither root nor the real tools.
golden-overlay: ## rewrite one overlay's golden file, OVERLAY=NAME (no root, no real tools; review the diff!)
	@if [ -z "$(OVERLAY)" ] || [ ! -f "overlays/$(OVERLAY)/kustomization.yaml" ]; then \
	  echo "make golden-overlay: set OVERLAY to one of: $$(ls overlays | tr '\n' ' ')" >&2; exit 2; fi
	$(GO) test ./internal/fnrun/kustbuild -run '^TestGolden$$/^$(OVERLAY)$$' -count=1 -update

verify: lint ## lint, then fail with a diff when any overlay drifted from its golden file
	$(GO) test ./internal/fnrun/kustbuild -run 'TestGolden$$' -count=1

# deadcode (golang.org/x/tools) from the binary's main: what it reports outside
# the test-helper packages is production code that only tests call, or nothing.
# With -test and the e2e tag: code that not even a test reaches.
TEST_HELPERS := ^internal/(testutil|guidetest)/

lint: ## gofmt, goimports, go vet, staticcheck and deadcode (also with -tags e2e), and go mod tidy -diff
	@out=$$($(GOFMT) -l $(GO_FILES)); if [ -n "$$out" ]; then echo "gofmt: run gofmt -w on:" >&2; echo "$$out" >&2; exit 1; fi
	@out=$$($(LINT) goimports -l $(GO_FILES)); if [ -n "$$out" ]; then echo "goimports: run '$(LINT) goimports -w' on:" >&2; echo "$$out" >&2; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags e2e ./e2e/...
	$(LINT) staticcheck ./...
	$(LINT) staticcheck -tags e2e ./...
	@all=$$($(LINT) deadcode ./...); out=$$(printf '%s\n' "$$all" | grep -vE '$(TEST_HELPERS)' | grep . || true); \
	  if [ -n "$$out" ]; then echo "deadcode: production code that only tests call, or nothing does; remove it or use it:" >&2; echo "$$out" >&2; exit 1; fi
	@out=$$($(LINT) deadcode -test -tags e2e ./...); \
	  if [ -n "$$out" ]; then echo "deadcode: code that not even a test reaches; remove it:" >&2; echo "$$out" >&2; exit 1; fi
	GOTOOLCHAIN=local $(GO) mod tidy -diff

plugins: ## install the binary on PATH (exec wiring) and link it as a legacy plugin for every kind
	GOBIN=$(GOBIN) $(GO) install -ldflags '$(LDFLAGS)' ./cmd/konnectivity-bundle
	@for k in $(KINDS); do \
	  d="$(PLUGIN_HOME)/bundle.konnectivity.io/v1alpha1/$$(echo $$k | tr A-Z a-z)"; \
	  mkdir -p "$$d" && ln -sf "$(GOBIN)/konnectivity-bundle" "$$d/$$k" && echo "linked $$d/$$k"; \
	done
	@echo "exec wiring: make sure $(GOBIN) is on PATH"

bench: bench-build bench-render ## all benchmarks, each compared side by side in one run

bench-build: tools ## in-process build of every overlay vs the kustomize CLI (benchstat -col /impl)
	$(GO) test ./internal/fnrun/kustbuild -run '^$$' -bench Overlays -count 6 | tee _output/bench-build.txt
	$(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da -col /impl _output/bench-build.txt

bench-render: ## fresh render and re-run vs the installer's shell baseline
	bench/compare.sh

fuzz: ## fuzz the check entry point for a minute
	$(GO) test ./functions/check -run '^$$' -fuzz FuzzCheck -fuzztime 60s

vuln: ## govulncheck on the module (needs vuln.go.dev, which this sandbox cannot reach)
	$(GO) run golang.org/x/vuln/cmd/govulncheck@v1.8.0 ./...

DIFF_OUTPUT  ?= text
GOLDEN_IMAGE := quay.io/openshift/origin-apiserver-network-proxy:4.20

diff: build ## show every overlay against its golden file (DIFF_OUTPUT=text|markdown|json); fails if any drifted or broke (make exits 2, as for any failed target)
	@rc=0; drifted=""; for g in testdata/golden/*.yaml; do o=$$(basename $$g .yaml); \
	  case $$o in \
	    upi)  args="" ;; \
	    ipv6) args="--bootstrap-ip 2001:db8::10 --image $(GOLDEN_IMAGE)" ;; \
	    *)    args="--bootstrap-ip 192.0.2.10 --image $(GOLDEN_IMAGE)" ;; \
	  esac; \
	  s=0; env -u KONNECTIVITY_BOOTSTRAP_IP -u KONNECTIVITY_IMAGE \
	    $(BIN) diff --output $(DIFF_OUTPUT) $$args testdata/golden/$$o.yaml overlays/$$o || s=$$?; \
	  if [ $$s -eq 1 ]; then drifted="$$drifted $$o"; fi; \
	  if [ $$s -gt $$rc ]; then rc=$$s; fi; \
	done; \
	if [ $$rc -eq 1 ]; then echo "make diff: an overlay drifted from its golden file (diff above):$$drifted; refresh each (make golden rewrites every golden file):" >&2; \
	  for o in $$drifted; do echo "  make golden-overlay OVERLAY=$$o" >&2; done; fi; \
	if [ $$rc -gt 1 ]; then echo "make diff: an overlay failed to build or diff (error above)" >&2; fi; \
	exit $$rc

clean: ## remove build outputs (keeps the built tools)
	rm -rf bin
