#!/usr/bin/env bash
# The host on a private session bus, started by D-Bus activation from the packaged service file:
# introspection shows org.headlines.Headlines1; `headlines refresh` with no host running starts
# the host and its reload reaches the local news server; HeadlinesChanged is seen on the bus;
# Next moves the entry on display; a second host exits at once, naming the owner's PID.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh
for tool in python3 timeout dbus-daemon gdbus; do command -v "$tool" >/dev/null || die "$tool is missing: install it (scripts/install-deps.sh)."; done
[ -x "$BIN" ] || die "$BIN is not built: run swift build first."

suite_dir bus
isolated_home "$WORK"
export TZ=UTC APITUBE_API_KEY=suite-key-bus-5521
python3 "$LIB/articles.py" "$WORK/articles.json" 6
start_news_server "$WORK/requests.log" --articles "$WORK/articles.json"
news_config "$WORK/headlines.conf" 'provider = apitube' 'timeout = 10s' '[refresh]' 'interval = 1h' 'daily-budget = 20' '[notify]' 'enabled = false'
requests() { grep -c '^/v1/news/top-headlines' "$WORK/requests.log"; }

# The installed service file, its Exec= pointed at this build and this config.
mkdir -p "$WORK/services"
sed "s|^Exec=.*|Exec=$BIN --config $WORK/headlines.conf run|" packaging/dbus/org.headlines.Headlines.service \
    > "$WORK/services/org.headlines.Headlines.service"
grep -q '^SystemdService=headlines.service$' "$WORK/services/org.headlines.Headlines.service" || die "the service file names no SystemdService="
private_bus_start "$WORK/bus" "$WORK/services"
# What the bus activated, before the bus itself.
EXIT_HOOKS+=('pkill -TERM -P "$BUS_PID"')
call() { gdbus call --session --dest org.headlines.Headlines --object-path /org/headlines/Headlines --method "org.headlines.Headlines1.$@"; }

# dbus-monitor, not `gdbus monitor --dest`: that one asks for the name and so activates the host.
dbus-monitor --session "type='signal',interface='org.headlines.Headlines1'" >"$WORK/monitor.log" 2>&1 &
PIDS+=($!)
wait_for "dbus-monitor to listen" 5 grep -q NameAcquired "$WORK/monitor.log" || sleep 0.5

gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner \
    org.headlines.Headlines | grep -q false || die "a host owns the name before anything asked for one"
timeout 30 "$BIN" --config "$WORK/headlines.conf" refresh >"$WORK/refresh.out" 2>&1 || { cat "$WORK/refresh.out"; die "headlines refresh failed"; }
grep -q '^Reloaded by the host (pid [0-9]*)' "$WORK/refresh.out" || { cat "$WORK/refresh.out"; die "refresh did not report the host's reload"; }
HOST=$(sed -n 's/^Reloaded by the host (pid \([0-9]*\)).*/\1/p' "$WORK/refresh.out")
kill -0 "$HOST" 2>/dev/null || die "no host was activated"
[ "$(requests)" -ge 1 ] || die "the activated host's reload never reached the local server"
echo "  ok: refresh with no host activated one (pid $HOST) and its reload reached the server"

gdbus introspect --session --dest org.headlines.Headlines --object-path /org/headlines/Headlines >"$WORK/introspect.out" \
    || die "introspection failed"
for member in "interface org.headlines.Headlines1" "Reload(" "Next(" "GetStatus(" "HeadlinesChanged(s widget)" "ReloadFinished(s widget,"; do
    grep -qF "$member" "$WORK/introspect.out" || { cat "$WORK/introspect.out"; die "introspection shows no $member"; }
done
echo "  ok: introspection shows org.headlines.Headlines1"

wait_for "HeadlinesChanged on the bus" 5 grep -q 'member=HeadlinesChanged$' "$WORK/monitor.log" \
    || { cat "$WORK/monitor.log"; die "no HeadlinesChanged signal was seen"; }
grep -A2 'member=ReloadFinished' "$WORK/monitor.log" | grep -q 'string "reloaded: 6 headlines"' \
    || { cat "$WORK/monitor.log"; die "no ReloadFinished signal with the result was seen"; }
echo "  ok: HeadlinesChanged and ReloadFinished were signalled"

[ "$(call ListWidgets)" = "([''],)" ] || die "ListWidgets: $(call ListWidgets)"
before=$(call GetEntry '')
call Next '' 2 >/dev/null || die "Next failed"
after=$(call GetEntry '')
[ "${before%%,*}" = "(0" ] && [ "${after%%,*}" = "(2" ] || die "Next 2 should move the entry from 0 to 2: $before then $after"
wait_for "EntryChanged" 5 grep -q 'member=EntryChanged' "$WORK/monitor.log" || die "no EntryChanged for Next"
call GetStatus '' | grep -q "'pid': <$HOST>" || die "GetStatus does not name the host's PID: $(call GetStatus '')"
echo "  ok: Next moved the entry on display, EntryChanged said so, GetStatus names the host"

"$BIN" --config "$WORK/headlines.conf" next 3 || die "headlines next 3 failed"
[ "$(call GetEntry '' | cut -d, -f1)" = "(5" ] || die "headlines next 3 should move the entry from 2 to 5: $(call GetEntry '')"
"$BIN" --config "$WORK/headlines.conf" prev || die "headlines prev failed"
[ "$(call GetEntry '' | cut -d, -f1)" = "(4" ] || die "headlines prev should move the entry from 5 to 4: $(call GetEntry '')"
source=$(call GetEntry '' | sed "s/^([0-9]*, '[^']*', '\([^']*\)'.*/\1/")
"$BIN" --config "$WORK/headlines.conf" mute "$source" >/dev/null || die "headlines mute failed"
call GetHeadlines '' | grep -qF "'$source'" && die "the host still shows $source after headlines mute: $(call GetHeadlines '')"
grep -qF "\"$source\"" "$WORK/state/headlines/muted.json" 2>/dev/null || grep -rqF "$source" "$WORK/state" || die "the host did not save the mute"
"$BIN" --config "$WORK/headlines.conf" unmute "$source" >/dev/null || die "headlines unmute failed"
# The host lays the headlines out again on the loop as the call returns: a moment, not a reload.
shows_source() { call GetHeadlines '' | grep -qF "'$source'"; }
wait_for "the host to show $source again" 3 shows_source || die "the host does not show $source again after unmute"
echo "  ok: headlines next 3, prev, mute and unmute reach the host over the bus"

six_shown() { [ "$(call GetHeadlines '' | grep -o "'https://[^']*'" | wc -l)" -eq 6 ]; }
wait_for "the host to show all 6 headlines again" 3 six_shown || die "after unmute the host shows: $(call GetHeadlines '')"
/usr/bin/python3 packaging/dbus/examples/follow-headlines >"$WORK/follow.out" 2>&1 &
FOLLOW=$!; PIDS+=($FOLLOW)
wait_for "the example client's first lines" 10 bash -c "[ \$(wc -l < '$WORK/follow.out') -ge 6 ]" \
    || { cat "$WORK/follow.out"; die "follow-headlines did not print the 6 headlines"; }
python3 "$LIB/articles.py" "$WORK/articles.json" 6 "Arrived over the bus"
call Reload '' >/dev/null || die "Reload failed"
wait_for "the new headline from the example client" 10 grep -q "^Arrived over the bus" "$WORK/follow.out" \
    || { cat "$WORK/follow.out"; die "follow-headlines did not print the new headline"; }
[ "$(grep -c . "$WORK/follow.out")" -eq "$(sort -u "$WORK/follow.out" | grep -c .)" ] || die "follow-headlines printed a headline twice"
kill "$FOLLOW"
echo "  ok: packaging/dbus/examples/follow-headlines printed the headlines, then the new one once, on HeadlinesChanged"

timeout 10 "$BIN" --config "$WORK/headlines.conf" run >"$WORK/second.log" 2>&1; st=$?
[ "$st" -ne 124 ] || die "a second host did not exit at once"
grep -q "another host (pid $HOST) owns org.headlines.Headlines" "$WORK/second.log" || { cat "$WORK/second.log"; die "the second host did not name the owner"; }
echo "  ok: a second host exits at once, naming pid $HOST"
echo "bus: all passed"
