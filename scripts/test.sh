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
# Run in order after the unit tests. One entry per suite: "layer|name|command" (the command runs
# from the repository root with HEADLINES_BIN set to the folder of the debug binaries). The layer
# says what kind of test it is, and the run ends with one line per layer and its time:
#   checks     fast checks of the binaries and the sources, needing nothing installed (also `make check`)
#   desktop    our programs beside the real notification servers, bars and session bus
#   reference  the feed parser beside other parsers, over corpora
#   sanitizers ThreadSanitizer, libFuzzer, valgrind, crashes and the sandbox
#   packaging  install-deps, make build/install/demo, the .deb
# ThreadSanitizer comes late so that its build, started beside the unit tests (see below), is done by then.
INTEGRATION_SUITES=(
    "checks|native stack (libcurl, libxml2, no Foundation or ICU)|scripts/suites/stack.sh"
    "desktop|cli demo|scripts/suites/demo.sh"
    "desktop|daily budget across host crashes (real processes)|scripts/suites/budget-crashes.sh"
    "desktop|notifications (dbus, Xvfb, dunst)|scripts/suites/notifications.sh"
    "desktop|Do Not Disturb (dunst paused) and quiet hours (faketime): nothing posted, one summary after|scripts/suites/notify-quiet.sh"
    "desktop|notification servers: dunst, mako (headless sway), xfce4-notifyd; images and default actions|scripts/suites/notify-servers.sh"
    "desktop|headlines doctor and a real click on dunst; a server without actions gets the link|scripts/suites/doctor-and-click.sh"
    "desktop|a click that opens nothing sends a notification saying what to install or set|scripts/suites/failed-click.sh"
    "desktop|a Hacker News headline's Comments action under dunst opens the discussion|scripts/suites/comments.sh"
    "desktop|headlines-bar, the static bar program, against a fake host|scripts/suites/bar-binary.sh"
    "desktop|the host on a private session bus: activation, introspection, signals, one owner|scripts/suites/bus.sh"
    "desktop|bars (i3blocks, waybar copies, take-over, lifecycle)|scripts/suites/bars.sh"
    "desktop|waybar under headless sway, two outputs|scripts/suites/bars-sway.sh"
    "desktop|swaybar reading headlines-bar i3bar under headless sway|scripts/suites/i3bar-sway.sh"
    "desktop|several widgets: waybar --widget modules under headless sway, i3blocks instance= blocks|scripts/suites/widgets-sway.sh"
    "desktop|bar hosts: the real polybar, lemonbar, xmobar, yambar, conky and tmux show our line, survive hostile titles, open what a click is on|scripts/suites/bar-hosts.sh"
    "desktop|GNOME Shell 43 (headless): the extension shows the host's headline, follows Next and the wheel, opens what a click is on, shows a hostile title as text|scripts/suites/gnome-shell.sh"
    "desktop|the Plasma applet in the real plasmawindowed: the host's headline, the wheel, a click, the list, hostile titles as text|scripts/suites/plasma.sh"
    "reference|feed parser conformance (gofeed corpus)|scripts/conformance.sh"
    "reference|feed parser conformance (real-world corpus vs python3-feedparser)|scripts/conformance-realworld.sh"
    "sanitizers|ThreadSanitizer over the host, timeline and notification tests (make tsan)|make --no-print-directory tsan"
    "sanitizers|libFuzzer over the parsers, 10 s a target|scripts/fuzz.sh"
    "sanitizers|hostile world (crashes, memory, a full disk, the sandbox)|scripts/hostile.sh"
    "packaging|set-up (install-deps sets, a release build without warnings, make build then install, make demo)|scripts/suites/setup.sh"
    "packaging|packaging (make install, .deb, man, desktop file, systemd unit)|scripts/suites/packaging.sh"
)
LAYERS=(swift checks desktop reference sanitizers packaging)
# -----------------------------------------------------------------------------------------------

# --check (`make check`): the contributor's inner loop. The build, the unit tests and the "checks"
# layer only: no root, no package beyond the toolchain and the build's libraries, no background
# builds. Tests that need a program the machine lacks (a session bus, a notification server) are
# reported as skipped by the test runner, with the reason.
check_only=0
[ "${1:-}" = --check ] && check_only=1

passed=0
failed=0
failed_names=()
notrun=0
notrun_names=()
# Each report says how long its step took, so a run that nears CI's time shows which suite grew.
step_start=$SECONDS
declare -A layer_seconds=()
report() { # layer name status [seconds] (status 77: the suite's data is outside the repository and absent: not run)
    local layer=$1 name=$2 status=$3 seconds=${4:-$((SECONDS - step_start))}
    step_start=$SECONDS
    layer_seconds[$layer]=$(( ${layer_seconds[$layer]:-0} + seconds ))
    if [ "$status" -eq 0 ]; then
        echo "PASS: $name ($seconds s)"; passed=$((passed + 1))
    elif [ "$status" -eq 77 ]; then
        echo "NOT RUN: $name ($seconds s)"; notrun=$((notrun + 1)); notrun_names+=("$name")
    else
        echo "FAIL: $name ($seconds s)"; failed=$((failed + 1)); failed_names+=("$name")
    fi
}
finish() {
    grep -h '^background: ' "${background_log:-/dev/null}"
    for layer in "${LAYERS[@]}"; do
        [ -n "${layer_seconds[$layer]:-}" ] && echo "layer $layer: ${layer_seconds[$layer]} s"
    done
    [ "$failed" -eq 0 ] || echo "failed suites: ${failed_names[*]}"
    [ "$notrun" -eq 0 ] || echo "suites not run (their data is absent on this machine): ${notrun_names[*]}"
    echo "suites: $passed passed, $failed failed, $notrun not run ($((SECONDS / 60)) min $((SECONDS % 60)) s in all)"
    [ "$failed" -eq 0 ]
    exit $?
}

echo "== build (debug, with tests)"
if ! swift build --build-tests; then
    report swift "build" 1
    finish
fi
echo "build: $((SECONDS - step_start)) s"
layer_seconds[swift]=$((SECONDS - step_start))
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
lane_dir=$(mktemp -d)
groups=() # process groups to end on exit: the background builds, the second lane
cleanup() {
    for group in "${groups[@]}"; do kill -- -"$group" 2>/dev/null; done
    rm -rf "$log" "$background_log" "$RELEASE_BUILD_LOG" "$lane_dir"
}
trap cleanup EXIT
if [ "$check_only" -eq 0 ]; then
    setsid nice -n 19 bash -c '
        exec 3>&1
        step() { start=$SECONDS; "$@"; echo "background: $*: status $?, $((SECONDS - start)) s" >&3; }
        step make --no-print-directory tsan-build
        step scripts/fuzz.sh --build
        step make --no-print-directory build >"$RELEASE_BUILD_LOG" 2>&1' >"$background_log" 2>&1 &
    groups+=($!)
fi

echo "== suite: unit tests (swift test)"
# The parallel runner does not list skipped tests, so the programs whose absence makes tests skip
# are named here.
[ -x /usr/bin/dbus-daemon ] || echo "not installed: dbus-daemon; the tests that start a host on a private session bus are skipped (make test installs it)"
[ -x /usr/bin/time ] || echo "not installed: GNU time; the test of the reload child's peak memory is skipped (make test installs it)"
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
report swift "unit tests (swift test)" "$unit"

HEADLINES_BIN=$(swift build --show-bin-path)
export HEADLINES_BIN

# Two lanes after the unit tests and the quick checks. The desktop suites run one after the other
# in this shell, their output shown as it comes: each holds a display, a bus and bars whose timing a
# second desktop beside it would only blur. The other layers (the reference corpora, the
# sanitizers, packaging) run at the same time in a second lane, at the lowest CPU priority, each
# suite's output kept in a file and shown whole once the desktop lane is done. A suite in either
# lane waits for the build it needs, as before.
declare -a desktop_lane=() other_lane=()
for entry in "${INTEGRATION_SUITES[@]}"; do
    IFS='|' read -r layer name command <<<"$entry"
    if [ "$layer" = checks ]; then
        echo "== suite: $name"
        bash -c "$command"
        report "$layer" "$name" $?
    elif [ "$check_only" -eq 0 ]; then
        if [ "$layer" = desktop ]; then desktop_lane+=("$entry"); else other_lane+=("$entry"); fi
    fi
done
if [ ${#other_lane[@]} -gt 0 ]; then
    # The lane records "layer|name|status|seconds" for each suite, in order.
    setsid nice -n 19 bash -c '
        dir=$1; shift
        i=0
        for entry in "$@"; do
            IFS="|" read -r layer name command <<<"$entry"
            start=$SECONDS
            bash -c "$command" >"$dir/$i.log" 2>&1
            echo "$layer|$name|$?|$((SECONDS - start))" >>"$dir/results"
            i=$((i + 1))
        done' lane "$lane_dir" "${other_lane[@]}" &
    other=$!
    groups+=("$other")
fi
for entry in "${desktop_lane[@]}"; do
    IFS='|' read -r layer name command <<<"$entry"
    echo "== suite: $name"
    bash -c "$command"
    report "$layer" "$name" $?
done
if [ ${#other_lane[@]} -gt 0 ]; then
    echo "== waiting for the second lane (${#other_lane[@]} suites)"
    wait "$other"
    i=0
    while IFS='|' read -r layer name status seconds; do
        echo "== suite (second lane): $name"
        cat "$lane_dir/$i.log"
        report "$layer" "$name" "$status" "$seconds"
        i=$((i + 1))
    done <"$lane_dir/results"
    [ "$i" -eq ${#other_lane[@]} ] || report sanitizers "the second lane (it stopped after $i of ${#other_lane[@]} suites)" 1 0
fi
finish
