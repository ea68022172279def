#!/usr/bin/env bash
# Hostile world: the real-world corpus check itself (scripts/conformance-realworld.sh, which
# compares headlines-feedcheck with python3-feedparser): it must FAIL when the checker refuses a
# file feedparser reads items from, or reads none from it. One ROW per case (see
# scripts/hostile.sh). The feed documents this file once fetched are Swift tests now
# (FeedEndToEndTests).
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
trap 'rm -rf "$WORK"' EXIT

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
