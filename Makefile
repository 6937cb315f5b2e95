# Thin wrappers around CMake presets. `make run` and `make test` work on a fresh
# Debian bookworm machine: they install the packages they need first.
BUILD ?= build/release
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 30

.PHONY: run test deps build build-iowall build-asan test-asan fuzz-smoke accuracy validation-report bench clean

deps:
	@scripts/deps.sh --with-optional

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# Only the program: the run needs neither the tests nor the fuzzers.
build-iowall: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target iowall

run: build-iowall
	@mkdir -p reports/out
	@$(BUILD)/iowall run scenarios/default.json --chart reports/out/default.svg

test: build
	@ctest --preset release -j $(JOBS)

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

# The sanitizer suite: every test but those whose subject is another program's view (fio's
# timings, chromium's rendering; labels fio and browser), which the release run covers and
# which ASan's slowdown would only distort.
test-asan: build-asan
	@ctest --preset asan -j $(JOBS)

# The accuracy ratchet: the validation corpus, no worse than the committed result.
accuracy: build-iowall
	@$(BUILD)/iowall check --baseline reports/validation.json --quiet > /dev/null

# Regenerates the committed accuracy report (reports/validation.md and .json).
validation-report: build-iowall
	@$(BUILD)/iowall check --markdown reports/validation.md --output-format json --output reports/validation.json

# Each libFuzzer target for FUZZ_SECONDS on its committed corpus; fails on any finding.
fuzz-smoke: deps
	@JOBS=$(JOBS) scripts/fuzz-campaign.sh $(FUZZ_SECONDS)

clean:
	rm -rf build
