#!/usr/bin/env bash
# libFuzzer for the parsers that read what the outside world sends: APITube and NewsAPI bodies,
# RSS/Atom/JSON feeds, and the config file (its validation, and GLib's key-file reading).
#
#   scripts/fuzz.sh                      bounded run: every target for 10 s (what make test runs)
#   FUZZ_SECONDS=600 scripts/fuzz.sh     the longer run, 10 minutes per target
#   scripts/fuzz.sh feed config          only some targets
#   scripts/fuzz.sh --build [targets]    build only, fuzz nothing (scripts/test.sh builds early)
#
# Environment:
#   FUZZ_SECONDS=10        seconds per target (libFuzzer -max_total_time)
#   FUZZ_JOBS=<nproc>      targets fuzzed at once (each uses one core)
#   FUZZ_SANITIZE=fuzzer,address   swiftc -sanitize= value (ASan also brings LeakSanitizer)
#   FUZZ_DETECT_LEAKS=1    0 to look past a known leak
#   FUZZ_ARGS=             extra libFuzzer flags, e.g. "-use_value_profile=1 -dict=..."
#
# Targets are Tests/Fuzz/<target>/main.swift (plus Tests/Fuzz/Common), compiled here with swiftc
# against a fuzz build of HeadlinesCore (instrumented, -enable-testing); SwiftPM never sees them.
# Everything goes to build/fuzz/ (never .build): bin/, corpus/<target>/ (seeded from Fixtures/ and
# kept between runs, so a longer run starts where the last one stopped), artifacts/<target>/ (the
# input of any crash, timeout, leak or OOM), logs/<target>.log, and results.tsv:
#   target  seconds  runs  crashes  corpus  PASS|FAIL  detail
# A finding goes into Fixtures/fuzz-regressions/ (it then seeds every target on each run, and
# Tests/HeadlinesSourcesTests/FuzzRegressionTests.swift feeds it to the parsers under swift test).
# Exits non-zero when any target failed to build or found something.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swiftc >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

ALL_TARGETS=(apitube newsapi feed config keyfile)
BUILD_ONLY=0
if [ "${1:-}" = --build ]; then BUILD_ONLY=1; shift; fi
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi
SECONDS_EACH=${FUZZ_SECONDS:-10}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
SANITIZE=${FUZZ_SANITIZE:-fuzzer,address}
DETECT_LEAKS=${FUZZ_DETECT_LEAKS:-1}
EXTRA_ARGS=${FUZZ_ARGS:-}
# Leaks inside the toolchain (not ours) that would otherwise stop a target at its first input;
# each is explained in the file.
LSAN="suppressions=$PWD/Tests/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

OUT=build/fuzz
mkdir -p "$OUT"
# libFuzzer and ASan report a crash and save its input; Swift's own backtracer, started inside an
# instrumented process, can hang there and keep the lock below held by what it inherited.
export SWIFT_BACKTRACE=enable=no
# One run at a time over build/fuzz (binaries, corpus and logs are shared).
exec 9>"$OUT/.lock"
if ! flock -n 9; then
    echo "fuzz: another scripts/fuzz.sh is running; waiting for it" >&2
    flock 9
fi
LIB=$OUT/lib
BIN=$OUT/bin
RESULTS=$OUT/results.tsv
mkdir -p "$LIB" "$BIN" "$OUT/logs" "$OUT/tmp" "$OUT/corpus" "$OUT/artifacts"
: >"$RESULTS"

say() { echo "fuzz: $*" >&2; }

LD_FLAGS=()
# lld links sanitizer objects without gold's flood of "cannot export local symbol" warnings.
[ -x "$(dirname "$(command -v swiftc)")/ld.lld" ] && LD_FLAGS=(-use-ld=lld)
# Stacks in reports name files and lines when the toolchain's symbolizer is at hand.
SYMBOLIZER="$(dirname "$(command -v swiftc)")/llvm-symbolizer"
[ -x "$SYMBOLIZER" ] && export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$SYMBOLIZER}"
# -package-name as SwiftPM passes it: the modules share `package` declarations (DateScanner).
SWIFT_FLAGS=(-parse-as-library -package-name headlines -sanitize="$SANITIZE" -O -g "${LD_FLAGS[@]}")

# ---- build ------------------------------------------------------------------------------------
# A content stamp (sources + flags + compiler) decides whether a product is rebuilt.
stamp_of() { { swiftc --version 2>&1; echo "${SWIFT_FLAGS[*]}"; cat "$@"; } | sha256sum | cut -d' ' -f1; }
fresh() { # product stamp-file stamp
    [ -e "$1" ] && [ -f "$2" ] && [ "$(cat "$2")" = "$3" ]
}

# The core renders the bars' formats through BarFormats, on the standard library alone.
mapfile -t FORMAT_SOURCES < <(find Sources/BarFormats -name '*.swift' | sort)
mapfile -t CORE_SOURCES < <(find Sources/HeadlinesCore -name '*.swift' | sort)
# The parsers live in HeadlinesSources (on the core), which reads XML through FeedXML, the one
# module that sees libxml2 (Sources/CLibXML2).
mapfile -t SOURCES_SOURCES < <(find Sources/HeadlinesSources -name '*.swift' | sort)
mapfile -t XML_SOURCES < <(find Sources/FeedXML -name '*.swift' | sort)
XML_CFLAGS=(-I Sources/CLibXML2)
for flag in $(pkg-config --cflags libxml-2.0 2>/dev/null); do XML_CFLAGS+=(-Xcc "$flag"); done
XML_LIBS=(-L "$LIB" -lFeedXML)
for flag in $(pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2); do XML_LIBS+=("$flag"); done

BUILD_ERROR=""
compile_module() { # NAME, then flags and sources: a static library and its module in $LIB
    local name=$1; shift
    swiftc "${SWIFT_FLAGS[@]}" -enable-testing -module-name "$name" -I "$LIB" \
        -emit-module -emit-module-path "$LIB/$name.swiftmodule" \
        -emit-library -static -o "$LIB/lib$name.a" "$@" >"$OUT/logs/build-core.log" 2>&1 && return 0
    BUILD_ERROR=$(grep -m1 -E "error:" "$OUT/logs/build-core.log" || tail -n1 "$OUT/logs/build-core.log")
    return 1
}
build_core() {
    local stamp; stamp=$(stamp_of "${XML_SOURCES[@]}" Sources/CLibXML2/shim.h "${FORMAT_SOURCES[@]}" "${CORE_SOURCES[@]}" "${SOURCES_SOURCES[@]}")
    if fresh "$LIB/libHeadlinesCore.a" "$LIB/stamp" "$stamp"; then return 0; fi
    say "building FeedXML, BarFormats, HeadlinesCore and HeadlinesSources with -sanitize=$SANITIZE"
    rm -f "$LIB/stamp"
    compile_module FeedXML "${XML_CFLAGS[@]}" "${XML_SOURCES[@]}" &&
        compile_module BarFormats "${FORMAT_SOURCES[@]}" &&
        compile_module HeadlinesCore "${CORE_SOURCES[@]}" &&
        compile_module HeadlinesSources "${XML_CFLAGS[@]}" "${SOURCES_SOURCES[@]}" || return 1
    echo "$stamp" >"$LIB/stamp"
}

target_sources() { # target
    echo Tests/Fuzz/Common/FuzzSupport.swift
    echo "Tests/Fuzz/$1/main.swift"
    # The config file as the app reads it goes through GLib (GKeyFile): HeadlinesGLib's reader.
    [ "$1" = keyfile ] && echo Sources/HeadlinesGLib/KeyFileReader.swift
}

build_target() { # target -> 0, or 1 with the reason in $OUT/logs/build-<target>.log
    local t=$1 sources=() extra=()
    while IFS= read -r f; do sources+=("$f"); done < <(target_sources "$t")
    for f in "${sources[@]}"; do [ -f "$f" ] || { echo "error: $f is missing" >"$OUT/logs/build-$t.log"; return 1; }; done
    if [ "$t" = keyfile ]; then
        if ! pkg-config --exists glib-2.0 2>/dev/null; then
            echo "error: pkg-config cannot find glib-2.0 (scripts/install-deps.sh installs it)" >"$OUT/logs/build-$t.log"
            return 1
        fi
        extra=(-I Sources/CGLib)
        for flag in $(pkg-config --cflags glib-2.0); do extra+=(-Xcc "$flag"); done
        for flag in $(pkg-config --libs glib-2.0); do extra+=("$flag"); done
    fi
    local stamp; stamp=$(stamp_of "$LIB/stamp" "${sources[@]}"; echo "${extra[*]}")
    if fresh "$BIN/$t" "$BIN/$t.stamp" "$stamp"; then return 0; fi
    rm -f "$BIN/$t.stamp"
    if ! swiftc "${SWIFT_FLAGS[@]}" -module-name "Fuzz_$t" -I "$LIB" -L "$LIB" -lHeadlinesSources -lHeadlinesCore -lBarFormats \
            "${XML_CFLAGS[@]}" "${XML_LIBS[@]}" \
            "${extra[@]}" "${sources[@]}" -o "$BIN/$t" \
            >"$OUT/logs/build-$t.log" 2>&1; then
        return 1
    fi
    echo "$stamp" >"$BIN/$t.stamp"
}

# ---- corpus -----------------------------------------------------------------------------------
seed_dirs() { # target -> the Fixtures (and seed folders) its corpus starts from
    case $1 in
        apitube) echo Fixtures/apitube Fixtures/hostile ;;
        newsapi) echo Fixtures/newsapi Fixtures/hostile ;;
        feed) echo Fixtures/feeds Fixtures/hostile ;;
        config | keyfile) echo Tests/Fuzz/config/seeds ;;
    esac
    echo Fixtures/fuzz-regressions
}

seed_corpus() { # target
    local dir=$OUT/corpus/$1 d f
    mkdir -p "$dir"
    for d in $(seed_dirs "$1"); do
        [ -d "$d" ] || continue
        for f in "$d"/*; do
            [ -f "$f" ] || continue
            case $(basename "$f") in README* | *.md) continue ;; esac
            cp -f "$f" "$dir/seed-$(basename "$d")-$(basename "$f")"
        done
    done
}

# ---- run --------------------------------------------------------------------------------------
with_commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }

# Targets whose every malformed input leaks inside the toolchain (see Tests/Fuzz/lsan.supp): even a
# suppressed leak costs a heap scan per input, 30 times slower, so they fuzz with leak detection
# off and the leak check runs on their final corpus instead.
LEAK_CHECK_AFTER=" feed "

fuzz_env() { # command... : runs it with the sanitizer settings of this script
    FUZZ_TMPDIR=$OUT/tmp ASAN_OPTIONS="${ASAN_OPTIONS:-}" LSAN_OPTIONS="$LSAN" "$@"
}

# Sets what/input/where from a libFuzzer log that ended in a finding.
describe_finding() { # target log rc
    local t=$1 log=$2 rc=$3 repro=$OUT/logs/$1.repro.log
    input=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n1 | sed 's/Test unit written to //')
    what=$(grep -m1 -oE "ERROR: libFuzzer: (timeout|out-of-memory|deadly signal|fuzz target exited)[^(]*|ERROR: AddressSanitizer: [A-Za-z-]+( on unknown address [0-9a-fx]+)?|ERROR: LeakSanitizer: detected memory leaks|Fatal error: .*" "$log" | head -n1)
    [ -n "$what" ] || what="libFuzzer exited with status $rc"
    local size; size=$(grep -m1 -oE "^SUMMARY: AddressSanitizer: [0-9]+ byte\(s\) leaked in [0-9]+ allocation\(s\)" "$log" | sed 's/SUMMARY: AddressSanitizer: //')
    [ -n "$size" ] && what="$what ($size per input)"
    # Replay the input once with full (slow) unwinding, so that a stack through C libraries
    # built without frame pointers (GLib) still reaches our code; then name the first frame in
    # the project's own sources (the binaries have -g).
    if [ -n "$input" ] && [ -f "$input" ]; then
        ASAN_OPTIONS="fast_unwind_on_malloc=0:${ASAN_OPTIONS:-}" fuzz_env timeout -k 5 60 "$BIN/$t" \
            -timeout=5 -rss_limit_mb=2048 "$input" >"$repro" 2>&1
    else
        cp "$log" "$repro"
    fi
    where=$(cat "$repro" "$log" | grep -oE "(Sources|Tests)/[A-Za-z0-9_/+-]+\.swift:[0-9]+" | grep -v "^Tests/Fuzz/" | head -n1)
}

run_target() { # target -> one line in $OUT/results-<target>.tsv
    local t=$1 log=$OUT/logs/$1.log art=$OUT/artifacts/$1/ rc leaks=$DETECT_LEAKS
    mkdir -p "$art"
    seed_corpus "$t"
    case $LEAK_CHECK_AFTER in *" $t "*) leaks=0 ;; esac
    # -timeout: one input over 5 s is a finding (a hang). -rss_limit_mb: so is runaway memory.
    # The outer timeout only guards against libFuzzer itself wedging.
    # shellcheck disable=SC2086
    ASAN_OPTIONS="detect_leaks=$leaks:${ASAN_OPTIONS:-}" fuzz_env timeout -k 10 $((SECONDS_EACH + 300)) "$BIN/$t" \
        -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
        -detect_leaks="$leaks" -print_final_stats=1 -artifact_prefix="$art" $EXTRA_ARGS \
        "$OUT/corpus/$t" >"$log" 2>&1
    rc=$?
    local runs corpus crashes=0 status=PASS detail="" what="" input="" where=""
    runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n1)
    [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$log" | tail -n1 | tr -d '#')
    corpus=$(grep -oE 'corp: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+')
    runs=${runs:-0}; corpus=${corpus:-0}
    if [ "$rc" -ne 0 ] || grep -q "Test unit written to" "$log"; then
        describe_finding "$t" "$log" "$rc"
    else
        # Keep the corpus small between runs: only inputs that add coverage (-merge=1).
        local merged=$OUT/corpus/$t.merged
        rm -rf "$merged"; mkdir -p "$merged"
        if ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" fuzz_env timeout -k 10 900 "$BIN/$t" -merge=1 \
                -max_len=65536 -timeout=5 -rss_limit_mb=2048 -detect_leaks=0 "$merged" "$OUT/corpus/$t" \
                >"$OUT/logs/$t.merge.log" 2>&1; then
            rm -rf "$OUT/corpus/$t" && mv "$merged" "$OUT/corpus/$t"
            corpus=$(find "$OUT/corpus/$t" -type f | wc -l)
        else
            rm -rf "$merged"
        fi
    fi
    if [ -z "$what" ] && [ "$leaks" != "$DETECT_LEAKS" ]; then
        # The leak check over everything this run kept (-runs=0: replay the corpus, no mutation).
        local leaklog=$OUT/logs/$t.leaks.log
        ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" fuzz_env timeout -k 10 900 "$BIN/$t" -runs=0 \
            -max_len=65536 -timeout=5 -rss_limit_mb=2048 -detect_leaks=1 -artifact_prefix="$art" \
            "$OUT/corpus/$t" >"$leaklog" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ] || grep -q "Test unit written to" "$leaklog"; then
            describe_finding "$t" "$leaklog" "$rc"
            what="$what (corpus leak check)"
        fi
    fi
    if [ -n "$what" ]; then
        crashes=1; status=FAIL
        detail="$what${where:+ at $where}${input:+; input saved to $input}"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$SECONDS_EACH" "$runs" "$crashes" "$corpus" "$status" "$detail" \
        >"$OUT/results-$t.tsv"
}

# ---- main -------------------------------------------------------------------------------------
failed=0
core_ok=1
build_core || core_ok=0

runnable=()
for t in "${TARGETS[@]}"; do
    rm -f "$OUT/results-$t.tsv"
    if [ "$core_ok" -eq 0 ]; then
        printf '%s\t%s\t0\t0\t0\tFAIL\t%s\n' "$t" "$SECONDS_EACH" \
            "not built: HeadlinesCore did not compile with -sanitize=$SANITIZE: ${BUILD_ERROR:-see $OUT/logs/build-core.log}" \
            >"$OUT/results-$t.tsv"
        continue
    fi
    if ! [ -f "Tests/Fuzz/$t/main.swift" ]; then
        printf '%s\t%s\t0\t0\t0\tFAIL\t%s\n' "$t" "$SECONDS_EACH" "no such target (Tests/Fuzz/$t/main.swift)" >"$OUT/results-$t.tsv"
        continue
    fi
    say "building $t"
    if ! build_target "$t"; then
        reason=$(grep -m1 -E "error:" "$OUT/logs/build-$t.log" || tail -n1 "$OUT/logs/build-$t.log")
        printf '%s\t%s\t0\t0\t0\tFAIL\t%s\n' "$t" "$SECONDS_EACH" "not built: $reason" >"$OUT/results-$t.tsv"
        continue
    fi
    runnable+=("$t")
done

if [ "$BUILD_ONLY" -eq 1 ]; then
    say "built ${runnable[*]:-nothing}"
    [ ${#runnable[@]} -eq ${#TARGETS[@]} ]
    exit $?
fi
say "fuzzing ${runnable[*]:-nothing} for $SECONDS_EACH s each, $JOBS at a time"
running=0
for t in "${runnable[@]}"; do
    run_target "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

for t in "${TARGETS[@]}"; do
    cat "$OUT/results-$t.tsv" >>"$RESULTS"
done
while IFS=$'\t' read -r t secs runs crashes corpus status detail; do
    [ "$status" = PASS ] || failed=1
    printf '%-8s %4s s  %12s runs  %s crashes  corpus %-6s %s%s\n' "$t" "$secs" "$(with_commas "$runs")" \
        "$crashes" "$corpus" "$status" "${detail:+  $detail}"
done <"$RESULTS"
exit "$failed"
