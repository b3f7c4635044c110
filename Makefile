# Firmo. `make run` serves the whole API locally; `make test` runs every test.
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
# Lambda builds: Amazon Linux 2023 custom runtime on Graviton, no RPC shim.
LAMBDA_ENV := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags '$(LDFLAGS)'
# Local stand-ins of AWS services installed from npm into .tools (see infra/README.md).
TOOLS := .tools
# aws-local-stepfunctions needs Node 22: node-linux-<arch> is a Node 22 binary from npm,
# used only by the Step Functions shim (infra/standins/sfn-shim.mjs).
NODE_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
NPM_TOOLS := dynalite@4.0.0 local-aws-sqs@2.0.2 aws-local-stepfunctions@3.0.0 asl-validator@4.0.0 node-linux-$(NODE_ARCH)@22.23.3
# The KMS stand-in is a Go module, built from source with go install into .tools/go (a
# directory per version); shared/testkit/localkms.go pins the same version.
LOCAL_KMS_VERSION := v0.0.0-20260228092603-2a5e92d09ab6
LOCAL_KMS := $(TOOLS)/go/local-kms-$(LOCAL_KMS_VERSION)/local-kms
# Lambda functions: directory under functions/ -> SAM logical id <Name>Function.
FUNCTIONS := account generation queries integrations email company contacts datasets scheduler worker steps crm
TEST_TIMEOUT ?= 14m
# The /docs renderer: Redoc's standalone bundle from npm (npm pack checks the package's
# integrity against the registry; the file's SHA-256 is pinned here too), embedded into the
# binary by shared/openapi (go:embed). Without it /docs is the plain HTML fallback.
REDOC_VERSION := 2.5.4
REDOC_SHA256 := dcaf76612bc4a3fbcc923a8966dee2f6146a5f32e5ce1b6f02dd60cbbf89500b
REDOC_JS := shared/openapi/redoc/redoc.standalone.js

.PHONY: run test test-short build bench lint lambda-sizes tools docs-assets clean help FORCE build-AccountFunction build-GenerationFunction build-QueriesFunction build-IntegrationsFunction build-EmailFunction build-CompanyFunction build-ContactsFunction build-DatasetsFunction build-SchedulerFunction build-WorkerFunction build-StepsFunction build-CrmFunction

help:
	@echo "make run     serve the API on :8080 with embedded storage and the demo world"
	@echo "make test    install test stand-ins (npm) and run every test"
	@echo "make build   build bin/firmo and every Lambda bootstrap (linux/arm64)"
	@echo "make bench   run the benchmarks"
	@echo "make lint    gofmt, go vet, staticcheck, go mod tidy -diff"
	@echo "make lambda-sizes  build every Lambda and check each zip against the 25 MB budget"
	@echo "make docs-assets   fetch the /docs renderer (Redoc, npm) that the builds embed"

run: bin/firmo
	./bin/firmo serve

bin/firmo: FORCE $(REDOC_JS)
	@mkdir -p bin
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/firmo ./functions/local

FORCE:

# The Go client is its own module (shared/client/go.mod): ./... of this module does not
# reach it, so its tests run in its directory (its drift test fetches oapi-codegen from
# the module proxy).
CLIENT := shared/client

test: tools $(REDOC_JS)
	$(GO) vet ./...
	FIRMO_REQUIRE_STANDINS=1 $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	cd $(CLIENT) && FIRMO_REQUIRE_STANDINS=1 GOWORK=off $(GO) test -count=1 ./...

# Unit tests only: skips tests that need the npm stand-ins when they are absent.
test-short:
	$(GO) test -count=1 ./...
	cd $(CLIENT) && GOWORK=off $(GO) test -count=1 ./...

# Installs the pinned stand-ins once (npm packages, local-kms); the test kit does the
# same on demand.
tools: $(TOOLS)/.installed $(LOCAL_KMS)

$(TOOLS)/.installed: Makefile
	@command -v npm >/dev/null || { echo "npm is needed for the AWS stand-ins: apt-get install -y nodejs npm"; exit 1; }
	npm install --prefix $(TOOLS) --no-audit --no-fund --save-exact $(NPM_TOOLS)
	@touch $@

# GOFLAGS cleared: go install module@version ignores this module and its flags.
$(LOCAL_KMS):
	GOBIN=$(abspath $(dir $@)) GOFLAGS= GOWORK=off CGO_ENABLED=0 $(GO) install github.com/nsmithuk/local-kms@$(LOCAL_KMS_VERSION)

build: bin/firmo $(foreach f,$(FUNCTIONS),bin/lambda/$(f)/bootstrap)

docs-assets: $(REDOC_JS)

$(REDOC_JS): Makefile
	@command -v npm >/dev/null || { echo "npm is needed for the /docs renderer: apt-get install -y nodejs npm"; exit 1; }
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  npm pack --silent --pack-destination "$$tmp" redoc@$(REDOC_VERSION) >/dev/null && \
	  tar -xzf "$$tmp"/redoc-$(REDOC_VERSION).tgz -C "$$tmp" package/bundles/redoc.standalone.js && \
	  echo "$(REDOC_SHA256)  $$tmp/package/bundles/redoc.standalone.js" | sha256sum -c --quiet && \
	  cp "$$tmp"/package/bundles/redoc.standalone.js $@
	@echo "$@: redoc $(REDOC_VERSION)"

bin/lambda/%/bootstrap: FORCE $(REDOC_JS)
	@mkdir -p $(dir $@)
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $@ ./functions/$*

# SAM (BuildMethod: makefile) calls build-<LogicalId> with ARTIFACTS_DIR set, running this
# Makefile in the module root (template.yaml: Metadata ContextPath and WorkingDirectory),
# so the package paths below are the real sources, built with Go's own cache.
build-AccountFunction: $(REDOC_JS)
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/account

build-GenerationFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/generation

build-QueriesFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/queries

build-IntegrationsFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/integrations

build-EmailFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/email

build-CompanyFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/company

build-ContactsFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/contacts

build-DatasetsFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/datasets

build-SchedulerFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/scheduler

build-WorkerFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/worker

build-StepsFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/steps

build-CrmFunction:
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/crm

# The second line is contact search at a million contacts (shared/contactsearch/BENCHMARKS.md):
# similarity with and without filters, p50/p99 per kind; the first run fills its store and
# builds its graph under the user cache dir (about 15 minutes), later runs load them.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./...
	FIRMO_BENCH_1M=1 $(GO) test -run '^$$' -bench 'BenchmarkScale/n=1000000/^(similarity-text|similarity-persona-consensus5|filtered-similarity-broad-linkedin|filtered-similarity-mid-DE|filtered-similarity-selective-AT-director)$$' -benchtime 400x -timeout 120m ./shared/contactsearch

# staticcheck is pinned and run from the module proxy (no install step); it fails the
# target like any other check.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@fmt=$$(gofmt -l functions shared); if [ -n "$$fmt" ]; then echo "gofmt needed:"; echo "$$fmt"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff
	$(GO) run $(STATICCHECK) ./...
	cd $(CLIENT) && GOWORK=off $(GO) vet ./... && GOWORK=off $(GO) mod tidy -diff && GOWORK=off $(GO) run $(STATICCHECK) ./...

# Every Lambda built for linux/arm64, zipped with zip -9, each zip within 25 MB.
lambda-sizes: $(foreach f,$(FUNCTIONS),bin/lambda/$(f)/bootstrap)
	./infra/lambda-sizes.sh

clean:
	rm -rf bin
