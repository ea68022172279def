#!/usr/bin/env bash
# The daily budget holds however often the host dies (moved here from the XCTest
# BudgetAcrossCrashesTests, whose real processes made `swift test` too slow): every attempt is in
# the ledger before the request goes out, and a restart reads it. With a 2 s interval (a reload
# every 2 s if nothing held it back) and a budget of 5, the budget paces the reloads to one every
# 4 h 48 min. A host SIGKILLed one second after the server saw its request, a second one killed
# after two intervals, then a third must cost exactly 1 request; the third must plan its next
# reload 4 h 48 min after the first and make none in the next three intervals, and `status` must
# count 1 and say the budget paces the reloads, with the host running and after it stopped.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh
for tool in python3 timeout; do command -v "$tool" >/dev/null || die "$tool is missing: install it (scripts/install-deps.sh)."; done
[ -x "$BIN" ] || die "$BIN is not built: run swift build first."

suite_dir budget
isolated_home "$WORK"
export TZ=UTC APITUBE_API_KEY=suite-key-budget-7781
# A session bus (with nothing to activate): `status` asks the running host there for its plan.
private_bus_start "$WORK/bus"
python3 "$LIB/articles.py" "$WORK/articles.json" 6
start_news_server "$WORK/requests.log" --articles "$WORK/articles.json"
news_config "$WORK/headlines.conf" 'provider = apitube' 'timeout = 10s' '[refresh]' 'interval = 2s' 'daily-budget = 5'
requests() { grep -c '^/v1/news/top-headlines' "$WORK/requests.log"; }
more_requests_than() { [ "$(requests)" -gt "$1" ]; }
start_host() { # LOG
    "$BIN" --config "$WORK/headlines.conf" run >"$1" 2>&1 &
    HOST=$!; PIDS+=($HOST)
    wait_for "host started" 5 grep -q "host started" "$1" || { cat "$1"; die "the host did not start"; }
}
status_count() { "$BIN" --config "$WORK/headlines.conf" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["reloads_last_24h"])'; }

first_start=$(date +%s)
start_host "$WORK/host1.log"
wait_for "the first host's request" 5 more_requests_than 0 || { cat "$WORK/host1.log"; die "the first host made no request"; }
grep -q "the budget paces the reloads" "$WORK/host1.log" || { cat "$WORK/host1.log"; die "the host did not say at start that the budget paces the reloads"; }
sleep 1
kill -9 "$HOST"; wait "$HOST" 2>/dev/null; st=$?
[ "$st" -eq 137 ] || { cat "$WORK/host1.log"; die "the first host should have died of SIGKILL (status $st)"; }
start_host "$WORK/host2.log"
sleep 4 # two intervals: a restart that forgot the pacing would have reloaded by now
kill -9 "$HOST"; wait "$HOST" 2>/dev/null
n=$(requests)
[ "$n" -eq 1 ] || { cat "$WORK/host2.log"; die "a host restarted after a crash made $((n - 1)) request(s) within two intervals; the budget paces them to one every 4h48m"; }
echo "  ok: two hosts SIGKILLed cost 1 request in all"
start_host "$WORK/host3.log"
next_reload() { "$BIN" --config "$WORK/headlines.conf" status --json | python3 -c '
import json, sys
from datetime import datetime
print(int(datetime.fromisoformat(json.load(sys.stdin)["next_reload"].replace("Z", "+00:00")).timestamp()))'; }
wait_for "the third host to publish its plan" 5 next_reload || { cat "$WORK/host3.log"; die "the third host published no next reload"; }
planned=$(next_reload)
[ -n "$planned" ] && [ "$planned" -ge $(( first_start + 17280 - 60 )) ] && [ "$planned" -le $(( first_start + 17280 + 60 )) ] \
    || { cat "$WORK/host3.log"; die "the paced host plans its next reload $(( ${planned:-0} - first_start )) s after the first request, not 4h48m (17280 s)"; }
sleep 6 # three intervals
n=$(requests)
[ "$n" -eq 1 ] || { cat "$WORK/host3.log"; die "the server saw $n requests, expected still 1"; }
kill -0 "$HOST" 2>/dev/null || { cat "$WORK/host3.log"; die "the last host should still run"; }
[ "$(status_count)" = 1 ] || die "status counts $(status_count) reloads in the last 24 hours with the host running, expected 1"
"$BIN" --config "$WORK/headlines.conf" status | grep -q "^Pacing: .*the budget paces the reloads" \
    || { "$BIN" --config "$WORK/headlines.conf" status; die "status does not say that the budget paces the reloads"; }
echo "  ok: exactly 1 request across two crashes and a restart; the next planned 4h48m after the first, none in the next 3 intervals; status counts 1 and names the pacing"
kill -TERM "$HOST"; wait "$HOST" 2>/dev/null
n=$(requests)
[ "$n" -eq 1 ] || die "stopping the host cost a request ($n in all)"
[ "$(status_count)" = 1 ] || die "status with no host running counts $(status_count), expected 1"
echo "  ok: stopping the host cost no request; status still counts 1"
echo "budget-crashes: ok"
