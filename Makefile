# `make demo` and `make test` are the two commands a newcomer needs (see README.md).
# Every target installs its own Debian packages first through scripts/install-deps.sh.
SHELL := /bin/bash
# Prefer a swift already on PATH; fall back to the toolchain at /opt/swift.
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build demo test bench clean

deps:
	scripts/install-deps.sh

build:
	swift build -c release --product headlines

demo: deps build
	"$$(swift build -c release --show-bin-path)/headlines" demo

test: deps
	scripts/test.sh

bench: deps
	scripts/benchmark.sh

clean:
	swift package clean
