#!/usr/bin/env bash
# Hostile world: feed documents of a shape feedparser reads and headlines used to refuse, fetched
# by the real program from a loopback server (an Atom entry document, RSS 1.0 under an unprefixed
# <rdf>, an iTunes podcast with single-quoted attributes, one broken by an apostrophe, cut off
# mid-item), and the real-world corpus check itself: it must FAIL when the checker refuses a file
# feedparser reads items from, or reads none from it. One ROW per case (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
AREA=feeds
FEEDS=Fixtures/feeds

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }

WORK=$(mktemp -d /tmp/headlines-hostile-feeds.XXXXXX)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

mkdir -p "$WORK"/{config/headlines,cache,state,runtime}
chmod 700 "$WORK/runtime"
export HOME=$WORK XDG_CONFIG_HOME=$WORK/config XDG_CACHE_HOME=$WORK/cache XDG_STATE_HOME=$WORK/state XDG_RUNTIME_DIR=$WORK/runtime
unset DISPLAY WAYLAND_DISPLAY NEWSAPI_API_KEY APITUBE_API_KEY
export DBUS_SESSION_BUS_ADDRESS=unix:path=$WORK/no-bus

# A static server over the fixtures; it prints its port once it listens.
exec {portfd}< <(exec python3 -u -c '
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.func.log_message = lambda *a: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1])
server.serve_forever()
' "$FEEDS")
SERVER=$!
read -r -t 10 PORT <&"$portfd" || { row "fixture server" "the loopback server did not start" FAIL; exit 1; }

# fetch_row FAULT FILE EXPECTED-TITLES...: one `headlines fetch` of that feed alone, then the
# titles `list --json` shows, in order.
fetch_row() {
    local fault=$1 file=$2; shift 2
    local conf=$WORK/$file.conf want got rc
    printf '[source]\nprovider = feeds\nfeeds = http://127.0.0.1:%s/%s\ntimeout = 5s\n' "$PORT" "$file" >"$conf"
    rm -f "$XDG_CACHE_HOME/headlines/headlines.json" "$XDG_CACHE_HOME/headlines/feeds.json"
    timeout 30 "$BIN" --config "$conf" fetch >"$WORK/fetch.out" 2>"$WORK/fetch.err"
    rc=$?
    got=$(timeout 10 "$BIN" --config "$conf" list --json 2>"$WORK/list.err" |
        python3 -c 'import json,sys; print("|".join(h["title"] for h in json.load(sys.stdin)))' 2>/dev/null)
    want=$(IFS='|'; printf '%s' "$*")
    if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
        row "$fault" "fetch exit 0; headlines: $(clip "$got")" PASS
    else
        row "$fault" "fetch exit $rc: $(clip "$(cat "$WORK/fetch.err")"); headlines: $(clip "$got"); expected: $(clip "$want")" FAIL
    fi
}

fetch_row "Atom entry document (root <entry>, RFC 4287 §4.1.2)" atom-entry-document.xml "Version 3.2 is out"
fetch_row "RSS 1.0 under <rdf> without the rdf: prefix, in no namespace" rss10-unprefixed-rdf.xml "鉋の刃を研ぐ" "作業台の天板"
fetch_row "iTunes podcast: single-quoted attributes, an apostrophe inside one, cut off mid-item" \
    itunes-single-quoted-truncated.xml "Episode 112: Hand tools for beginners" "Episode 111: Finishing with oil"

# The corpus check over one captured folder (selfoss: 7 files, about 370 items) and the entry
# document: with the real checker it passes; with a checker that refuses the entry document, or
# reads no items from it, it must FAIL on that alone, the agreement staying above its 99% bar.
CHECKER=$(dirname "$BIN")/headlines-feedcheck
mkdir -p "$WORK/corpus"
cp Fixtures/real-world/selfoss/*.xml "$FEEDS/atom-entry-document.xml" "$WORK/corpus/"
for kind in refusing empty; do
    case $kind in
        refusing) answer='{"file":"%s","error":"refused"}\n'; status=1;;
        empty) answer='{"file":"%s","items":[]}\n'; status=0;;
    esac
    cat >"$WORK/$kind-checker" <<SH
#!/bin/sh
case "\$1" in
    */atom-entry-document.xml) printf '$answer' "\$1"; exit $status;;
    *) exec "$CHECKER" "\$@";;
esac
SH
    chmod +x "$WORK/$kind-checker"
done
for kind in real refusing empty; do
    checker=$WORK/$kind-checker
    [ "$kind" = real ] && checker=$CHECKER
    FEEDCHECK=$checker REALWORLD_DIR=$WORK/corpus timeout 60 scripts/conformance-realworld.sh >"$WORK/check.out" 2>&1
    rc=$?
    summary=$(grep -E '^items agreeing|^conformance-realworld: (passed|FAILED)' "$WORK/check.out" | tr '\n' ' ')
    pct=$(sed -nE 's/^items agreeing on every comparable field: [0-9]+\/[0-9]+ \(([0-9.]+)%\).*/\1/p' "$WORK/check.out")
    named=$(grep -c '^  FAIL atom-entry-document.xml: ' "$WORK/check.out")
    case $kind in
        real) fault="conformance-realworld: the real checker on a captured folder and the entry document"
              ok=$([ "$rc" -eq 0 ] && [ "$named" -eq 0 ] && echo 1);;
        refusing) fault="conformance-realworld: the checker refuses a file feedparser reads items from"
                  ok=$([ "$rc" -eq 1 ] && [ "$named" -eq 1 ] && awk -v p="${pct:-0}" 'BEGIN{exit !(p >= 99)}' && echo 1);;
        empty) fault="conformance-realworld: the checker reads 0 items, without an error, from a file feedparser reads items from"
               ok=$([ "$rc" -eq 1 ] && [ "$named" -eq 1 ] && awk -v p="${pct:-0}" 'BEGIN{exit !(p >= 99)}' && echo 1);;
    esac
    if [ -n "$ok" ]; then
        row "$fault" "exit $rc: $(clip "$summary")" PASS
    else
        row "$fault" "exit $rc, entry document named as FAIL $named time(s): $(clip "$summary")" FAIL
    fi
done
exit 0
