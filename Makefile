# gemini-guard — see README.md. `make demo` and `make test` are the front door.

GO       ?= go
GEMINI   ?= gemini
BIN      := bin
DIST     := dist
# The host's extension as `make install` hands it to Gemini CLI.
STAGE    := $(DIST)/gemini-guard

# Gemini CLI versions the end-to-end tests run on besides the pinned one
# (internal/e2e/versions.go): the floor in `make test`, every version of
# the range in `make test-matrix`.
E2E_FLOOR  := $(shell sed -n 's/^const FloorVersion = "\(.*\)"/\1/p' internal/e2e/versions.go)
E2E_FLOOR_TESTS := ^(TestWriteFileWithGitHubTokenIsBlocked|TestReplaceAddingAWSKeyIsBlocked|TestShellCommandWritingTokenIsBlocked|TestGitResetHardIsBlocked|TestHarmlessWorkGoesThrough|TestStreamedTokenSplitOverThreeChunksIsRedacted|TestPoliciesHoldWithHooksDisabled|TestSessionStartTellsAnOldCLIWhatIsMissing|TestModelRequestHoldsNoSecret|TestSaveMemoryWithTokenIsBlocked)$$
E2E_MATRIX := $(shell sed -n '/^var MatrixVersions/,/^}/p' internal/e2e/versions.go | grep -o '"[0-9][0-9.]*"' | tr -d '"')

# The packages whose tests `make test` runs under the race detector: those
# affordable with -race on 2 cores (measured on a loaded machine: each under
# a minute, internal/scanner's daemon and client tests 2.5 minutes). Not
# internal/edit (its worst-case replace test takes 7 minutes with -race),
# internal/secrets/detector, internal/redact, internal/redactguard,
# internal/cli (minutes already without it) nor the end-to-end tests.
RACE_PKGS := ./internal/audit ./internal/bounded ./internal/bundle ./internal/hook \
	./internal/jsonenc ./internal/lazyregexp ./internal/policy ./internal/protect \
	./internal/scanner ./internal/settings ./internal/state ./internal/toolargs \
	./internal/verdict ./internal/version
MODULE := $(shell $(GO) list -m)
# SCORECARD_TESTS are the tests that print scorecards: make test runs them
# once, with -v, after the unit tests.
SCORECARD_TESTS := ^(TestScorecard.*|TestOwnCorpus|TestDevSets|TestBlindRound8|TestBlindRound9|TestBlindRound10|TestParseAsTheHostsDo)$$

.PHONY: all help build install uninstall test test-matrix lint demo bench dist clean

all: build

help:
	@echo "make demo       run the real Gemini CLI with a scripted model and watch the guard (throwaway HOME)"
	@echo "make test       every test, including end to end against the real Gemini CLI $(shell sed -n 's/^\tCLIVersion = "\(.*\)"/\1/p' internal/e2e/cli.go)"
	@echo "make test-matrix  the end-to-end tests on every Gemini CLI from $(E2E_FLOOR) to the pinned one"
	@echo "make build      host binaries into bin/ (what hooks/hooks.json runs)"
	@echo "make install    build and install into your Gemini CLI (~/.gemini/extensions/gemini-guard)"
	@echo "make uninstall  remove it from your Gemini CLI"
	@echo "make lint       golangci-lint (tools/lint pins it) and the per-call hooks' link rules (depguard)"
	@echo "make bench      hook latency against the floor of starting a process, and Go benchmarks"
	@echo "make dist       release archives for linux, darwin, win32 x x64, arm64 into dist/"
	@echo "make clean      remove bin/ and dist/"

## build: host binaries into bin/, what hooks/hooks.json runs, built as the
## release builds them (internal/bundle.Build): static (no cgo: os/user
## would otherwise pull in cgo, and every hook process would pay ~1-2 ms for
## the dynamic loader and libc), with the tag gore2regex (gitleaks' own RE2
## build, pure Go: the scanner process scans 5-15x faster with it; the hooks
## do not link gitleaks) and mvdan.cc/sh's start-up regexps made lazy in a
## patched copy of the module (internal/bundle/patch.go says why).
build:
	@mkdir -p $(BIN)
	$(GO) run ./tools/dist -bin $(BIN)

## install: stage the host's extension into dist/gemini-guard and install it
## with `gemini extensions install`. A reinstall keeps your settings (.env).
install:
	@command -v $(GEMINI) >/dev/null 2>&1 || { echo "make install: '$(GEMINI)' is not on PATH. Install Gemini CLI first (npm install -g @google/gemini-cli), or set GEMINI=/path/to/gemini."; exit 1; }
	$(GO) run ./tools/dist -stage $(STAGE)
	@ext="$${HOME}/.gemini/extensions/gemini-guard"; saved=""; \
	if [ -f "$$ext/gemini-extension.json" ]; then \
		if [ -f "$$ext/.env" ]; then saved="$$(mktemp)"; cp "$$ext/.env" "$$saved"; fi; \
		echo "gemini-guard is installed; reinstalling (your settings are kept)"; \
		$(GEMINI) extensions uninstall gemini-guard || exit 1; \
	fi; \
	$(GEMINI) extensions install "$(CURDIR)/$(STAGE)" --consent --skip-settings || exit 1; \
	if [ -n "$$saved" ]; then cp "$$saved" "$$ext/.env"; rm -f "$$saved"; fi
	@echo "Settings: gemini extensions config gemini-guard   (see README.md, Settings)"

uninstall:
	$(GEMINI) extensions uninstall gemini-guard

## test: every test, including the end-to-end tests against the real Gemini
## CLI (installed with npm into your cache directory on first use), after
## make lint
test: build lint
	$(GO) vet ./...
	@# The end-to-end tests run alone, after the rest: the hooks answer by
	@# their own deadlines, and on 2 cores the unit tests' load beside the
	@# real CLI makes the stream hook withhold text it would have redacted.
	$(GO) test -count=1 -race -timeout 30m $(RACE_PKGS)
	$(GO) test -count=1 -timeout 30m -skip '$(SCORECARD_TESTS)' $$($(GO) list ./... | grep -v '/internal/e2e$$' | grep -v -x -F $(foreach p,$(RACE_PKGS),-e $(MODULE)/$(p:./%=%)))
	$(GO) test -count=1 -timeout 30m ./internal/e2e
	@# The guard scenarios, the policy wall, what session start says and
	@# the request to the model (sent unchanged there, the user told) again
	@# on the oldest Gemini CLI gemini-guard supports. Not the doctor, audit
	@# and tool-output tests: their output shapes differ on old CLIs (0.32
	@# keeps no .jsonl transcript; make test-matrix runs everything); the
	@# Qwen Code tests run once, above.
	GEMINI_GUARD_E2E_CLI=$(E2E_FLOOR) $(GO) test -count=1 -timeout 30m -run '$(E2E_FLOOR_TESTS)' ./internal/e2e
	@# The scorecards, run once, here (skipped above), with -v so their
	@# figures print (go test hides the output of passing packages); a
	@# figure below its threshold fails make with the test's output. The
	@# shell guard: peer corpora, own corpus, development sets, blind round.
	@# The secrets guard: own corpus, blind sets, families, look-alikes, the
	@# TruffleHog dev set, false blocks on real source files.
	@out="$$(mktemp)"; rc=0; \
	$(GO) test -count=1 -timeout 30m -run '$(SCORECARD_TESTS)' -v ./internal/shellguard ./internal/secrets/detector ./internal/protect ./internal/dotenv >"$$out" 2>&1 || rc=$$?; \
	grep '^scorecard' "$$out"; \
	if [ $$rc -ne 0 ]; then grep -v -E '^(=== (RUN|PAUSE|CONT)|--- PASS|real-source finding|scorecard)' "$$out"; fi; \
	rm -f "$$out"; exit $$rc
	@$(GO) test -count=1 -run '^(TestPolicyComplexity|TestPolicyArgvReads)$$' -v ./internal/policy | grep '^scorecard' || true

## lint: golangci-lint, pinned by tools/lint/go.mod (its own module, so
## its dependencies stay out of the product's go.mod); the checks and the
## link rules are in .golangci.yml. `go mod tidy -diff` keeps go.mod honest.
## --allow-serial-runners: a second run (another worktree, CI beside a
## developer) waits for golangci-lint's lock instead of failing.
lint:
	$(GO) mod tidy -diff
	$(GO) tool -modfile=tools/lint/go.mod golangci-lint run --allow-serial-runners ./...

## test-matrix: the end-to-end tests on every Gemini CLI version of the
## stated range, each installed once with npm into the user cache. Every
## test runs on every version: the scenarios and the policy wall hold
## everywhere; a test that reads what an old CLI does not have (the .jsonl
## transcript before 0.39, ...) skips with its reason (requireCLI), and the
## Qwen Code tests run only with the pinned CLI. A failing version does not
## stop the others; the failing ones are listed at the end.
test-matrix: build
	@mkdir -p $(DIST); failed=""; for v in $(E2E_MATRIX); do \
		echo "== Gemini CLI $$v"; log="$(DIST)/test-matrix-$$v.log"; \
		if GEMINI_GUARD_E2E_CLI=$$v $(GO) test -count=1 -timeout 30m -v ./internal/e2e >"$$log" 2>&1; then \
			grep -E -A1 '^--- SKIP' "$$log" | grep -E 'Gemini CLI [0-9.]+ has no' | sort -u; \
			grep -E '^ok' "$$log"; \
		else \
			grep -E '^--- FAIL' "$$log"; echo "   (whole output: $$log)"; failed="$$failed $$v"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "test-matrix: failed on$$failed"; exit 1; fi; \
	echo "test-matrix: every version passed"

## demo: the real Gemini CLI, a scripted model, a throwaway HOME
demo:
	$(GO) run ./tools/demo

## bench: whole hook processes as Gemini CLI runs them, against the floor;
## then the in-process Go benchmarks. Timing never fails a test.
bench:
	@mkdir -p $(DIST)
	$(GO) run ./tools/bench -json $(DIST)/bench.json
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

## dist: release archives {platform}.{arch}.gemini-guard.tar.gz (.zip for win32)
dist:
	$(GO) run ./tools/dist -out $(DIST)

clean:
	rm -rf $(BIN) $(DIST)
