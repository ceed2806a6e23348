# gemini-guard — see README.md. `make demo` and `make test` are the front door.

GO        ?= go
BIN       := bin
BINARIES  := guard-shell guard-secrets guard-redact gemini-guard
LDFLAGS   := -s -w
GOFLAGS_BUILD := -trimpath -ldflags '$(LDFLAGS)'

.PHONY: all build install test demo bench dist clean

all: build

## build: host binaries into bin/, what hooks/hooks.json runs
build:
	@mkdir -p $(BIN)
	@for b in $(BINARIES); do $(GO) build $(GOFLAGS_BUILD) -o $(BIN)/$$b ./cmd/$$b || exit 1; done
	@echo "built $(addprefix $(BIN)/,$(BINARIES))"

## install: build, then install into your Gemini CLI (~/.gemini/extensions/gemini-guard)
install: build
	@command -v gemini >/dev/null 2>&1 || { echo "make install: 'gemini' is not on PATH. Install Gemini CLI first: npm install -g @google/gemini-cli"; exit 1; }
	gemini extensions install "$(CURDIR)" --consent

## test: every test, including the end-to-end tests against the real Gemini CLI
test: build
	$(GO) vet ./...
	$(GO) test -count=1 ./...

clean:
	rm -rf $(BIN) dist
