# Sourced by scripts/hostile/10-network.sh (it defines row, clip, setenv, WORK, BIN, KEY, PIDS):
# the rows that only a transport with a real byte cap, a no-CPU wait, concurrent
# feeds and hop-by-hop redirect checks passes. Each runs the debug binary once under GNU time.
echo "== the transport: caps, hung servers, concurrent feeds, redirects (lib/curl_fault_server.py)"
setenv "$WORK/transport"
TLOG=$WORK/transport-requests.log
: >"$TLOG"
exec {tportfd}< <(exec python3 "$HERE/lib/curl_fault_server.py" --log "$TLOG")
PIDS+=($!)
if ! read -r -t 10 TP TO <&"$tportfd"; then
    row "transport fault server" "lib/curl_fault_server.py did not start" FAIL
    return 0 2>/dev/null || exit 1
fi
TB=http://127.0.0.1:$TP
tcount() { grep -c '' "$TLOG"; }
tport_count() { grep -c "\"port\": $1," "$TLOG"; }

# trun NAME CONF-BODY [ARGS...]: runs `headlines fetch` with a config of CONF-BODY under GNU time;
# sets T_RC T_WALL T_CPU T_RSS_KB T_ERR T_OUT and T_REQ (requests the server saw).
trun() {
    local name=$1 conf=$WORK/transport-$1.conf before; shift
    printf '%s\n' "$1" >"$conf"; shift
    before=$(tcount)
    timeout 60 /usr/bin/time -o "$WORK/t.time" -f '%e %U %S %M' "$BIN" --config "$conf" fetch "$@" \
        >"$WORK/t.out" 2>"$WORK/t.err"
    T_RC=$?
    # GNU time prints "Command exited with non-zero status N" first when N != 0.
    read -r T_WALL u s T_RSS_KB < <(tail -n 1 "$WORK/t.time")
    T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')
    T_ERR=$(cat "$WORK/t.err"); T_OUT=$(cat "$WORK/t.out")
    T_REQ=$(( $(tcount) - before ))
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a < b)}'; }
judge() { # FAULT OUTCOME PROBLEMS...
    local fault=$1 outcome=$2; shift 2
    if [ $# -eq 0 ]; then row "$fault" "$outcome" PASS; else local IFS=';'; row "$fault" "$* ($outcome)" FAIL; fi
}
feeds_conf() { # TIMEOUT URL...
    local t=$1; shift
    local IFS=';'
    printf '[source]\nprovider = feeds\nfeeds = %s\ntimeout = %ss' "$*" "$t"
}
keyleak() { grep -qF "$KEY" "$WORK/t.out" "$WORK/t.err" && echo "the KEY appears in the output"; }

# (a), (b): the cap holds after decompression, whatever the framing.
for fault in endless bomb; do
    trun "$fault" "$(feeds_conf 10 "$TB/$fault")"
    p=()
    [ "$T_RC" -ne 0 ] || p+=("exit 0")
    grep -q 'sent more than 4096 KiB' <<<"$T_ERR" || p+=("not the cap's sentence")
    lt "$T_WALL" 2 || p+=("took ${T_WALL}s (limit 2 s)")
    [ "$T_RSS_KB" -lt 65536 ] || p+=("peak RSS $((T_RSS_KB / 1024)) MB (limit 64 MB)")
    case $fault in
        endless) name="close-delimited endless body (feed, cap 4 MiB)";;
        bomb) name="gzip bomb: 1 GiB of zeros, about 1 MiB on the wire (feed, cap 4 MiB)";;
    esac
    judge "$name" "exit $T_RC in ${T_WALL}s, peak RSS $((T_RSS_KB / 1024)) MB: $(clip "${T_ERR#headlines: }")" "${p[@]}"
done

# (c): waiting on a silent server costs no CPU (URLSession busy-polled: 26 s of CPU for 30 s).
trun hang "$(feeds_conf 5 "$TB/hang")"
p=()
grep -q 'did not answer within 5 s' <<<"$T_ERR" || p+=("not the timeout's sentence")
lt "$T_CPU" 0.1 || p+=("${T_CPU}s of CPU (limit 0.1 s)")
lt "$T_WALL" 8 || p+=("took ${T_WALL}s")
judge "server accepts and never answers (timeout 5s)" \
    "${T_CPU}s CPU (user+sys, start-up included) over ${T_WALL}s: $(clip "${T_ERR#headlines: }")" "${p[@]}"

# (d): feeds are fetched concurrently, so three hung ones cost one timeout, not three.
trun concurrent "$(feeds_conf 5 "$TB/hang/1" "$TB/hang/2" "$TB/feed" "$TB/hang/3")"
p=()
[ "$T_RC" -eq 0 ] || p+=("exit $T_RC")
grep -q "Good feed story $TP" <<<"$T_OUT" || p+=("the good feed's headline is not in the output")
lt "$T_WALL" 8 || p+=("took ${T_WALL}s (limit timeout + 3 = 8 s)")
judge "three hung feeds and one good one (timeout 5s)" \
    "exit $T_RC in ${T_WALL}s with the good feed's headline, $T_REQ requests" "${p[@]}"

# (e): a keyed request never follows a redirect to another origin; the key is not sent there.
api_conf=$(printf '[source]\nprovider = apitube\ntimeout = 5s')
trun away "$api_conf" --base-url "$TB/away"
p=(); other=$(tport_count "$TO")
[ "$T_RC" -ne 0 ] || p+=("exit 0")
[ "$other" -eq 0 ] || p+=("$other request(s) reached the other origin")
grep -q "redirected to 127.0.0.1:$TO; the API key was not sent there: check \[source\] base-url\.$" <<<"$T_ERR" || p+=("not the redirect sentence")
[ "$(grep -c '' "$WORK/t.err")" -eq 1 ] || p+=("not one stderr line")
k=$(keyleak); [ -z "$k" ] || p+=("$k")
judge "API answers 302 to another origin (another port)" \
    "exit $T_RC, $other request(s) on the other port: $(clip "${T_ERR#headlines: }")" "${p[@]}"

trun localhost "$api_conf" --base-url "$TB/localhost"
p=()
[ "$T_RC" -ne 0 ] || p+=("exit 0")
[ "$T_REQ" -eq 1 ] || p+=("$T_REQ requests (the redirect was followed)")
grep -q "redirected to localhost:$TP; the API key was not sent there" <<<"$T_ERR" || p+=("not the redirect sentence")
k=$(keyleak); [ -z "$k" ] || p+=("$k")
judge "API answers 302 from 127.0.0.1 to localhost (another host name)" \
    "exit $T_RC, $T_REQ request: $(clip "${T_ERR#headlines: }")" "${p[@]}"

# (f): a redirect loop is cut at five redirects: six requests in all, not 21.
trun loop "$api_conf" --base-url "$TB/loop"
p=()
[ "$T_RC" -ne 0 ] || p+=("exit 0")
[ "$T_REQ" -le 6 ] || p+=("$T_REQ requests (limit 6)")
grep -q 'more than 5 redirects' <<<"$T_ERR" || p+=("not the redirect limit's sentence")
judge "API redirects to itself forever" "exit $T_RC after $T_REQ requests: $(clip "${T_ERR#headlines: }")" "${p[@]}"

# (g): answers no HTTP server should send end in one clean sentence naming what was wrong,
# never in libcurl's or the server's words, never with an escape byte, never with the key.
for fault in headers chunk coding nostatus; do
    trun "$fault" "$api_conf" --base-url "$TB/$fault"
    case $fault in
        headers) name="API sends header lines forever"; want="more than 256 KiB of headers";;
        chunk) name="API sends chunked encoding with a size that is not hex"; want="broken chunked encoding";;
        coding) name="API names Content-Encoding ESC[31m xz"; want="compressed as '31mxz', which this libcurl cannot decode";;
        nostatus) name="API answers with no status line (HTTP/0.9)"; want="no HTTP status line";;
    esac
    p=()
    [ "$T_RC" -ne 0 ] || p+=("exit 0")
    grep -qF "($want)" <<<"$T_ERR" || p+=("not the sentence naming it")
    [ "$(grep -c '' "$WORK/t.err")" -eq 1 ] || p+=("not one stderr line")
    ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WORK/t.err" || p+=("a control character on stderr")
    lt "$T_WALL" 5 || p+=("took ${T_WALL}s")
    k=$(keyleak); [ -z "$k" ] || p+=("$k")
    judge "$name" "exit $T_RC in ${T_WALL}s: $(clip "${T_ERR#headlines: }")" "${p[@]}"
done
