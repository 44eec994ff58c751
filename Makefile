# tausik — make help lists the targets.
GO       ?= go
BIN      ?= bin/tausik
FUZZTIME ?= 10s
PKGS     ?= ./...
# A release: the platforms built, where they go, and the ssh ed25519 key
# that signs SHA256SUMS (unsigned when empty). VERSION defaults to the
# nearest tag; the build date is the commit's, so a commit always builds
# the same bytes.
PLATFORMS   ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
DIST        ?= dist
SIGNING_KEY ?=
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
# Built-in gates held to a mutation score of 1 (docs/mutation.md); a gate
# joins once `tausik policy mutate --gate G` reports no survivor.
MUTATE_GATES ?= agent_authority ansible_lint bandit bash_firewall bootstrap_drift cargo_check cargo_test changelog class_surface clippy cross_model_parity eslint filesize git_push_gate go_test go_vet golangci_lint hadolint helm_lint javac js_test ktlint kubeconform layers mcp_surface memory_route mypy phpcs phpstan phpunit pytest renar_adapt_supersession renar_drift_provenance renar_drift_schema renar_qg0_advisory ruff scope_write secret_scan session_capacity session_overtime shellcheck task_gate tdd_order terraform_validate tsc verify_first yamllint

BUILDINFO := github.com/tausik/tausik/internal/buildinfo

.DEFAULT_GOAL := help

# The tests drive real tools: ruff is the WebAssembly build behind
# testdata/ruff's shim (npm ci --prefix testdata/ruff), pytest runs under
# Debian's interpreter (apt-get install python3-pytest). The stack gates'
# tools: tsc, eslint, jest and vitest from testdata/stacktools's lockfile
# (npm ci --prefix testdata/stacktools), golangci-lint, helm and kubeconform
# built by go install into testdata/stacktools/gobin. .ci/run installs them all.
export PATH := $(CURDIR)/testdata/ruff:$(CURDIR)/testdata/stacktools/node_modules/.bin:$(CURDIR)/testdata/stacktools/gobin:$(PATH)
export TAUSIK_PYTHON ?= /usr/bin/python3

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## build the static binary into bin/tausik, and the thin hook client beside it
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(BIN) .
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(dir $(BIN))tausik-hook ./cmd/tausik-hook

.PHONY: release
release: ## reproducible static binaries (tausik and the thin hook client tausik-hook) for every platform in DIST, their SHA256SUMS, signed with SIGNING_KEY
	@rm -rf $(DIST) && mkdir -p $(DIST)
	@commit=$$(git rev-parse HEAD) && date=$$(git log -1 --format=%cI) && \
	for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  for cmd in tausik:. tausik-hook:./cmd/tausik-hook; do \
	    out=$(DIST)/$${cmd%%:*}_$(VERSION)_$${os}_$${arch}$$ext; echo "build $$out"; \
	    CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=false \
	      -ldflags "-s -w -buildid= -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$$commit -X $(BUILDINFO).date=$$date" \
	      -o $$out $${cmd#*:} || exit 1; \
	  done; \
	done
	cd $(DIST) && sha256sum tausik_* tausik-hook_* > SHA256SUMS
	@if [ -n "$(SIGNING_KEY)" ]; then ssh-keygen -q -Y sign -f "$(SIGNING_KEY)" -n tausik-release $(DIST)/SHA256SUMS; fi

.PHONY: test
test: build ## all tests (race, shuffled), then tausik judges its own repo; a throwaway PostgreSQL when the machine has one
	@if [ -z "$$TAUSIK_TEST_POSTGRES" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  testdata/postgres/with-server.sh $(MAKE) --no-print-directory test-run; \
	else \
	  [ -n "$$TAUSIK_TEST_POSTGRES" ] || echo "WARNING: no PostgreSQL server binaries (apt-get install postgresql): the PostgreSQL store is NOT TESTED" >&2; \
	  $(MAKE) --no-print-directory test-run; \
	fi

.PHONY: test-run
test-run: ## the tests and dogfood, against whatever TAUSIK_TEST_POSTGRES names
	$(GO) test -race -shuffle=on -count=1 -timeout 60m $(PKGS)
	$(MAKE) --no-print-directory dogfood

.PHONY: dogfood
dogfood: ## tausik runs its own gates on this repo, its fixtures and mutants
	$(BIN) policy eval --trigger commit
	$(BIN) policy test --require-tools
	$(BIN) policy mutate --min-score 1 $(addprefix --gate ,$(MUTATE_GATES))

.PHONY: lint
lint: ## go vet and gofmt
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

.PHONY: fuzz
fuzz: ## a short run of every fuzz target (FUZZTIME each)
	@for spec in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for f in $$(grep -h '^func Fuzz' $$spec/*_test.go | sed 's/func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
	    echo "fuzz $$spec $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$spec || exit 1; \
	  done; \
	done

.PHONY: bench
bench: build ## benchmarks (figures go to the README's performance section; the hook table ends BenchmarkHookResident's), then class_surface beside the reference algorithm
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)
	testdata/surface/bench.sh $(BIN)

.PHONY: bench-hooks
bench-hooks: ## the hook latency table alone: thin client and warm evaluator, cold, in process, empty Go, opa eval (when on PATH)
	$(GO) test -run '^$$' -bench '^BenchmarkHookResident$$' -benchtime 40x .

