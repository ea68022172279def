#!/bin/sh
# The `curl | jq` peer: the waybar custom script users write for a JSON news API. Every INTERVAL
# seconds one GET (gzip asked for, no conditional GET: such scripts keep no validators) and the
# newest title printed as a waybar JSON line; COUNT rounds, or forever when COUNT is 0. The
# sleep runs in the background and is waited for, so a SIGTERM ends the loop and its sleep.
# Usage: curl_jq_loop.sh INTERVAL COUNT URL KEY
interval=$1 count=$2 url=$3 key=$4 n=0 s=
trap 'kill $s 2>/dev/null; exit 0' TERM
while :; do
    curl -s --compressed -H "X-API-Key: $key" "$url" | jq -c '{text: .results[0].title}'
    n=$((n + 1))
    if [ "$count" -gt 0 ] && [ "$n" -ge "$count" ]; then exit 0; fi
    sleep "$interval" & s=$!
    wait $s
done
