#!/usr/bin/env bash
# Hostile-world suite, part 4: fuzzing. Runs scripts/fuzz.sh in its bounded form (10 s per
# target unless FUZZ_SECONDS says otherwise) and prints one row per target on stdout:
#   ROW<TAB>fuzzing<TAB><target> parser, N s<TAB><runs, crashes, corpus or the finding><TAB>PASS|FAIL
# FAIL when libFuzzer found a crash, a timeout (an input over 5 s), a leak or runaway memory, or
# when a target could not be built. Everything else (build and libFuzzer output) goes to stderr
# and build/fuzz/logs/. Exits non-zero on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/common.sh

export FUZZ_SECONDS=${FUZZ_SECONDS:-10}
results=build/fuzz/results.tsv
rm -f "$results"
scripts/fuzz.sh >&2
status=$?

failed=0
rows=0
if [ -s "$results" ]; then
    while IFS=$'\t' read -r target secs runs crashes corpus result detail; do
        rows=$((rows + 1))
        outcome="$(with_commas "$runs") runs, $crashes crashes, corpus $(with_commas "$corpus")"
        if [ "$result" != PASS ]; then
            failed=1
            case $detail in
                "not built"* | "no such target"*) outcome=$detail ;;
                *) outcome="$outcome: $detail" ;;
            esac
        fi
        row fuzzing "$target parser, $secs s" "$outcome" "$result"
    done <"$results"
fi
if [ "$rows" -eq 0 ]; then
    row fuzzing "all parsers, $FUZZ_SECONDS s" "scripts/fuzz.sh wrote no results (exit $status); see build/fuzz/logs" FAIL
    failed=1
fi
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
