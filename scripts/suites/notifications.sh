#!/usr/bin/env bash
# With real components: a private D-Bus session, Xvfb, dunst, dbus-monitor,
# a loopback news server and a fake browser. Prints one line per check; exits non-zero on the
# first failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh

suite_dir notify
session_start "$WORK/session"

ARTICLES=$WORK/articles.json
python3 "$LIB/articles.py" "$ARTICLES" 10
start_news_server "$WORK/requests.log" --articles "$ARTICLES"

news_config "$WORK/headlines.conf" 'provider = apitube' '[refresh]' 'interval = 1h' 'daily-budget = 200' '[notify]' 'max-per-refresh = 3'
export APITUBE_API_KEY=suite-key-not-secret-7781
HOST_LOG=$WORK/host.log

calls() { python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log"; }
call_count() { calls | wc -l; }
start_host() {
    "$BIN" --config "$WORK/headlines.conf" run >>"$HOST_LOG" 2>&1 &
    HOST_PID=$!
    PIDS+=("$HOST_PID")
    wait_for "the host to start" 10 grep -q "host started (pid $HOST_PID)" "$HOST_LOG" || die "host did not start"
}
stop_host() { kill -TERM "$HOST_PID"; wait "$HOST_PID"; }
reloads() { grep -c "reload ok" "$HOST_LOG"; }
# announced N: how many Notify calls the host said it would post after its Nth successful reload
# in HOST_LOG ("notifying 8 new headlines and 2 digests of 5 more" is ten); it says so before it
# logs the next reload, and says nothing when it posts nothing. Fails until that line is logged.
announced() {
    awk -v n="$1" '/reload ok/ { k++ } k == n && /: notifying / { c = $3; if (match($0, /and [0-9]+ digests? of/)) c += substr($0, RSTART + 4) + 0 }
        k == n && /next reload at/ { done = 1; exit } END { if (!done) exit 1; print c + 0 }' "$HOST_LOG"
}
calls_since() { [ "$(call_count)" -ge $(( $1 + $2 )) ]; } # BEFORE N
# posted_as_announced RELOAD CALLS-BEFORE: waits for the Notify calls the host announced for that
# reload (the worker posts them right after it); the checks that follow count them exactly.
posted_as_announced() {
    wait_for "the host's plan after reload $1" 10 announced "$1" || die "the host logged no next reload after reload $1"
    local n; n=$(announced "$1")
    wait_for "$n Notify call(s)" 10 calls_since "$2" "$n" || die "the host said it would post $n notification(s); the bus saw $(( $(call_count) - $2 ))"
}
refresh() {
    "$BIN" --config "$WORK/headlines.conf" refresh >/dev/null || die "refresh failed"
}
refresh_and_wait() { # one more successful reload, and the Notify calls it announced
    local before calls; before=$(reloads); calls=$(call_count)
    refresh
    wait_for "a reload" 10 bash -c "[ \$(grep -c 'reload ok' '$HOST_LOG') -gt $before ]" || die "no reload after refresh"
    posted_as_announced $((before + 1)) "$calls"
}
refresh_while_dunst_is_down() { # nothing reaches the bus then: the worker's attempt is given its time
    local before; before=$(reloads)
    refresh
    wait_for "a reload" 10 bash -c "[ \$(grep -c 'reload ok' '$HOST_LOG') -gt $before ]" || die "no reload after refresh"
    sleep 0.7 # the notification worker tries right after the reload
}

echo "first run over ten headlines posts at most one"
start_host
wait_for "the first reload" 10 grep -q "reload ok" "$HOST_LOG" || die "no first reload"
posted_as_announced 1 0
n=$(call_count); [ "$n" -eq 1 ] || die "first run posted $n notifications, expected 1"
first=$(calls | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["summary"])')
[ "$first" = "Headline 10" ] || die "first run posted '$first', expected the newest, 'Headline 10'"
ok "first run: one notification, the newest ($first)"

echo "two new headlines: exactly two Notify calls, default action, desktop-entry hint"
dunstctl close-all
python3 "$LIB/articles.py" "$ARTICLES" 10 "Second new story" "First new story"
refresh_and_wait
n=$(call_count); [ "$n" -eq 3 ] || die "expected 3 Notify calls in all, saw $n"
calls | tail -n 2 | python3 -c '
import json, sys
got = [json.loads(l) for l in sys.stdin]
titles = [c["summary"] for c in got]
assert titles == ["First new story", "Second new story"], f"titles in order {titles}"
for c in got:
    assert c["actions"][0] == "default", c["actions"]
    assert c["hints"].get("desktop-entry") == "headlines", c["hints"]
    assert c["hints"].get("category") == "x-headlines.article", c["hints"]
    assert c["app_name"] == "Headlines" and c["expire_timeout"] > 0, c
' || die "the two Notify calls are not as expected"
ok "two Notify calls, oldest first, with default action, desktop-entry and category hints"

echo "dunstctl action 0 opens the article in the (fake) default browser"
dunstctl action 0
wait_for "the fake browser" 5 test -s "$BROWSER_LOG" || die "no URL reached the browser"
# dunst sorts the displayed notifications oldest first: position 0 is "First new story".
url=$(cat "$BROWSER_LOG")
[ "$url" = "https://news.example.com/extra/first-new-story" ] || die "browser opened '$url', expected exactly https://news.example.com/extra/first-new-story"
ok "browser opened exactly $url"

echo "restarting the host repeats nothing"
stop_host
start_host
refresh_and_wait
n=$(call_count); [ "$n" -eq 3 ] || die "restart re-posted: $n Notify calls, expected still 3"
ok "after a restart and a reload, still 3 Notify calls"

echo "eight new headlines with max-per-refresh=3: three and one digest of their source"
python3 "$LIB/articles.py" "$ARTICLES" 10 "Eight" "Seven" "Six" "Five" "Four" "Three" "Two" "One" "Second new story" "First new story"
refresh_and_wait
calls | tail -n +4 | python3 -c '
import json, sys
got = [json.loads(l) for l in sys.stdin]
assert [c["summary"] for c in got] == ["Six", "Seven", "Eight", "extra.example.com: 5 new"], got
categories = [c["hints"].get("category") for c in got]
assert categories == ["x-headlines.article"] * 3 + ["x-headlines.digest"], categories
' || die "flood control did not post three and a digest, the digest in the digest category"
ok "posted Six, Seven, Eight and the digest 'extra.example.com: 5 new', the last in category x-headlines.digest"

echo "markup in a title is literal text; a javascript: link is never opened"
python3 - "$ARTICLES" <<'PY'
import json, sys
path = sys.argv[1]
items = json.load(open(path))
items.insert(0, {"id": 777, "title": "<b>Tom & Jerry</b>", "href": "https://news.example.com/tom",
                 "published_at": items[0]["published_at"], "source": {"domain": "tom&jerry<i>.example.com"}, "image": ""})
items.insert(0, {"id": 778, "title": "Click me", "href": "javascript:alert(1)",
                 "published_at": items[0]["published_at"], "source": {"domain": "evil.example.com"}, "image": ""})
json.dump(items, open(path + ".tmp", "w")); import os; os.rename(path + ".tmp", path)
PY
: >"$BROWSER_LOG"
refresh_and_wait
calls | tail -n 1 | python3 -c '
import json, sys
c = json.loads(sys.stdin.readline())
# The summary is plain text by the spec (dunst escapes it itself); the body is markup.
assert c["summary"] == "<b>Tom & Jerry</b>", c["summary"]
assert c["body"].startswith("tom&amp;jerry&lt;i&gt;.example.com · "), c["body"]
' || die "the title or body was not sent as the spec wants (summary plain, body escaped)"
calls | grep -q '"Click me"' && die "the javascript: headline was notified"
dunstctl action 0; sleep 1
grep -q javascript "$BROWSER_LOG" && die "a javascript: link reached the browser"
ok "title sent as plain text, body escaped for markup; javascript: headline dropped, never opened"

echo "keywords and mute-words, saved into the config under the running host, apply at once"
cp "$WORK/headlines.conf" "$WORK/headlines.conf.plain"
changes() { grep -c "config file saved: configuration re-read" "$HOST_LOG"; }
before=$(changes)
printf '%s\n' 'keywords = AI; "Zürich"' 'mute-words = gossip' >>"$WORK/headlines.conf" # in place, as echo >> does
wait_for "the host to re-read its config" 5 bash -c "[ \$(grep -c 'config file saved: configuration re-read' '$HOST_LOG') -gt $before ]" \
    || die "the host did not notice the edited config"
before=$(call_count)
python3 "$LIB/articles.py" "$ARTICLES" 10 "Keyword AI rules passed" "Keyword weather" "Keyword gossip about AI" "Keyword ZÜRICH votes"
refresh_and_wait
calls | tail -n +$((before + 1)) | python3 -c '
import json, sys
got = [json.loads(l)["summary"] for l in sys.stdin]
assert got == ["Keyword ZÜRICH votes", "Keyword AI rules passed"], got
' || die "keywords: expected exactly the two matching, unmuted headlines to be notified"
grep -q '"match"' "$XDG_RUNTIME_DIR/headlines/bar/waybar" || die "the waybar line has no match class: $(cat "$XDG_RUNTIME_DIR/headlines/bar/waybar")"
grep -q 'gossip' "$XDG_RUNTIME_DIR/headlines/bar/waybar" && die "a muted word is still in the waybar tooltip"
before=$(changes)
cp "$WORK/headlines.conf.plain" "$WORK/headlines.conf.new" && mv "$WORK/headlines.conf.new" "$WORK/headlines.conf" # by rename
wait_for "the host to re-read its config" 5 bash -c "[ \$(grep -c 'config file saved: configuration re-read' '$HOST_LOG') -gt $before ]" \
    || die "the host did not notice the config renamed into place"
wait_for "the match class to go" 5 bash -c "! grep -q '\"match\"' '$XDG_RUNTIME_DIR/headlines/bar/waybar'" || die "the match class stayed after keywords were removed"
ok "only Zürich and AI were notified (gossip muted, weather skipped), the bar said match; both edits applied with no restart"

echo "policy = none posts nothing; policy = alerts posts only the keyword matches"
set_notify() { # LINE...: the plain config with these [notify] lines, renamed into place under the running host
    local before; before=$(changes)
    { cat "$WORK/headlines.conf.plain"; printf '%s\n' "$@"; } >"$WORK/headlines.conf.new"
    mv "$WORK/headlines.conf.new" "$WORK/headlines.conf"
    wait_for "the host to re-read its config" 5 bash -c "[ \$(grep -c 'config file saved: configuration re-read' '$HOST_LOG') -gt $before ]" \
        || die "the host did not notice the edited config"
}
set_notify 'policy = none'
before=$(call_count)
python3 "$LIB/articles.py" "$ARTICLES" 10 "Policy none budget" "Policy none rain"
refresh_and_wait
n=$(( $(call_count) - before )); [ "$n" -eq 0 ] || die "policy = none posted $n notification(s)"
set_notify 'policy = alerts' 'keywords = budget'
python3 "$LIB/articles.py" "$ARTICLES" 10 "Alerts budget vote" "Alerts rain" "Policy none budget" "Policy none rain"
refresh_and_wait
calls | tail -n +$((before + 1)) | python3 -c '
import json, sys
got = [json.loads(l)["summary"] for l in sys.stdin]
assert got == ["Alerts budget vote"], got
' || die "policy = alerts: expected only the new keyword match to be notified"
set_notify
ok "policy = none: no Notify call for two new headlines; policy = alerts: only the new match, not the one none had marked seen"

echo "a source that gives every item a new id, titles and links unchanged, is not notified again"
python3 "$LIB/articles.py" "$ARTICLES" 10 "Renumbered story"
refresh_and_wait
before=$(call_count)
ID_OFFSET=700000 python3 "$LIB/articles.py" "$ARTICLES" 10 "Renumbered story"
refresh_and_wait
n=$(( $(call_count) - before )); [ "$n" -eq 0 ] || die "new ids for the same titles and links posted $n notification(s)"
ok "every id changed, titles and links the same: no Notify call"

echo "dunst killed: the host keeps running and warns once; dunst back: notifications resume"
dunst_stop
python3 "$LIB/articles.py" "$ARTICLES" 10 "While dunst was away 1"
refresh_while_dunst_is_down
python3 "$LIB/articles.py" "$ARTICLES" 10 "While dunst was away 2" "While dunst was away 1"
refresh_while_dunst_is_down
kill -0 "$HOST_PID" || die "the host died without dunst"
w=$(grep -c "notifications are off" "$HOST_LOG"); [ "$w" -eq 1 ] || die "expected one warning, saw $w"
dunst_start
python3 "$LIB/articles.py" "$ARTICLES" 10 "Dunst is back" "While dunst was away 2" "While dunst was away 1"
refresh_and_wait
calls | tail -n 1 | grep -q '"Dunst is back"' || die "no notification after dunst came back"
ok "one warning while dunst was down; the next new headline was notified when it returned"

stop_host
st=$?; [ "$st" -eq 0 ] || die "host exit status $st on SIGTERM"
grep -q "$APITUBE_API_KEY" "$HOST_LOG" "$SESSION_DIR/monitor.log" && die "the API key appeared in a log"
ok "host stopped with status 0; the key never appeared in the host log or on the bus"

echo "keyless feeds, one of two failing: the other's headlines are shown and notified"
rm -rf "$XDG_STATE_HOME/headlines" "$XDG_CACHE_HOME/headlines"
cat > "$WORK/feeds.conf" <<CONF
[source]
provider = feeds
feeds = http://127.0.0.1:$PORT/broken.rss;http://127.0.0.1:$PORT/feed.rss
CONF
before=$(call_count)
python3 "$LIB/articles.py" "$ARTICLES" 4 "Fresh from the feed"
env -u APITUBE_API_KEY "$BIN" --config "$WORK/feeds.conf" run >"$WORK/feeds-host.log" 2>&1 &
FEED_HOST=$!; PIDS+=($FEED_HOST)
wait_for "the feeds host to reload" 10 grep -q "reload ok" "$WORK/feeds-host.log" || { cat "$WORK/feeds-host.log"; die "the feeds host did not reload"; }
HOST_LOG=$WORK/feeds-host.log posted_as_announced 1 "$before"
calls | tail -n +$((before + 1)) | grep -q '"summary": "Fresh from the feed"' || die "the good feed's newest headline was not notified"
"$BIN" --config "$WORK/feeds.conf" list | grep -q "Fresh from the feed" || die "the good feed's headlines are not listed"
"$BIN" --config "$WORK/feeds.conf" status | grep -q "broken.rss: FAILING: .*HTTP 500" || die "status does not name the failing feed"
kill -TERM "$FEED_HOST"; wait "$FEED_HOST"
ok "the working feed's newest headline was notified and listed; status names broken.rss and HTTP 500"

echo "200 notifications posted and closed leave no live notification objects"
out=$(HEADLINES_TEST_SESSION=1 swift test --skip-build --filter NotificationLifetimeTests 2>&1) \
    || { echo "$out" | tail -n 20; die "NotificationLifetimeTests failed"; }
echo "$out" | grep -q "Executed 1 test, with 0 failures" || { echo "$out" | tail -n 20; die "the lifetime test did not run"; }
echo "$out" | grep -q "skipped" && { echo "$out" | tail -n 20; die "the lifetime test was skipped"; }
ok "lifetime test ran: 200 created, all finalized"
echo "notifications: all checks passed"
