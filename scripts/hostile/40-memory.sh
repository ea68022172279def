#!/usr/bin/env bash
# Memory: reload-and-notify cycles (CYCLES, below) through the real decoder,
# cache, ledger, seen set and libnotify to a real dunst (Tests/HeadlinesDesktopTests/MemoryCycleTests),
# under valgrind memcheck: no invalid access, no definite leak (XCTest's own are suppressed, see
# scripts/lib/xctest.supp), every notification object finalized (counted by g_object_weak_ref: Debian's
# GLib cannot count instances). Prints ROW lines for scripts/hostile.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
TESTS=$HEADLINES_BIN/headlinesPackageTests.xctest
[ -x "$TESTS" ] || { row memory "setup" "no test bundle at $TESTS (run swift build --build-tests)" FAIL; exit 1; }
command -v valgrind >/dev/null || { row memory "setup" "valgrind is not installed" FAIL; exit 1; }
suite_dir memory
session_start "$WORK/session"
# 100 cycles by default: the test closes every notification at each hundredth cycle, so a hundred
# is the fewest in which notification objects are finalized, and with them whatever they hold; a
# leak there shows only from then on (a dropped action free func: 200 blocks definitely lost at 100
# cycles, none at 10), and every later cycle repeats the same code. CYCLES=500 for the longer run.
CYCLES=${CYCLES:-100}

# Valgrind 3.19 cannot read the DWARF 5 that clang writes for the C targets linked into the
# bundle (it gives up on the whole file): it runs a copy without debug information, whose symbol
# table still names every function for the suppressions and the reports.
objcopy --strip-debug "$TESTS" "$WORK/headlinesPackageTests.xctest" || { row memory "setup" "objcopy could not copy the test bundle" FAIL; exit 1; }
TESTS=$WORK/headlinesPackageTests.xctest
HEADLINES_TEST_SESSION=1 CYCLES=$CYCLES \
    valgrind --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
             --suppressions=scripts/lib/xctest.supp --error-exitcode=99 \
             "$TESTS" HeadlinesDesktopTests.MemoryCycleTests >"$WORK/valgrind.log" 2>&1
status=$?
failures=0
summary=$(grep -o "ERROR SUMMARY: [0-9]* errors" "$WORK/valgrind.log" | tail -n 1)
invalid=$(grep -c "Invalid read\|Invalid write\|Invalid free\|uninitialised" "$WORK/valgrind.log")
definite=$(grep -o "definitely lost: [0-9,]* bytes" "$WORK/valgrind.log" | tail -n 1)
census=$(grep -o "memory-cycles: .*" "$WORK/valgrind.log" | tail -n 1)
ran=$(grep -c "Executed 1 test, with 0 failures" "$WORK/valgrind.log")

if [ "$ran" -ge 1 ]; then row memory "$CYCLES reload-and-notify cycles" "${census#memory-cycles: }; every notification object finalized after close" PASS
else row memory "$CYCLES reload-and-notify cycles" "the cycle test failed or did not run (status $status): $(grep -m1 'error:' "$WORK/valgrind.log")" FAIL; failures=1
      grep '^headlines: ' "$WORK/valgrind.log" | sort | uniq -c | head -5; fi
if [ "$invalid" -eq 0 ] && [ -n "$summary" ]; then row memory "invalid memory access (valgrind)" "none; $summary" PASS
else row memory "invalid memory access (valgrind)" "$invalid reports; ${summary:-no summary}" FAIL; failures=1; fi
if [ -z "$definite" ] || [ "$definite" = "definitely lost: 0 bytes" ]; then row memory "definite leaks (valgrind)" "none beyond XCTest's own (suppressed)" PASS
else row memory "definite leaks (valgrind)" "$definite" FAIL; failures=1; grep -A12 "definitely lost in" "$WORK/valgrind.log" | head -40; fi
exit "$failures"
