# Thin wrappers around CMake presets. `make run` and `make test` work on a fresh
# Debian bookworm machine: they install the packages they need first.
BUILD ?= build/release
JOBS ?= $(shell nproc)

.PHONY: run test deps build build-asan test-asan bench clean

deps:
	@scripts/deps.sh --with-optional

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

run: build
	@mkdir -p reports/out
	@$(BUILD)/iowall run scenarios/default.json --chart reports/out/default.svg

test: build
	@ctest --preset release -j $(JOBS)

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

test-asan: build-asan
	@ctest --preset asan -j $(JOBS)

clean:
	rm -rf build
