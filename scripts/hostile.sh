#!/usr/bin/env bash
# THE hostile-world suite (`make hostile`, and one entry of scripts/test.sh): runs every
# executable scripts/hostile/*.sh in name order (20-crash, 40-memory, 80-state,
# whatever exists), collects their result rows, prints them as one
# markdown table and ends with "hostile: N passed, N failed". Exits non-zero when any row failed or
# any sub-suite exited non-zero, timed out, or printed no row.
#
# A sub-suite prints one line per check on stdout:
#     ROW<TAB>area<TAB>fault<TAB>outcome<TAB>PASS|FAIL
# (outcome: one short sentence of what was observed), plus any free text, which is shown as is.
# It finds the binaries in $HEADLINES_BIN (the folder of the debug build), set here when unset.
# HOSTILE_ONLY=PATTERN runs only the sub-suites whose file name contains PATTERN;
# HOSTILE_SUITE_TIMEOUT (seconds, default 600, far above the longest sub-suite) bounds each sub-suite.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

started=$(date +%s)
if [ -z "${HEADLINES_BIN:-}" ]; then
    echo "== build (debug)"
    swift build || { echo "hostile: the debug build failed"; echo "hostile: 0 passed, 1 failed"; exit 1; }
    HEADLINES_BIN=$(swift build --show-bin-path)
fi
export HEADLINES_BIN

ROWS=$(mktemp)
OUT=$(mktemp)
trap 'rm -f "$ROWS" "$OUT"' EXIT
add_row() { printf 'ROW\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$ROWS"; }

suites=()
for suite in scripts/hostile/*.sh; do
    [ -f "$suite" ] || continue
    [ -x "$suite" ] || { add_row "hostile" "$(basename "$suite")" "$suite is not executable, so it cannot run: chmod +x it" FAIL; continue; }
    [ -n "${HOSTILE_ONLY:-}" ] && [[ $(basename "$suite") != *"$HOSTILE_ONLY"* ]] && continue
    suites+=("$suite")
done
[ ${#suites[@]} -gt 0 ] || add_row "hostile" "sub-suites" "no executable scripts/hostile/*.sh found" FAIL

for suite in "${suites[@]}"; do
    name=$(basename "$suite" .sh)
    echo "== hostile: $name"
    t0=$(date +%s)
    # stdout and stderr are shown as they come; only stdout's ROW lines count.
    timeout --kill-after=10 "${HOSTILE_SUITE_TIMEOUT:-600}" "$suite" 2>&1 | tee "$OUT"
    rc=${PIPESTATUS[0]}
    took=$(( $(date +%s) - t0 ))
    rows=0
    while IFS= read -r line; do
        IFS=$'\t' read -r tag area fault outcome result extra <<<"$line"
        if [ "$tag" = ROW ] && [ -n "$area" ] && [ -n "$fault" ] && [ -z "${extra:-}" ] && \
           { [ "$result" = PASS ] || [ "$result" = FAIL ]; }; then
            add_row "$area" "$fault" "$outcome" "$result"
        else
            bad=${line//$'\t'/ ⇥ }
            add_row "$name" "malformed row" "not ROW<TAB>area<TAB>fault<TAB>outcome<TAB>PASS|FAIL: ${bad:0:120}" FAIL
        fi
        rows=$((rows + 1))
    done < <(grep '^ROW' "$OUT")
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        add_row "$name" "sub-suite" "timed out after ${HOSTILE_SUITE_TIMEOUT:-600} s with $rows row(s) printed" FAIL
    elif [ "$rc" -ne 0 ]; then
        add_row "$name" "sub-suite" "exited with status $rc after $took s, $rows row(s) printed" FAIL
    elif [ "$rows" -eq 0 ]; then
        add_row "$name" "sub-suite" "exited 0 after $took s without printing a single row" FAIL
    fi
    echo "== hostile: $name done in ${took} s (status $rc, $rows rows)"
done

md() { local s=${1//|/\\|}; printf '%s' "$s"; }
echo
echo "| area | fault | outcome | result |"
echo "| --- | --- | --- | --- |"
passed=0; failed=0
while IFS=$'\t' read -r _ area fault outcome result; do
    printf '| %s | %s | %s | %s |\n' "$(md "$area")" "$(md "$fault")" "$(md "$outcome")" "$result"
    if [ "$result" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <"$ROWS"
echo
echo "hostile: whole run took $(( $(date +%s) - started )) s"
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
