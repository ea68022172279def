#!/usr/bin/env bash
# `make bench`: every figure of the costs the project holds itself to, measured in one run, side
# by side with the C GLib floor (Benchmarks/floor.c) and the peers (`newsboat -x reload`, a
# python3 feedparser loop, a `curl | jq` loop), each printed with met or NOT met against its
# target (Benchmarks/targets.json). Builds the release programs once, then runs
# Benchmarks/sections.sh in a network namespace of its own (loopback only: the real network
# cannot be reached) with private XDG folders, a private D-Bus session and dunst. Writes the run's
# figures to Benchmarks/results/results.json, renders them (Benchmarks/report.py) into
# results.md and chart.png there, and prints results.md.
# BENCH_IDLE_SECONDS (default: targets.json's idle window) shortens the idle window for development; a figure taken
# over a shorter window says so. About 13 minutes with the defaults once built.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

missing=()
for tool in newsboat xmllint curl jq dunst Xvfb dbus-daemon dbus-monitor gdbus unshare ip pkg-config clang; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
/usr/bin/python3 -c 'import feedparser' 2>/dev/null || missing+=(python3-feedparser)
pkg-config --exists libnotify 2>/dev/null || missing+=(libnotify-dev)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "benchmark: missing ${missing[*]}: run scripts/install-deps.sh --test (make test-deps)." >&2
    exit 1
fi
unshare -rnm true 2>/dev/null || {
    echo "benchmark: cannot make a private network and mount namespace (unshare -rnm); it keeps the bench off the real network." >&2
    exit 1
}

read -ra release < <(make --no-print-directory -s release-flags)
for p in headlines headlines-host headlines-reload headlines-fetch headlines-bar headlines-bench; do
    swift build "${release[@]}" --product "$p"
done
bin=$(swift build "${release[@]}" --show-bin-path)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The floor, and the meter that stands in for headlines-reload beside a copy of the host (reload.py).
cc=$(command -v clang)
"$cc" -O2 Benchmarks/floor.c $(pkg-config --cflags --libs libnotify) -o "$work/floor"
mkdir "$work/meter-bin"
"$cc" -O2 -DREAL_FETCH="\"$bin/headlines-reload\"" -DMETER_LOG="\"$work/meter.log\"" Benchmarks/meter.c \
    -o "$work/meter-bin/headlines-reload"
cp "$bin/headlines-host" "$work/meter-bin/headlines-host"
# The reload child's shared libraries alone: a C program that links every library headlines-reload
# names (and so loads the same set) and returns, for the start-up figures (reload.py).
needed=$(readelf -d "$bin/headlines-reload" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux')
echo 'int main(void) { return 0; }' > "$work/libraries.c"
"$cc" -O2 "$work/libraries.c" -o "$work/child-libraries" -Wl,--no-as-needed $(printf -- '-l:%s ' $needed)
ln -s "$bin/headlines" "$work/meter-bin/headlines"

results=$work/results.txt
{
    echo "run.date $(date -u +%Y-%m-%dT%H:%MZ) utc"
    echo "run.commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo +changes) id"
    echo "run.kernel $(uname -r) name"
    echo "run.cores $(nproc) count"
    echo "run.load_start $(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /) load"
} > "$results"
unshare -rnm Benchmarks/sections.sh "$bin" "$work" "$results"
echo "run.load_end $(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /) load" >> "$results"

python3 Benchmarks/report.py "$results" Benchmarks/results
echo
cat Benchmarks/results/results.md
echo
echo "wrote Benchmarks/results/: results.json (the run's figures), results.md (judged against Benchmarks/targets.json) and chart.png"
