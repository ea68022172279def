#!/usr/bin/env bash
# Hostile world, part 3: bad local state. The cache, status, ledger and seen files and the
# config file are emptied, cut in half, filled with garbage or made unreadable; the state and cache
# folders are made read-only; a read-only file system and a full one (small tmpfs mounts) hold the
# cache and state. For each case `headlines list --json`, `status --json`, `fetch` and a short
# `headlines run` must give one clear message (a corrupt file moved aside to NAME.corrupt-* with one
# warning naming it; a bad config: one sentence naming the file, exit 2), never crash, and the host
# must keep running from memory ("reload ok"). Everything runs as an unprivileged user (nobody),
# since permissions do not stop root. One ROW per case (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
HERE=scripts/hostile
AREA=local-state

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }
join() { local IFS=';'; printf '%s' "$*"; }

WORK=$(mktemp -d /tmp/headlines-hostile-state.XXXXXX)
chmod 755 "$WORK"
PIDS=()
MOUNTS=()
cleanup() {
    for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    for m in "${MOUNTS[@]:-}"; do [ -n "$m" ] && umount "$m" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT

KEY=hostile-state-key-41d0e2
# Root reads through chmod 000, so as root every command runs as nobody; otherwise as ourselves.
if [ "$(id -u)" -eq 0 ]; then
    RUN_UID=$(id -u nobody); RUN_GID=$(id -g nobody)
    AS_USER=(setpriv --reuid="$RUN_UID" --regid="$RUN_GID" --clear-groups)
    give() { chown -R "$RUN_UID:$RUN_GID" "$@"; }
    CAN_MOUNT=1
else
    AS_USER=()
    give() { :; }
    CAN_MOUNT=0
fi

exec {portfd}< <(exec python3 "$HERE/lib/fault_server.py" --log "$WORK/requests.log")
PIDS+=($!)
read -r -t 10 PORT <&"$portfd" || { row "fault server" "the loopback server did not start" FAIL; exit 1; }

GOOD_CONF="[source]
provider = apitube
base-url = http://127.0.0.1:$PORT/ok
timeout = 3s
[refresh]
interval = 1s
daily-budget = 86400
"
# paths_of DIR: the environment of one isolated user whose files live under DIR (cache and state
# may live elsewhere: CACHE_AT / STATE_AT).
user_env() { # DIR
    local d=$1
    printf '%s\n' "HOME=$d" "XDG_CONFIG_HOME=$d/config" "XDG_CACHE_HOME=${CACHE_AT:-$d/cache}" \
        "XDG_STATE_HOME=${STATE_AT:-$d/state}" "XDG_RUNTIME_DIR=$d/runtime" "APITUBE_API_KEY=$KEY" \
        "DBUS_SESSION_BUS_ADDRESS=unix:path=$d/no-bus" "PATH=$PATH"
}
hl() { # DIR ARGS...: headlines as the unprivileged user in DIR's world, with a clean environment
    local d=$1; shift
    local vars; mapfile -t vars < <(user_env "$d")
    "${AS_USER[@]}" env -i "${vars[@]}" "$BIN" "$@"
}
hl_bg() { # the same, for `hl_bg ... &`: the background job's pid is headlines' own
    local d=$1; shift
    local vars; mapfile -t vars < <(user_env "$d")
    exec "${AS_USER[@]}" env -i "${vars[@]}" "$BIN" "$@"
}

new_world() { # DIR: config and an empty runtime folder
    mkdir -p "$1"/{config/headlines,cache,state,runtime}
    chmod 700 "$1/runtime"
    printf '%s' "$GOOD_CONF" >"$1/config/headlines/headlines.conf"
    give "$1"
}

# short_run DIR LOG: `headlines run` until its first reload ends (at most 8 s) and one more second,
# then SIGTERM. Prints the exit status ("died:N" when it ended on its own).
short_run() {
    local d=$1 log=$2 deadline pid
    hl_bg "$d" run 2>"$log" &
    pid=$!
    deadline=$(( $(date +%s) + 8 ))
    while kill -0 "$pid" 2>/dev/null && ! grep -q "reload ok\|reload failed" "$log" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
        sleep 0.1
    done
    sleep 1.2
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid"; wait "$pid"; echo $?
    else
        wait "$pid"; echo "died:$?"
    fi
}

# The template world: a fetched cache, a status, a ledger and a seen set, all good.
TEMPLATE=$WORK/template
new_world "$TEMPLATE"
hl "$TEMPLATE" fetch >/dev/null 2>"$WORK/template.err"
short_run "$TEMPLATE" "$WORK/template-run.log" >/dev/null
for f in cache/headlines/headlines.json state/headlines/status.json state/headlines/ledger.json state/headlines/seen.json; do
    [ -s "$TEMPLATE/$f" ] || { row "setup" "the template world has no $f after a fetch and a run: $(clip "$(cat "$WORK/template.err" "$WORK/template-run.log")")" FAIL; exit 1; }
done

CRASH='Fatal error|Stack dump|Segmentation fault|Illegal instruction|Aborted|backtrace|Trace/breakpoint'

# run_all DIR: list --json, status --json, fetch, run, into DIR.out/; sets RC_* and ERR_* files.
run_all() {
    local d=$1 o=$1.out
    mkdir -p "$o"
    hl "$d" list --json >"$o/list.out" 2>"$o/list.err"; echo $? >"$o/list.rc"
    hl "$d" status --json >"$o/status.out" 2>"$o/status.err"; echo $? >"$o/status.rc"
    hl "$d" fetch >"$o/fetch.out" 2>"$o/fetch.err"; echo $? >"$o/fetch.rc"
    short_run "$d" "$o/run.err" >"$o/run.rc"
}

# common_problems DIR: crashes, key leaks, signal exits, bad JSON on stdout.
common_problems() {
    local o=$1.out c rc
    for c in list status fetch run; do
        rc=$(cat "$o/$c.rc")
        case $rc in died:*) rc=${rc#died:};; esac
        [ "$rc" -lt 128 ] || echo "$c ended by signal $((rc - 128))"
        grep -Eq "$CRASH" "$o/$c.err" && echo "$c printed crash text"
    done
    grep -rqF "$KEY" "$o" && echo "the key appears in an output"
    for c in list status; do
        [ "$(cat "$o/$c.rc")" != 0 ] || python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$o/$c.out" 2>/dev/null \
            || echo "$c --json printed no valid JSON"
    done
}

# host_problems DIR: the short run must stay up, reload ok, stop on SIGTERM with 0, and say each
# thing once per reload at most (one line per event).
host_problems() {
    local o=$1.out rc reloads worst
    rc=$(cat "$o/run.rc")
    case $rc in
        0) ;;
        died:*) echo "run died by itself with status ${rc#died:}";;
        *) echo "run ended with status $rc on SIGTERM";;
    esac
    grep -q "reload ok" "$o/run.err" || echo "run never logged 'reload ok'"
    reloads=$(grep -c "reload ok\|reload failed" "$o/run.err")
    worst=$(grep "warning:" "$o/run.err" | sed -E 's/\.tmp-[0-9]+-[0-9]+/.tmp-N/g; s/corrupt-[0-9]+/corrupt-N/g' | sort | uniq -c | sort -rn | head -n 1)
    if [ -n "$worst" ] && [ "$(awk '{print $1}' <<<"$worst")" -gt "$reloads" ]; then
        echo "run repeated a warning $(awk '{print $1}' <<<"$worst") times in $reloads reload(s), more than once per reload: $(clip "$(sed -E "s/^ *[0-9]+ //; s/^headlines: warning: //; s|$1/||g" <<<"$worst")")"
    fi
}

cli_lines() { # DIR: stderr lines of list, status and fetch
    cat "$1.out"/{list,status,fetch}.err | grep -c ''
}

# Each case is a world of its own whose commands mostly wait on the host's timers, so the cases of
# a section run four at a time (start_case), and their verdicts are given afterwards, in order
# (later, then verdicts).
CASES=()
VERDICTS=()
start_case() { # COMMAND...: in the background once fewer than four cases run
    while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
    "$@" &
    CASES+=($!)
}
later() { local c; printf -v c '%q ' "$@"; VERDICTS+=("$c"); }
verdicts() {
    [ ${#CASES[@]} -eq 0 ] || wait "${CASES[@]}"
    local c
    for c in "${VERDICTS[@]}"; do eval "$c"; done
    CASES=(); VERDICTS=()
}

# ---- cache, status, ledger and seen files ----------------------------------------------------------
echo "== damaged cache and state files"
damage() { # FILE HOW
    local f=$1 size
    case $2 in
        empty) : >"$f";;
        truncated) size=$(stat -c %s "$f"); truncate -s $((size / 2)) "$f";;
        garbage) printf '\x00\xff\xfe\x7fgarbage {{{ "not": json \x80\x81\x82\n\x00\x00' >"$f";;
        unreadable) chmod 000 "$f";;
    esac
}
judge_damaged() { # FILE HOW DIR
    local file=$1 how=$2 d=$3 o=$3.out base c n warned stray aside what problems=()
    base=$(basename "$file" .json); [ "$base" = headlines ] && base=cache
    mapfile -t problems < <(common_problems "$d"; host_problems "$d")
    for c in list status fetch; do
        [ "$(cat "$o/$c.rc")" = 0 ] || problems+=("$c exited $(cat "$o/$c.rc"): $(clip "$(cat "$o/$c.err")")")
        n=$(grep -c '' "$o/$c.err")
        [ "$n" -le 1 ] || problems+=("$c printed $n stderr lines")
    done
    # Every warning about the file names it.
    warned=$(cat "$o"/*.err | grep -c -- "$d/$file")
    stray=$(cat "$o"/{list,status,fetch}.err | grep -v -- "$d/$file" | grep -c .)
    [ "$stray" -eq 0 ] || problems+=("$stray CLI message(s) that do not name $(basename "$file"): $(clip "$(cat "$o"/{list,status,fetch}.err | grep -v -- "$d/$file" | head -n 1)")")
    aside=$(ls "$d/$file".corrupt-* 2>/dev/null | head -n 1)
    # The ledger is JSON lines: cut after a whole line, it reads as a crash in the middle of an
    # append does, its whole lines kept and the cut one dropped, without a warning.
    local cut_line=""
    [ "$base" = ledger ] && [ "$how" = truncated ] && [ "$(cat "$d.damaged-newlines")" -gt 0 ] && cut_line=1
    case $how in
        truncated|garbage) if [ -n "$cut_line" ]; then
                [ -z "$aside" ] || problems+=("moved aside, though its whole lines read")
                [ "$warned" -eq 0 ] || problems+=("$warned warnings about a cut last line")
            else
                [ -n "$aside" ] || problems+=("not moved aside to $(basename "$file").corrupt-*")
                [ -z "$aside" ] || [ "$(sha256sum <"$aside" | cut -d' ' -f1)" = "$(cat "$d.damaged-sum")" ] || problems+=("the moved-aside file is not the damaged one")
                [ "$warned" -eq 1 ] || problems+=("$warned warnings about it across the four commands (expected exactly 1)")
            fi;;
        empty)
            [ "$warned" -le 1 ] || problems+=("$warned warnings about it across the four commands");;
        unreadable)
            [ "$warned" -ge 1 ] || problems+=("no command said the file is unreadable");;
    esac
    if [ ${#problems[@]} -eq 0 ]; then
        what="list, status, fetch exit 0; host reloads ok"
        if [ -n "$cut_line" ]; then what="$what; its whole lines read, the cut last line dropped, no warning"
        elif [ -n "$aside" ]; then what="$what; moved aside to $(basename "$aside") with 1 warning"
        elif [ "$warned" -gt 0 ]; then what="$what; $warned warning(s) naming it: $(clip "$(cat "$o"/*.err | grep -m1 -- "$d/$file" | sed "s|$d/||g; s/^headlines: //")")"
        else what="$what; read as empty, no warning"; fi
        row "$base.json $how" "$what" PASS
    else
        row "$base.json $how" "$(join "${problems[@]}")" FAIL
    fi
}
for file in cache/headlines/headlines.json state/headlines/status.json state/headlines/ledger.json state/headlines/seen.json; do
    base=$(basename "$file" .json); [ "$base" = headlines ] && base=cache
    for how in empty truncated garbage unreadable; do
        d=$WORK/$base-$how
        cp -a "$TEMPLATE" "$d"
        rm -rf "$d/runtime"/headlines
        damage "$d/$file" "$how"
        cat "$d/$file" 2>/dev/null | sha256sum | cut -d' ' -f1 >"$d.damaged-sum"
        { cat "$d/$file" 2>/dev/null | tr -cd '\n' | wc -c; } >"$d.damaged-newlines"
        start_case run_all "$d"
        later judge_damaged "$file" "$how" "$d"
    done
done
verdicts

# ---- the config file --------------------------------------------------------------------------------
echo "== damaged config file"
for how in empty truncated garbage unreadable "bad value"; do
    d=$WORK/config-${how// /-}
    cp -a "$TEMPLATE" "$d"
    rm -rf "$d/runtime"/headlines
    conf=$d/config/headlines/headlines.conf
    case $how in
        empty) : >"$conf";;
        truncated) printf '%s' "$GOOD_CONF" | sed -n '1,5p' >"$conf"; printf '[refr' >>"$conf";;   # cut mid group header
        garbage) printf '\x00\xff\xfe garbage \x80\x81{{{\n=====\n' >"$conf";;
        unreadable) chmod 000 "$conf";;
        "bad value") printf '%s' "$GOOD_CONF" | sed 's/^interval = .*/interval = often/' >"$conf";;
    esac
    o=$d.out; mkdir -p "$o"
    problems=()
    # --base-url keeps an empty config (all defaults) off the real API.
    for c in "list --json" "status --json" fetch run; do
        name=${c%% *}
        # shellcheck disable=SC2086
        hl_bg "$d" --base-url "http://127.0.0.1:$PORT/ok" $c >"$o/$name.out" 2>"$o/$name.err" &
        pid=$!
        # A bad config ends every command at once; with an empty one the host runs until stopped.
        for _ in $(seq 25); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -TERM "$pid" 2>/dev/null
        wait "$pid"; echo $? >"$o/$name.rc"
    done
    for c in list status fetch run; do
        rc=$(cat "$o/$c.rc"); n=$(grep -c '' "$o/$c.err"); msg=$(cat "$o/$c.err")
        [ "$rc" -lt 124 ] || problems+=("$c ended with status $rc (signal or hang)")
        grep -Eq "$CRASH" "$o/$c.err" && problems+=("$c printed crash text")
        grep -qF "$KEY" "$o/$c.out" "$o/$c.err" && problems+=("$c printed the key")
        if [ "$how" = empty ]; then
            [ "$rc" -eq 0 ] || problems+=("$c exited $rc with an empty (all defaults) config: $(clip "$msg")")
        else
            [ "$rc" -eq 2 ] || problems+=("$c exited $rc, expected 2")
            [ "$n" -eq 1 ] || problems+=("$c printed $n stderr lines")
            grep -qF -- "$conf" "$o/$c.err" || problems+=("$c's message does not name the file: $(clip "$msg")")
            [[ $msg == *. ]] || problems+=("$c's message does not end in '.'")
            [ "$how" != "bad value" ] || grep -q "interval" "$o/$c.err" || problems+=("$c's message does not name the key")
        fi
    done
    if [ "$how" = empty ]; then
        grep -q "host started" "$o/run.err" || problems+=("run did not start with an empty config: $(clip "$(cat "$o/run.err")")")
    fi
    if [ ${#problems[@]} -eq 0 ]; then
        if [ "$how" = empty ]; then
            row "config $how" "all defaults: list, status, fetch exit 0 and the host starts" PASS
        else
            row "config $how" "list, status, fetch and run each exit 2 with one sentence: $(clip "$(sed "s|$d/||g; s/^headlines: //" "$o/fetch.err")")" PASS
        fi
    else
        row "config $how" "$(join "${problems[@]}")" FAIL
    fi
done

# ---- read-only folders, a read-only file system, a full disk ------------------------------------------
echo "== read-only folders, read-only file system, full disk"
# judge_unwritable NAME DIR: the CLI and the host carry on; one message per command.
judge_unwritable() {
    local name=$1 d=$2 o=$2.out problems=() c
    mapfile -t problems < <(common_problems "$d"; host_problems "$d")
    for c in list status; do
        [ "$(cat "$o/$c.rc")" = 0 ] || problems+=("$c exited $(cat "$o/$c.rc"): $(clip "$(cat "$o/$c.err")")")
    done
    case $(cat "$o/fetch.rc") in 0|1) ;; *) problems+=("fetch exited $(cat "$o/fetch.rc")");; esac
    for c in list status fetch; do
        n=$(grep -c '' "$o/$c.err"); [ "$n" -le 1 ] || problems+=("$c printed $n stderr lines")
    done
    if [ ${#problems[@]} -eq 0 ]; then
        local warn; warn=$(grep -h -m1 "warning:" "$o/fetch.err" "$o/run.err" | head -n 1 | sed -E "s|$d/||g; s/^headlines: warning: //; s/\.tmp-[0-9]+-[0-9]+/.tmp-N/g")
        row "$name" "list, status exit 0, fetch $(cat "$o/fetch.rc"); the host reloads ok from memory$( [ -n "$warn" ] && printf '; %s' "$(clip "$warn")")" PASS
    else
        local alive="the host did not keep running"
        [ "$(cat "$o/run.rc")" = 0 ] && grep -q "reload ok" "$o/run.err" && alive="otherwise the host kept running and reloading ok from memory, no crash"
        row "$name" "$(join "${problems[@]}") ($alive)" FAIL
    fi
}

for which in state cache; do
    d=$WORK/readonly-$which
    cp -a "$TEMPLATE" "$d"; rm -rf "$d/runtime"/headlines
    chmod 555 "$d/$which/headlines"
    start_case run_all "$d"
    later judge_unwritable "read-only $which folder (chmod 555)" "$d"
done

if [ "$CAN_MOUNT" -eq 1 ]; then
    # A read-only file system: even root cannot write there (EROFS).
    d=$WORK/readonly-fs
    cp -a "$TEMPLATE" "$d"; rm -rf "$d/runtime"/headlines
    mkdir -p "$d/ro"
    if mount -t tmpfs -o size=1m,mode=755 tmpfs "$d/ro"; then
        MOUNTS+=("$d/ro")
        cp -a "$d/cache" "$d/state" "$d/ro/"
        if mount -o remount,ro "$d/ro"; then
            CACHE_AT=$d/ro/cache STATE_AT=$d/ro/state start_case run_all "$d"
            later judge_unwritable "read-only file system (ro tmpfs)" "$d"
        else
            later row "read-only file system (ro tmpfs)" "could not run: remounting the tmpfs read-only failed" FAIL
        fi
    else
        later row "read-only file system (ro tmpfs)" "could not run: mount -t tmpfs failed (no permission to mount here)" FAIL
    fi

    # A full disk: cache and state on a 64 KiB tmpfs, filled up after the good files are in place.
    d=$WORK/full-disk
    cp -a "$TEMPLATE" "$d"; rm -rf "$d/runtime"/headlines
    mkdir -p "$d/disk"
    if mount -t tmpfs -o size=64k,mode=755 tmpfs "$d/disk"; then
        MOUNTS+=("$d/disk")
        cp -a "$d/cache" "$d/state" "$d/disk/"
        give "$d/disk"
        "${AS_USER[@]}" dd if=/dev/zero of="$d/disk/filler" bs=1k 2>/dev/null
        "${AS_USER[@]}" sh -c "i=0; while [ \$i -lt 200 ] && : > '$d/disk/inode-'\$i 2>/dev/null; do i=\$((i+1)); done"
        avail=$(df -k --output=avail "$d/disk" | tail -n 1 | tr -d ' ')
        if [ "$avail" -eq 0 ]; then
            CACHE_AT=$d/disk/cache STATE_AT=$d/disk/state start_case run_all "$d"
            later judge_unwritable "full disk (64 KiB tmpfs, filled)" "$d"
        else
            later row "full disk (64 KiB tmpfs, filled)" "could not run: the tmpfs still has $avail KiB free after filling" FAIL
        fi
    else
        later row "full disk (64 KiB tmpfs, filled)" "could not run: mount -t tmpfs failed (no permission to mount here)" FAIL
    fi
else
    later row "read-only file system (ro tmpfs)" "could not run: mounting a tmpfs needs root, and this runs as $(id -un)" FAIL
    later row "full disk (64 KiB tmpfs, filled)" "could not run: mounting a tmpfs needs root, and this runs as $(id -un)" FAIL
fi
verdicts
exit 0
