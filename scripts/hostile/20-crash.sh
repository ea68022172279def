#!/usr/bin/env bash
# Crash consistency: SIGKILL the host at random moments through CYCLES
# reload-and-write cycles (a new headline arrives on the server at every cycle, so every reload
# writes the cache, the seen set, the ledger and the status, and posts a notification to a real
# dunst). After each kill: every file parses. At the end: no headline was notified twice, the seen
# set holds every headline that was notified, the cache holds the newest headline the host saw,
# and the ledger counts at least every request the server saw (attempts are written first).
# Prints ROW lines for scripts/hostile.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh
CYCLES=${CYCLES:-200}

suite_dir crash
session_start "$WORK/session"
ARTICLES=$WORK/articles.json
python3 "$LIB/articles.py" "$ARTICLES" 5
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
news_config "$WORK/headlines.conf" 'provider = apitube' '[refresh]' 'interval = 1s' 'daily-budget = 86400' '[notify]' 'max-per-refresh = 50'
export APITUBE_API_KEY=crash-suite-key-3141

# The cycles in one Python process (a python3 start per step would be a good part of each cycle):
# a new headline on the server, `headlines run`, SIGKILL at a random moment (before, during or
# after the reload and its writes), then every file that exists must parse as JSON and none may
# have been set aside as corrupt. Prints "cycle N: ..." for each cycle that found a bad file, and
# writes the number of such cycles to $WORK/failures.
python3 - "$BIN" "$WORK/headlines.conf" "$ARTICLES" "$CYCLES" "$WORK/host.log" "$WORK/failures" "$LIB/articles.py" \
         "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines" <<'PY'
import json, os, random, runpy, subprocess, sys, time
binary, conf, articles, cycles, host_log, failures_file, articles_py, *dirs = sys.argv[1:]
rng = random.Random(4242)

def new_headline(title):
    sys.argv = [articles_py, articles, "5", title]
    runpy.run_path(articles_py, run_name="__main__")

def bad_files():
    bad = []
    for d in dirs:
        for name in ("headlines.json", "status.json", "ledger.json", "seen.json", "muted.json"):
            p = os.path.join(d, name)
            if os.path.exists(p):
                try:
                    text = open(p).read()
                    if name == "ledger.json" and "\n" in text:
                        # JSON lines: each whole line parses; a last line with no newline is an
                        # append cut short, which the reader drops (its request never left).
                        for line in text.split("\n")[:-1]:
                            if line.strip():
                                json.loads(line)
                    else:
                        json.loads(text)
                except Exception as e:
                    bad.append(f"{p}: {e}")
        bad += [f"{other} was set aside as corrupt" for other in (os.listdir(d) if os.path.isdir(d) else []) if ".corrupt-" in other]
    return sorted(set(bad))

failures = 0
with open(host_log, "ab") as log:
    for cycle in range(1, int(cycles) + 1):
        new_headline(f"Crash story {cycle}")
        host = subprocess.Popen([binary, "--config", conf, "run"], stderr=log)
        time.sleep(rng.randrange(400) / 1000)
        host.kill()
        host.wait()
        bad = bad_files()
        if bad:
            failures += 1
            print(f"cycle {cycle}: " + "; ".join(bad), flush=True)
open(failures_file, "w").write(f"{failures}\n")
PY
failures=$(cat "$WORK/failures" 2>/dev/null) || failures=""
if [ "$failures" = 0 ]; then
    row "crash consistency" "SIGKILL at random moments, $CYCLES cycles" "after each of $CYCLES kills the cache, seen set, ledger and status all parsed; none set aside" PASS
elif [ -n "$failures" ]; then
    row "crash consistency" "SIGKILL at random moments, $CYCLES cycles" "$failures of $CYCLES restarts found a file that did not parse" FAIL
else
    row "crash consistency" "SIGKILL at random moments, $CYCLES cycles" "the cycle loop ended before writing its count (see above)" FAIL
    failures=1
fi

# A last, clean run so the newest headline is fetched and notified.
"$BIN" --config "$WORK/headlines.conf" run 2>>"$WORK/host.log" & pid=$!
wait_for "a last reload" 10 bash -c "grep -c 'reload ok' '$WORK/host.log' >/dev/null && tail -n 5 '$WORK/host.log' | grep -q 'reload ok'"
sleep 1.5
kill -TERM "$pid"; wait "$pid" 2>/dev/null

python3 - "$SESSION_DIR/monitor.log" "$XDG_STATE_HOME/headlines/seen.json" "$XDG_CACHE_HOME/headlines/headlines.json" \
         "$XDG_STATE_HOME/headlines/ledger.json" "$WORK/requests.log" "$CYCLES" "$LIB/notify_calls.py" > "$WORK/verdict.txt" <<'PY'
import collections, json, subprocess, sys
monitor, seen_p, cache_p, ledger_p, requests_p, cycles, parser = sys.argv[1:8]
calls = [json.loads(l) for l in subprocess.run([sys.executable, parser, monitor], capture_output=True, text=True).stdout.splitlines()]
titles = collections.Counter(c["summary"] for c in calls)
dups = {t: n for t, n in titles.items() if n > 1}
seen = json.load(open(seen_p))["seen"]
cache = json.load(open(cache_p))
def ledger_attempts(path):
    # JSON lines (each with its attempts in "at"); a last line without its newline was cut short
    # and never counted. A file without a newline is an earlier version's one document.
    text = open(path).read()
    if "\n" not in text:
        return len(json.loads(text)["attempts"])
    return sum(len(json.loads(line)["at"]) for line in text.split("\n")[:-1])
attempts = ledger_attempts(ledger_p)
requests = sum(1 for _ in open(requests_p))
newest = f"Crash story {cycles}"
# every notified headline must be in the seen set (ids of extras are derived from the title)
cached_titles = [h["title"] for h in cache["headlines"]]
lines = []
lines.append(("no headline notified twice", not dups, f"{len(calls)} notifications, {len(dups)} posted twice" + (f": {list(dups)[:3]}" if dups else "")))
lines.append(("nothing lost: newest headline cached", newest in cached_titles, f"the cache holds '{cached_titles[0] if cached_titles else None}' first"))
lines.append(("nothing lost: ledger counts every request", attempts >= requests, f"ledger {attempts} attempts, server saw {requests} requests"))
lines.append(("nothing lost: seen set covers what was notified", len(seen) >= len(set(titles)), f"seen set {len(seen)} ids, {len(set(titles))} distinct notifications"))
import glob, os
leftovers = [p for d in (os.path.dirname(seen_p), os.path.dirname(cache_p)) for p in glob.glob(os.path.join(d, ".*.tmp-*"))]
lines.append(("no temporary files left behind", not leftovers, f"{len(leftovers)} stale temporary files after the last start"))
for name, ok, outcome in lines:
    print(f"{name}\t{outcome}\t{'PASS' if ok else 'FAIL'}")
PY
while IFS=$'\t' read -r name outcome result; do
    row "crash consistency" "$name" "$outcome" "$result"
    [ "$result" = PASS ] || failures=$((failures + 1))
done < "$WORK/verdict.txt"
[ -s "$WORK/verdict.txt" ] || { row "crash consistency" "final checks" "the verdict script failed" FAIL; failures=$((failures + 1)); }
grep -q "$APITUBE_API_KEY" "$WORK/host.log" && { row "crash consistency" "key in logs" "the key appeared in the host log" FAIL; failures=$((failures + 1)); }
[ "$failures" -eq 0 ]
