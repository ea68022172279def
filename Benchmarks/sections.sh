#!/usr/bin/env bash
# make bench's measuring half, run by Benchmarks/bench.sh inside a network and mount namespace of
# its own (`unshare -rnm`: loopback only, so nothing here can reach the real network, not even an
# image URL inside a real feed). Brings loopback up, mounts a tmpfs for the homes' runtime folders
# (a desktop's XDG_RUNTIME_DIR, /run/user/UID, is one: the bar files never wait for a disk),
# starts the private desktop session (a D-Bus session bus, Xvfb and dunst:
# scripts/lib/common.sh) and the one HTTP server (server.py), then runs each section, all
# printing `name value unit` lines into RESULTS.
# Usage: sections.sh BIN_DIR WORK_DIR RESULTS
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$1 work=$2 results=$3
ip link set lo up || { echo "sections.sh: cannot bring loopback up in the namespace" >&2; exit 1; }
mkdir -p "$work/runtime" && mount -t tmpfs -o mode=0755 tmpfs "$work/runtime" ||
    { echo "sections.sh: cannot mount a tmpfs for the runtime folders in the namespace" >&2; exit 1; }
. scripts/lib/common.sh
# The session's bus activates this build's host (session.sh's service file names it).
export HEADLINES_BIN=$bin
session_start "$work/session" >&2
export SESSION_DIR
exec {server_fd}< <(exec python3 Benchmarks/server.py --log "$work/wire.jsonl" --latency-feed "$work/latency.rss")
PIDS+=($!)
read -r -t 10 _ port <&"$server_fd" || die "the bench server did not start"
export BENCH_BIN=$bin BENCH_WORK=$work BENCH_RUNTIME=$work/runtime BENCH_BASE=http://127.0.0.1:$port BENCH_WIRE=$work/wire.jsonl
sections=${BENCH_SECTIONS:-idle latency reload parse ledger}
for section in $sections; do
    echo "# make bench: $section" >&2
    echo "run.load_before_$section $(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /) load" >> "$results"
    # A section that fails leaves its figures out (the table says "not measured"); the rest run.
    python3 "Benchmarks/$section.py" | tee -a "$results" || echo "run.failed.$section 1 flag" >> "$results"
done
