#!/usr/bin/env bash
# make bench's ledger section alone (Benchmarks/ledger.py): builds the release programs it
# runs, then runs that one section as make bench does (Benchmarks/sections.sh, in a network and
# mount namespace of its own with a private session), and prints its figures. The homes are in
# TMPDIR (default /var/tmp), which must be on a disk: write_bytes counts nothing on a tmpfs.
# BENCH_LEDGER_SECONDS sets each window (default 60 s). About 3 minutes once built.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
read -ra release < <(make --no-print-directory -s release-flags)
for p in headlines headlines-host headlines-reload headlines-fetch; do
    swift build "${release[@]}" --product "$p"
done
bin=$(swift build "${release[@]}" --show-bin-path)
work=$(mktemp -d -p "${TMPDIR:-/var/tmp}")
trap 'rm -rf "$work"' EXIT
BENCH_SECTIONS=ledger unshare -rnm Benchmarks/sections.sh "$bin" "$work" "$work/results.txt"
