#!/usr/bin/env bash
# THE test run (`make test`, .ci/run): unit tests through swift test, then the integration
# suites listed below, each reported PASS or FAIL. The last line counts suites:
# "suites: N passed, N failed, N not run" (not run: a suite whose data lives outside the repository,
# gofeed's corpus in ../shared, is absent; it is named, never counted as passed). Exits non-zero
# when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

# ---- Integration suites -----------------------------------------------------------------------
# Run in order after the unit tests. One entry per suite: "name|command" (the command runs from
# the repository root with HEADLINES_BIN set to the folder of the debug binaries). Later issues
# append their suites here. ThreadSanitizer comes late so that its build, started beside the unit
# tests (see below), is done by then.
INTEGRATION_SUITES=(
    "cli demo|scripts/suites/demo.sh"
    "daily budget across host crashes (real processes)|scripts/suites/budget-crashes.sh"
    "native stack (libcurl, libxml2, no Foundation or ICU)|scripts/suites/stack.sh"
    "notifications (dbus, Xvfb, dunst)|scripts/suites/notifications.sh"
    "notification servers: dunst, mako (headless sway), xfce4-notifyd; images and default actions|scripts/suites/notify-servers.sh"
    "headlines doctor and a real click on dunst; a server without actions gets the link|scripts/suites/doctor-and-click.sh"
    "a click that opens nothing sends a notification saying what to install or set|scripts/suites/failed-click.sh"
    "a Hacker News headline's Comments action under dunst opens the discussion|scripts/suites/comments.sh"
    "headlines-bar, the static bar program, against a fake host|scripts/suites/bar-binary.sh"
    "the host on a private session bus: activation, introspection, signals, one owner|scripts/suites/bus.sh"
    "bars (i3blocks, waybar copies, take-over, lifecycle)|scripts/suites/bars.sh"
    "waybar under headless sway, two outputs|scripts/suites/bars-sway.sh"
    "swaybar reading headlines-bar i3bar under headless sway|scripts/suites/i3bar-sway.sh"
    "several widgets: waybar --widget modules under headless sway, i3blocks instance= blocks|scripts/suites/widgets-sway.sh"
    "bar hosts: the real polybar, lemonbar, xmobar, yambar, conky and tmux show our line, survive hostile titles, open what a click is on|scripts/suites/bar-hosts.sh"
    "feed parser conformance (gofeed corpus)|scripts/conformance.sh"
    "feed parser conformance (real-world corpus vs python3-feedparser)|scripts/conformance-realworld.sh"
    "ThreadSanitizer over the host, timeline and notification tests (make tsan)|make --no-print-directory tsan"
    "hostile world (faults, crashes, fuzzing, memory, security)|scripts/hostile.sh"
    "set-up (install-deps sets, a release build without warnings, make build then install, make demo)|scripts/suites/setup.sh"
    "packaging (make install, .deb, man, desktop file, systemd unit)|scripts/suites/packaging.sh"
)
# -----------------------------------------------------------------------------------------------

passed=0
failed=0
failed_names=()
notrun=0
notrun_names=()
# Each report says how long its step took since the last one, so a run that nears CI's time
# shows which suite grew.
step_start=$SECONDS
report() { # name status (77: the suite's data is outside the repository and absent: not run)
    local took="($((SECONDS - step_start)) s)"
    step_start=$SECONDS
    if [ "$2" -eq 0 ]; then
        echo "PASS: $1 $took"; passed=$((passed + 1))
    elif [ "$2" -eq 77 ]; then
        echo "NOT RUN: $1 $took"; notrun=$((notrun + 1)); notrun_names+=("$1")
    else
        echo "FAIL: $1 $took"; failed=$((failed + 1)); failed_names+=("$1")
    fi
}
finish() {
    grep -h '^background: ' "${background_log:-/dev/null}"
    [ "$failed" -eq 0 ] || echo "failed suites: ${failed_names[*]}"
    [ "$notrun" -eq 0 ] || echo "suites not run (their data is absent on this machine): ${notrun_names[*]}"
    echo "suites: $passed passed, $failed failed, $notrun not run ($((SECONDS / 60)) min in all)"
    [ "$failed" -eq 0 ]
    exit $?
}

echo "== build (debug, with tests)"
if ! swift build --build-tests; then
    report "build" 1
    finish
fi
echo "build: $((SECONDS - step_start)) s"
step_start=$SECONDS

# Three suites need configurations of their own, minutes of CPU each: ThreadSanitizer's (make
# tsan-build), libFuzzer's (scripts/fuzz.sh --build) and the release programs (make build, in its
# own build folder). The unit tests and most suites spend their time waiting on processes and
# timers, so the builds run beside them, one after the other, at the lowest CPU priority. Each
# suite still runs its own build step, which finds the work done, waits on the build's lock while
# it finishes, or builds again what failed and shows the error. The set-up suite checks the release
# build's output for warnings (RELEASE_BUILD_LOG): what it compiled is not compiled again there.
log=$(mktemp)
background_log=$(mktemp)
RELEASE_BUILD_LOG=$(mktemp)
export RELEASE_BUILD_LOG
setsid nice -n 19 bash -c '
    exec 3>&1
    step() { start=$SECONDS; "$@"; echo "background: $*: status $?, $((SECONDS - start)) s" >&3; }
    step make --no-print-directory tsan-build
    step scripts/fuzz.sh --build
    step make --no-print-directory build >"$RELEASE_BUILD_LOG" 2>&1' >"$background_log" 2>&1 &
background=$!
trap 'kill -- -"$background" 2>/dev/null; rm -f "$log" "$background_log" "$RELEASE_BUILD_LOG"' EXIT

echo "== suite: unit tests (swift test)"
# Each test in a process of its own, four at a time: the tests share no file, port or process
# (each makes its own temporary folders and loopback servers), and most of their time is spent
# waiting on the processes and timers they start. The parallel runner prints a failing test's
# output; `swift test --skip-build` alone prints every test and its time.
swift test --skip-build --parallel --num-workers 4 2>&1 | tee "$log"
unit=${PIPESTATUS[0]}
# A runner that passes having run nothing is a failure here: the package has tests.
if [ "$unit" -eq 0 ] && ! grep -Eq 'Executed [1-9][0-9]* tests?|Test run with [1-9][0-9]* tests?|^\[[0-9]+/[1-9][0-9]*\] Testing ' "$log"; then
    echo "swift test ran no test."
    unit=1
fi
report "unit tests (swift test)" "$unit"

HEADLINES_BIN=$(swift build --show-bin-path)
export HEADLINES_BIN
for entry in "${INTEGRATION_SUITES[@]}"; do
    name=${entry%%|*}
    command=${entry#*|}
    echo "== suite: $name"
    bash -c "$command"
    report "$name" $?
done

finish
