#!/usr/bin/env bash
# Hostile world, part 7: the resident processes. One ROW per failure of the
# resident processes seen before, each asserting the behaviour that replaced it:
#   1. a waybar copy whose stdout is a pipe nobody reads, with a 100 KB title: the host still reloads
#      on `refresh`, and SIGTERM stops it within 2 s;
#   2. a 1 MB feed of 500 headlines, rotate = 1s: the widget document under the 256 KiB a bar
#      reads, the host's VmHWM under 100 MB, a one-shot `headlines-bar i3blocks` under 0.5 s;
#   3. rm -rf of the runtime folder under a running host: the folder is back within 70 s, a
#      `headlines run` started afterwards exits at once naming the host, a new headline is notified once;
#   4. host.lock a symbolic link to a file: the target is not truncated, the host refuses in one sentence;
#   5. the runtime folder pre-created by another user (chown nobody when root, else mode 0777) with a
#      held lock and a planted bar file: refused, `status` says so and never "running (pid 1)",
#      `headlines open` does not launch the planted link;
#   6. no session bus (a bare tty): `refresh` says so in one sentence naming `headlines run`, sends
#      no request, and signals nobody.
# In a private desktop session (scripts/suites/lib/session.sh: D-Bus, Xvfb, dunst, dbus-monitor, a
# fake browser), against feeds served by lib/resident_server.py on 127.0.0.1. The binaries are
# `headlines`, `headlines-host` and `headlines-bar` in $HEADLINES_BIN. One ROW per check (see
# scripts/hostile.sh); RESIDENT_ROWS=3,6 runs only those rows. About 2 minutes when rows fail
# (row 3 waits 70 s for the folder to come back), far less when they pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
BINDIR=${HEADLINES_BIN:-$(swift build --show-bin-path)}
HL=$BINDIR/headlines
BAR=$BINDIR/headlines-bar
HERE=scripts/hostile
AREA=resident
. scripts/suites/lib/session.sh

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }
join() { local IFS=';'; printf '%s' "$*"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

WORK=$(mktemp -d /tmp/headlines-hostile-resident.XXXXXX)
EXTRA_PIDS=()
cleanup() {
    for pid in "${EXTRA_PIDS[@]:-}"; do [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; done
    session_stop
    rm -rf "$WORK"
}
session_start "$WORK/session"
trap cleanup EXIT

FEEDS=$WORK/feeds; mkdir -p "$FEEDS"
exec {portfd}< <(exec python3 "$HERE/lib/resident_server.py" --root "$FEEDS" --log "$WORK/requests.log")
EXTRA_PIDS+=($!)
read -r -t 10 PORT <&"$portfd" || { row "feed server" "the loopback server did not start" FAIL; exit 1; }

# feed NAME N [TITLE_BYTES] [EXTRA_TITLE]: an RSS feed of N headlines (newest first), each title
# padded to TITLE_BYTES, an optional extra newest item; written atomically.
feed() {
    python3 - "$FEEDS/$1" "$2" "${3:-0}" "${4:-}" <<'PY'
import os, sys, datetime
from email.utils import format_datetime
path, n, size, extra = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
now = datetime.datetime.now(datetime.timezone.utc)
def item(i, title, slug):
    if size > len(title):
        title = title + " " + ("x" * (size - len(title) - 1))
    date = format_datetime(now - datetime.timedelta(minutes=i))
    return (f"<item><title>{title}</title><link>https://news.example.com/{slug}</link>"
            f"<guid isPermaLink=\"false\">{slug}</guid><pubDate>{date}</pubDate></item>")
items = [item(0, extra, "extra")] if extra else []
items += [item(k + 1, f"Headline {k}", f"story/{k}") for k in range(n)]
body = ('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Resident</title>'
        '<link>https://news.example.com/</link><description>rows</description>' + "".join(items) + "</channel></rss>")
with open(path + ".tmp", "w") as f:
    f.write(body)
os.rename(path + ".tmp", path)
PY
}

# world DIR FEEDURL [EXTRA CONFIG LINES]: a user whose files live under DIR, one feed, notifications on.
world() {
    local d=$1 url=$2; shift 2
    mkdir -p "$d"/{config/headlines,cache,state,runtime}
    chmod 700 "$d/runtime"
    printf '%s\n' "[source]" "provider = feeds" "feeds = $url" "timeout = 10s" \
        "[refresh]" "interval = 30m" "daily-budget = 1000" "$@" >"$d/config/headlines/headlines.conf"
}
# in_world DIR COMMAND...: any command in DIR's world (the session's bus and display). It execs, so
# `in_world ... &` leaves headlines' own PID in $! (signals reach it, not a subshell).
in_world() {
    local d=$1; shift
    exec env HOME="$d" XDG_CONFIG_HOME="$d/config" XDG_CACHE_HOME="$d/cache" XDG_STATE_HOME="$d/state" \
        XDG_RUNTIME_DIR="$d/runtime" "$@"
}
# hl DIR ARGS...: headlines in DIR's world, bounded to 20 s (in a subshell, for the exec).
hl() { local d=$1; shift; ( in_world "$d" timeout 20 "$HL" "$@" ); }
# hl_bg DIR ARGS...: the same for `hl_bg ... &`, unbounded, $! being headlines itself.
hl_bg() { local d=$1; shift; in_world "$d" "$HL" "$@"; }
lock_word() { # DIR N: the Nth word of host.lock (the PID)
    awk -v n="$2" 'NR == 1 { print $n }' "$1/runtime/headlines/host.lock" 2>/dev/null
}
lock_held() { [ -e "$1/runtime/headlines/host.lock" ] && ! flock -n "$1/runtime/headlines/host.lock" true 2>/dev/null; }
published() { [ -s "$1/runtime/headlines/bar/widget.json" ]; }
alive() { kill -0 "$1" 2>/dev/null; }
gone_within() { # PID SECONDS: true when PID exits within SECONDS
    local deadline=$(( $(now_ms) + $2 * 1000 ))
    while alive "$1"; do [ "$(now_ms)" -lt "$deadline" ] || return 1; sleep 0.05; done
}
stop() { for pid in "$@"; do kill "$pid" 2>/dev/null; gone_within "$pid" 3 || kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }
requests() { grep -c "$1" "$WORK/requests.log" 2>/dev/null || true; }
T0=$(date +%s)
took() { echo "   ($1 took $(( $(date +%s) - T0 )) s)"; T0=$(date +%s); }
step() { echo "   $1 at $(( $(date +%s) - T0 )) s"; }

# --- 1. a waybar copy nobody reads -------------------------------------------------------------------
row_1() {
    W=$WORK/w1
    feed big-title.rss 3 100000
    world "$W" "http://127.0.0.1:$PORT/big-title.rss" "[bar]" "rotate = 1s" "max-length = 500"
    mkfifo "$W/bar.pipe"
    exec {hold}<>"$W/bar.pipe"   # open for reading and writing, and never read: a stopped bar
    # pipe_bytes: "QUEUED CAPACITY" of the pipe (FIONREAD, F_GETPIPE_SZ = 1032).
    pipe_bytes() { python3 -c 'import array, fcntl, sys, termios
fd = int(sys.argv[1]); n = array.array("i", [0]); fcntl.ioctl(fd, termios.FIONREAD, n)
print(n[0], fcntl.fcntl(fd, 1032))' "$hold"; }
    # A pipe nobody reads ends up full: it is full from the start here, so the copy can write
    # nothing at all (titles are cut where they arrive, so lines alone would take long to fill it).
    read -r _ capacity < <(pipe_bytes)
    head -c "$capacity" /dev/zero >&"$hold"
    problems=()
    # The world's own host first: the session bus would start one in the session's world.
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    EXTRA_PIDS+=($!)
    wait_for "the host to take its lock" 10 lock_held "$W" || problems+=("no host took the lock in 10 s")
    hl_bg "$W" waybar >"$W/bar.pipe" 2>"$W/waybar.err" &
    WAYBAR=$!; EXTRA_PIDS+=($WAYBAR)
    wait_for "the host to publish" 30 published "$W" || problems+=("no bar lines published in 30 s")
    wait_for "the host's waybar line" 10 test -s "$W/runtime/headlines/bar/waybar" || problems+=("no waybar line was published")
    sleep 2   # two rotations with a line the copy cannot write
    read -r queued capacity < <(pipe_bytes)
    [ "$queued" -eq "$capacity" ] || problems+=("the bar's pipe holds $queued of $capacity bytes, not full")
    HOSTPID=$(lock_word "$W" 1)
    before=$(requests big-title.rss)
    t0=$(now_ms)
    refresh=$(hl "$W" refresh 2>&1); rc=$?
    took=$(( $(now_ms) - t0 ))
    after=$(requests big-title.rss)
    [ "$rc" -eq 0 ] && [ "$after" -gt "$before" ] || problems+=("refresh exit $rc after ${took} ms, $((after - before)) new request(s): $(clip "$refresh")")
    if [ -n "$HOSTPID" ] && alive "$HOSTPID"; then
        kill -TERM "$HOSTPID"
        gone_within "$HOSTPID" 2 || problems+=("the host (pid $HOSTPID) still ran 2 s after SIGTERM")
    else
        problems+=("no live host named in host.lock ($(clip "$(cat "$W/runtime/headlines/host.lock" 2>/dev/null)"))")
    fi
    stop "$WAYBAR"; exec {hold}>&-
    if [ ${#problems[@]} -eq 0 ]; then
        row "a waybar copy nobody reads, 100 KB title" "refresh reloaded in ${took} ms with the bar's pipe full; SIGTERM stopped the host within 2 s" PASS
    else
        row "a waybar copy nobody reads, 100 KB title" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 2. 1 MB of 500 headlines, rotate = 1s -------------------------------------------------------------
row_2() {
    W=$WORK/w2
    feed big.rss 500 1900
    world "$W" "http://127.0.0.1:$PORT/big.rss" "[bar]" "rotate = 1s"
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    RUN=$!; EXTRA_PIDS+=($RUN)
    problems=(); facts=()
    feedsize=$(stat -c %s "$FEEDS/big.rss")
    if wait_for "the host to publish 500 headlines" 60 published "$W"; then
        sleep 2
        size=$(stat -c %s "$W/runtime/headlines/bar/widget.json")
        facts+=("widget.json $((size / 1024)) KiB")
        [ "$size" -le 262144 ] || problems+=("widget.json is $((size / 1024)) KiB, more than a bar reads")
        HOSTPID=$(lock_word "$W" 1)
        hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$HOSTPID/status" 2>/dev/null)
        facts+=("host VmHWM ${hwm:-?} kB")
        [ -n "$hwm" ] && [ "$hwm" -lt 102400 ] || problems+=("host (pid $HOSTPID) VmHWM ${hwm:-unknown} kB")
        if [ -x "$BAR" ]; then
            best=999999
            for _ in 1 2 3; do
                t0=$(now_ms); out=$( (in_world "$W" timeout 10 "$BAR" i3blocks) ); rc=$?; t=$(( $(now_ms) - t0 ))
                [ "$t" -lt "$best" ] && best=$t
            done
            facts+=("headlines-bar i3blocks ${best} ms")
            [ "$rc" -eq 0 ] && [ -n "$out" ] || problems+=("headlines-bar i3blocks exit $rc, printed '$(clip "$out")'")
            [ "$best" -lt 500 ] || problems+=("headlines-bar i3blocks took ${best} ms")
        else
            problems+=("no headlines-bar beside headlines in $BINDIR")
        fi
    else
        problems+=("no timeline published within 60 s: $(clip "$(tail -n 3 "$W/host.log")")")
    fi
    stop "$RUN"
    if [ ${#problems[@]} -eq 0 ]; then
        row "a $((feedsize / 1024)) KiB feed of 500 headlines, rotate 1s" "$(join "${facts[@]}")" PASS
    else
        row "a $((feedsize / 1024)) KiB feed of 500 headlines, rotate 1s" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 3. rm -rf of the runtime folder under a running host --------------------------------------------
row_3() {
    W=$WORK/w3
    feed rm.rss 3
    world "$W" "http://127.0.0.1:$PORT/rm.rss" "[notify]" "enabled = true"
    hl_bg "$W" run >"$W/host1.log" 2>&1 &
    RUN1=$!; EXTRA_PIDS+=($RUN1)
    problems=()
    wait_for "the host to publish" 30 published "$W" || problems+=("the host never published")
    # The first run posts its newest headline; counted below only what comes after.
    first_posted() { [ "$(notify_count)" -ge 1 ]; }
    wait_for "the first run's notification" 10 first_posted || problems+=("the first run posted no notification")
    HOST1=$(lock_word "$W" 1)
    rm -rf "$W/runtime/headlines"
    t0=$(now_ms)
    back() { [ -d "$1/runtime/headlines" ] && lock_held "$1" && [ "$(lock_word "$1" 1)" = "$2" ]; }
    if wait_for "the host to recreate its folder and lock" 70 back "$W" "$HOST1"; then
        recreated=$(( ($(now_ms) - t0) / 1000 ))
        mode=$(stat -c %a "$W/runtime/headlines")
        [ "$mode" = 700 ] || problems+=("recreated folder has mode $mode")
    else
        recreated=none
        problems+=("70 s after rm -rf: folder $( [ -d "$W/runtime/headlines" ] && echo present || echo missing), lock naming '$(lock_word "$W" 1)' (host was $HOST1)")
    fi
    step "row 3: starting a second run"
    hl_bg "$W" run >"$W/host2.log" 2>&1 &
    RUN2=$!; EXTRA_PIDS+=($RUN2)
    # The bus name (or, without a bus, the lock) is the single-instance rule: the second run exits.
    names_host() { grep -q "another host (pid $HOST1)" "$W/host2.log"; }
    wait_for "the second run to exit naming the host" 10 names_host
    [ "$(lock_word "$W" 1)" = "$HOST1" ] || problems+=("after a second run the lock names '$(lock_word "$W" 1)', not the host $HOST1")
    wait_for "the second run to exit" 5 bash -c "! kill -0 $RUN2 2>/dev/null" || problems+=("the second run is still running: $(clip "$(tail -n 2 "$W/host2.log")")")
    names_host || problems+=("the second run did not name the host $HOST1: $(clip "$(tail -n 2 "$W/host2.log")")")
    step "row 3: adding a headline"
    n0=$(notify_count)
    feed rm.rss 3 0 "Resident fresh headline"
    hl "$W" refresh >/dev/null 2>&1
    posted_since() { [ "$(notify_count)" -gt "$1" ]; }
    wait_for "the new headline's notification" 10 posted_since "$n0"
    sleep 1   # a second host's reload, asked at the same moment, would post its copy by now
    n1=$(notify_count)
    step "row 3: stopping both"
    [ $((n1 - n0)) -eq 1 ] || problems+=("the new headline gave $((n1 - n0)) Notify calls")
    stop "$RUN2" "$RUN1"
    if [ ${#problems[@]} -eq 0 ]; then
        row "rm -rf of the runtime folder under a running host" "back after ${recreated} s (0700, the same host's lock); a later run exited naming the host; the new headline was notified once" PASS
    else
        row "rm -rf of the runtime folder under a running host" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 4. host.lock a symbolic link to a file ----------------------------------------------------------
row_4() {
    W=$WORK/w4
    feed small.rss 3
    world "$W" "http://127.0.0.1:$PORT/small.rss"
    mkdir -m 700 "$W/runtime/headlines"
    printf 'precious bytes\n' >"$W/target"
    ln -s "$W/target" "$W/runtime/headlines/host.lock"
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    RUN=$!; EXTRA_PIDS+=($RUN)
    problems=()
    said() { grep -q "host.lock is a symbolic link" "$W/host.log"; }
    wait_for "the host to refuse the link" 5 said || problems+=("no sentence about the link in 5 s: $(clip "$(tail -n 2 "$W/host.log")")")
    [ "$(cat "$W/target")" = "precious bytes" ] || problems+=("the link's target now holds '$(clip "$(cat "$W/target")")'")
    [ -L "$W/runtime/headlines/host.lock" ] || problems+=("host.lock is no longer the link")
    ! published "$W" || problems+=("a timeline was published beside the linked lock")
    sentences=$(grep -c "symbolic link" "$W/host.log")
    [ "$sentences" -le 1 ] || problems+=("the refusal was logged $sentences times")
    stop "$RUN"
    if [ ${#problems[@]} -eq 0 ]; then
        row "host.lock is a symbolic link to a file" "target untouched; refused: $(clip "$(grep -m1 "symbolic link" "$W/host.log")")" PASS
    else
        row "host.lock is a symbolic link to a file" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 5. the runtime folder pre-created by another user -----------------------------------------------
row_5() {
    W=$WORK/w5
    world "$W" "http://127.0.0.1:$PORT/small.rss"
    R=$W/runtime/headlines
    mkdir "$R"
    mkdir "$R/bar"
    printf '0123456789abcdef\nPlanted https://planted.example/evil\nPlanted\n#FFFFFF\n' >"$R/bar/i3blocks-keyed"
    printf '1 host\n' >"$R/host.lock"
    # The other user's holder: one process that locks and sleeps (flock(1) would leave a child sleeping
    # on our output after it is killed).
    HOLD='import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(300)'
    if [ "$(id -u)" -eq 0 ]; then
        how="chown nobody"
        # As in a shared, world-writable XDG_RUNTIME_DIR: nobody can reach it and create headlines/ first.
        chmod 755 "$WORK" "$W"; chmod 1777 "$W/runtime"
        chown -R 65534:65534 "$R"; chmod 755 "$R" "$R/bar"; chmod 644 "$R/bar/i3blocks-keyed" "$R/host.lock"
        # /usr/bin/python3 by name: a python3 first in root's PATH (pyenv shims) may be out of nobody's reach.
        setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c "$HOLD" "$R/host.lock" >/dev/null 2>&1 &
    else
        how="mode 0777"
        chmod 777 "$R" "$R/bar"; chmod 666 "$R/bar/i3blocks-keyed" "$R/host.lock"
        python3 -c "$HOLD" "$R/host.lock" >/dev/null 2>&1 &
    fi
    HOLDER=$!; EXTRA_PIDS+=($HOLDER)
    problems=()
    wait_for "the foreign holder to lock" 5 lock_held "$W" || problems+=("the planted lock was never held")
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    RUN=$!; EXTRA_PIDS+=($RUN)
    refused() { grep -q "not you\|other users" "$W/host.log"; }
    wait_for "the host to refuse the folder" 5 refused || problems+=("run gave no refusal in 5 s: $(clip "$(tail -n 2 "$W/host.log")")")
    status=$(hl "$W" status 2>&1)
    grep -q "running (pid" <<<"$status" && problems+=("status says $(grep -o 'running (pid [0-9]*)' <<<"$status")")
    grep -q "not you\|other users" <<<"$status" || problems+=("status gives no refusal: $(clip "$(grep -m1 '^Host' <<<"$status")")")
    : >"$BROWSER_LOG"
    hl "$W" open >/dev/null 2>&1
    ( BLOCK_BUTTON=1 in_world "$W" timeout 10 "$BAR" i3blocks ) >/dev/null 2>&1
    sleep 1
    grep -q planted "$BROWSER_LOG" && problems+=("a click launched the planted link")
    stop "$RUN" "$HOLDER"
    if [ ${#problems[@]} -eq 0 ]; then
        row "runtime folder pre-created by another user ($how)" "refused: $(clip "$(grep -m1 "not you\|other users" <<<"$status" | sed 's/^[A-Za-z]*: *//')"); open launched nothing" PASS
    else
        row "runtime folder pre-created by another user ($how)" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 6. no session bus (a bare tty): refresh says so and reaches nothing --------------------------------
row_6() {
    W=$WORK/w6
    local -x DBUS_SESSION_BUS_ADDRESS=disabled:
    feed slow.rss 3
    world "$W" "http://127.0.0.1:$PORT/slow.rss"
    problems=()
    before=$(requests slow.rss)
    out=$(hl "$W" refresh 2>&1); rc=$?
    [ "$rc" -eq 1 ] || problems+=("refresh ended with status $rc")
    [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "no session bus.*headlines run" <<<"$out" || problems+=("refresh said: $(clip "$out")")
    [ "$(requests slow.rss)" -eq "$before" ] || problems+=("refresh sent a request with no host to ask")
    if [ ${#problems[@]} -eq 0 ]; then
        row "refresh with no session bus" "one sentence, no request: $(clip "$out")" PASS
    else
        row "refresh with no session bus" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# RESIDENT_ROWS=3,6 runs only those rows (all by default).
for n in 1 2 3 4 5 6; do
    [[ ",${RESIDENT_ROWS:-1,2,3,4,5,6}," == *",$n,"* ]] || continue
    # A host the session's bus started for an earlier row (in the session's world) steps aside.
    stop_activated_hosts
    "row_$n"
    took "row $n"
done
exit 0
