#!/usr/bin/env bash
# Do Not Disturb, quiet hours and a digest updated in place, with real components: a private D-Bus session, Xvfb, the real
# dunst paused and resumed with dunstctl, dbus-monitor counting the Notify calls; quiet hours on a
# host whose clock faketime sets. Prints one line per check; exits non-zero on the first failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh

suite_dir notify-quiet
session_start "$WORK/session"
# Low-urgency notifications (all of ours) stay until closed, so a digest is surely still on screen
# when the next reload updates it.
printf '[urgency_low]\n    ignore_timeout = yes\n    timeout = 0\n' >>"$SESSION_DIR/dunstrc"
dunst_stop
dunst_start

ARTICLES=$WORK/articles.json
python3 "$LIB/articles.py" "$ARTICLES" 10
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
news_config "$WORK/headlines.conf" 'provider = apitube' 'page-size = 50' '[refresh]' 'interval = 1h' 'daily-budget = 200' '[notify]' 'max-per-refresh = 3'
export APITUBE_API_KEY=suite-key-not-secret-5012
HOST_LOG=$WORK/host.log

calls() { python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log"; }
call_count() { calls | wc -l; }
logged() { grep -c -F -- "$1" "$HOST_LOG"; }
start_host() { # [PROGRAM ARGUMENTS...]: what runs the host (faketime)
    local started; touch "$HOST_LOG"; started=$(logged "host started (pid")
    "$@" "$BIN" --config "$WORK/headlines.conf" run >>"$HOST_LOG" 2>&1 &
    HOST_PID=$!
    PIDS+=("$HOST_PID")
    wait_for "the host to start" 20 bash -c "[ \$(grep -c -F 'host started (pid' '$HOST_LOG') -gt $started ]" \
        || die "the host did not start: $(tail -n 5 "$HOST_LOG")"
}
stop_host() { kill -TERM "$HOST_PID"; wait "$HOST_PID"; }
held_line() { TZ=UTC "$BIN" --config "$WORK/headlines.conf" status | grep '^Held back:'; }
reload_until_logged() { # TEXT: one more reload, and the host's log line about its notifications
    local before; before=$(logged "$1")
    "$BIN" --config "$WORK/headlines.conf" refresh >/dev/null || die "refresh failed"
    wait_for "the host to log '$1'" 10 bash -c "[ \$(grep -c -F -- '$1' '$HOST_LOG') -gt $before ]" \
        || die "the host did not log '$1': $(tail -n 5 "$HOST_LOG")"
}

echo "dunst paused during two reloads that bring 5 new headlines: nothing is posted"
start_host
wait_for "the first run's notification" 10 bash -c "[ \$(python3 '$LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | wc -l) -ge 1 ]" \
    || die "the first run posted nothing"
dunstctl set-paused true
[ "$(dunstctl is-paused)" = true ] || die "dunst did not pause"
before=$(call_count)
python3 "$LIB/articles.py" "$ARTICLES" 10 "Paused two" "Paused one"
reload_until_logged "Do Not Disturb: holding 2 new headlines"
python3 "$LIB/articles.py" "$ARTICLES" 10 "Paused five" "Paused four" "Paused three" "Paused two" "Paused one"
reload_until_logged "Do Not Disturb: holding 5 new headlines"
n=$(( $(call_count) - before )); [ "$n" -eq 0 ] || die "$n Notify call(s) while dunst was paused"
line=$(held_line)
[ "$line" = "Held back:     5 new headlines while Do Not Disturb is on, summarised when it ends" ] \
    || die "status said '$line' while dunst was paused"
doctor=$("$BIN" --config "$WORK/headlines.conf" doctor)
grep -qF "Do Not Disturb is on: nothing is posted until it ends" <<<"$doctor" || die "doctor did not see dunst paused: $doctor"
grep -qF "held back: 5 new headlines while Do Not Disturb is on" <<<"$doctor" || die "doctor did not say what the host holds: $doctor"
ok "no Notify call during two paused reloads; the host holds 5, and status and doctor say so"

echo "dunst resumed: with no reload, exactly one summary naming the count"
reloads_before=$(logged "reload ok")
dunstctl set-paused false
wait_for "the host to log the end of Do Not Disturb" 5 grep -qF "Do Not Disturb has ended; summarising 5 held headlines" "$HOST_LOG" \
    || die "no summary when dunst resumed: $(tail -n 5 "$HOST_LOG")"
[ "$(logged "reload ok")" -eq "$reloads_before" ] || die "a reload ran before the summary; this check needs none"
wait_for "the summary's Notify call" 10 bash -c "[ \$(python3 '$LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | wc -l) -gt $before ]" \
    || die "no Notify call after dunst resumed"
calls | tail -n +$((before + 1)) | python3 -c '
import json, sys
got = [json.loads(l) for l in sys.stdin]
assert [c["summary"] for c in got] == ["5 new headlines while Do Not Disturb was on"], [c["summary"] for c in got]
assert got[0]["actions"][0] == "default", got[0]["actions"]
' || die "expected exactly one summary of the 5 held headlines"
reload_until_logged "next reload at"
n=$(( $(call_count) - before )); [ "$n" -eq 1 ] || die "$n Notify calls after the resume, expected the one summary"
held_line && die "status still says something is held: $(held_line)"
"$BIN" --config "$WORK/headlines.conf" doctor | grep -q "Do Not Disturb" && die "doctor still says Do Not Disturb after dunst resumed"
ok "one Notify call: '5 new headlines while Do Not Disturb was on', clickable; none more after; status holds nothing"

echo "30 new from one source with max-per-refresh 3: three and one digest; 5 more update that digest"
dunstctl close-all
open_count() { echo $(( $(dunstctl count displayed) + $(dunstctl count waiting) )); }
wait_for "dunst to close everything" 5 bash -c '[ $(( $(dunstctl count displayed) + $(dunstctl count waiting) )) -eq 0 ]' || die "dunst kept notifications open"
# flood NEWEST DIGESTS-LOGGED PYTHON-ASSERTIONS: "Flood NEWEST" .. "Flood 1" on the news server,
# one reload, and its four Notify calls (three headlines, a digest) as `got`.
flood() {
    local before; before=$(call_count)
    mapfile -t titles < <(seq -f 'Flood %g' "$1" -1 1)
    python3 "$LIB/articles.py" "$ARTICLES" 10 "${titles[@]}"
    reload_until_logged "notifying 3 new headlines and 1 digest of $2 more"
    wait_for "4 Notify calls" 10 bash -c "[ \$(python3 '$LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | wc -l) -ge $((before + 4)) ]" \
        || die "expected 4 Notify calls after $2 went into a digest"
    calls | tail -n +$((before + 1)) | python3 -c "
import json, sys
got = [json.loads(l) for l in sys.stdin]
$3" || die "the Notify calls of a reload that brought Flood $1 are not as expected"
}
flood 30 27 '
assert [c["summary"] for c in got] == ["Flood 28", "Flood 29", "Flood 30", "extra.example.com: 27 new"], [c["summary"] for c in got]
assert got[3]["body"] == "Flood 27, and 26 more" and got[3]["replaces_id"] == 0, got[3]'
[ "$(open_count)" -eq 4 ] || die "dunst holds $(open_count) notifications, expected 4"
flood 35 2 '
assert [c["summary"] for c in got] == ["Flood 33", "Flood 34", "Flood 35", "extra.example.com: 29 new"], [c["summary"] for c in got]
assert got[3]["body"] == "Flood 32, and 28 more" and got[3]["replaces_id"] != 0, got[3]'
wait_for "dunst to show 7 notifications" 5 bash -c '[ $(( $(dunstctl count displayed) + $(dunstctl count waiting) )) -eq 7 ]' \
    || die "dunst holds $(open_count) notifications, expected 7: the digest was added, not replaced"
ok "3 + a digest of 27, then 3 + the same digest (replaces_id set) now counting 29; dunst holds 7, not 8"

# one_summary_then_stop_server SUMMARY WHAT: the test server got exactly one Notify call, SUMMARY,
# once WHAT happened; then it is stopped and its name released.
one_summary_then_stop_server() {
    wait_for "the summary's Notify call" 10 test -s "$SERVER_CALLS" || die "no Notify call after $2"
    python3 -c '
import json, sys
got = [json.loads(l)["summary"] for l in open(sys.argv[1])]
assert got == [sys.argv[2]], got
' "$SERVER_CALLS" "$1" || die "the server got: $(cat "$SERVER_CALLS")"
    kill "$SERVER_PID"
    wait_for "the test server to release its name" 5 eval '! notifications_owned' || die "the test server kept its name"
}

echo "a server with the Inhibited property (spec 1.2, as KDE Plasma and swaync have): nothing while it is true, one summary after"
# Debian's python3-gi is for Debian's python3, whatever python3 comes first on PATH.
/usr/bin/python3 -c 'import gi; gi.require_version("Gio", "2.0")' 2>/dev/null || die "python3-gi is missing: run scripts/install-deps.sh --test"
dunst_stop
INHIBITED=$WORK/inhibited
SERVER_CALLS=$WORK/server-calls.jsonl
echo true >"$INHIBITED"
echo "actions body" >"$WORK/caps"
: >"$SERVER_CALLS"
/usr/bin/python3 "$LIB/notification_server.py" "$WORK/caps" "$SERVER_CALLS" "$INHIBITED" >"$WORK/inhibited-server.log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
wait_for "the test server to own org.freedesktop.Notifications" 10 notifications_owned || die "the test server did not start: $(cat "$WORK/inhibited-server.log")"
python3 "$LIB/articles.py" "$ARTICLES" 10 "Inhibited two" "Inhibited one"
reload_until_logged "Do Not Disturb: holding 2 new headlines"
[ -s "$SERVER_CALLS" ] && die "Notify was called while the server said Inhibited: $(cat "$SERVER_CALLS")"
echo false >"$INHIBITED"
reload_until_logged "Do Not Disturb has ended; summarising 2 held headlines"
one_summary_then_stop_server "2 new headlines while Do Not Disturb was on" "Inhibited went false"
ok "no Notify call while Inhibited was true; then exactly one: '2 new headlines while Do Not Disturb was on'"

echo "GNOME Shell with show-banners off (GSettings, here its keyfile backend): nothing, then one summary"
stop_host
export GSETTINGS_BACKEND=keyfile
gsettings set org.gnome.desktop.notifications show-banners false || die "gsettings could not set show-banners"
: >"$SERVER_CALLS"
/usr/bin/python3 "$LIB/notification_server.py" "$WORK/caps" "$SERVER_CALLS" "" gnome-shell >"$WORK/gnome-server.log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
wait_for "the test server to own org.freedesktop.Notifications" 10 notifications_owned || die "the test server did not start: $(cat "$WORK/gnome-server.log")"
start_host
python3 "$LIB/articles.py" "$ARTICLES" 10 "Banners off three" "Banners off two" "Banners off one" "Inhibited two" "Inhibited one"
reload_until_logged "Do Not Disturb: holding 3 new headlines"
[ -s "$SERVER_CALLS" ] && die "Notify was called while show-banners was off: $(cat "$SERVER_CALLS")"
gsettings set org.gnome.desktop.notifications show-banners true
reload_until_logged "Do Not Disturb has ended; summarising 3 held headlines"
one_summary_then_stop_server "3 new headlines while Do Not Disturb was on" "show-banners went back on"
unset GSETTINGS_BACKEND
dunst_start
ok "no Notify call while show-banners was false; then exactly one: '3 new headlines while Do Not Disturb was on'"
stop_host
dunstctl close-all

command -v faketime >/dev/null || die "faketime is not installed: scripts/install-deps.sh --test installs it"
echo "quiet hours by the host's clock (faketime): nothing posted inside, one summary after"
rm -rf "$XDG_STATE_HOME/headlines" "$XDG_CACHE_HOME/headlines"
printf '%s\n' 'quiet-hours = 06:00-07:00' >>"$WORK/headlines.conf"
python3 "$LIB/articles.py" "$ARTICLES" 10
: >"$HOST_LOG"
before=$(call_count)
# The host's wall clock starts at 06:59:30 UTC and runs at the normal pace; its timers keep the
# real monotonic clock.
started=$(date +%s)
TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 start_host faketime -f '@2026-12-07 06:59:30'
wait_for "the first run to be held" 10 grep -q "holding 1 new headline" "$HOST_LOG" || die "the first run was not held: $(tail -n 3 "$HOST_LOG")"
python3 "$LIB/articles.py" "$ARTICLES" 10 "Quiet two" "Quiet one"
reload_until_logged "holding 3 new headlines"
n=$(( $(call_count) - before )); [ "$n" -eq 0 ] || die "$n Notify call(s) during quiet hours"
line=$(held_line)
[ "$line" = "Held back:     3 new headlines during quiet hours, summarised at the first reload after 2026-12-07 07:00:00 +0000" ] \
    || die "status said '$line' during quiet hours"
ok "no Notify call during quiet hours; the host holds 3, and status says until when"
# The host's clock reads 07:00 thirty seconds after it started.
sleep $(( started + 32 - $(date +%s) ))
reload_until_logged "quiet hours are over; summarising 3 held headlines"
wait_for "the summary's Notify call" 10 bash -c "[ \$(python3 '$LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | wc -l) -gt $before ]" \
    || die "no Notify call after quiet hours"
calls | tail -n +$((before + 1)) | python3 -c '
import json, sys
got = [json.loads(l)["summary"] for l in sys.stdin]
assert got == ["3 new headlines during quiet hours"], got
' || die "expected exactly one summary of the 3 held headlines"
ok "after 07:00 one Notify call: '3 new headlines during quiet hours'"
stop_host
echo "notify-quiet: all checks passed"
