# Issue 14's acceptance table and its detail tables, from the `name value unit` lines of
# resident.sh, oneshot.py and bench_latency.sh. A figure whose binary was missing reads
# "not measured: X missing" (X from the section's `*.missing` line) and has no verdict.
# Usage: awk -f table.awk results.txt
{ v[$1] = $2 }
function has(k) { return (k in v) && v[k] != "" }
function mb(k) { return has(k) ? sprintf("%.1f MB", v[k] / 1024) : "–" }
function val(k) { return has(k) ? v[k] : "–" }
function ms(k) { return has(k) ? v[k] " ms" : "–" }
function verdict(ok) { return ok ? "met" : "NOT met" }
function why(keys,   n, parts, i) {    # the first `.missing` among space-separated keys
    n = split(keys, parts, " ")
    for (i = 1; i <= n; i++) if (has(parts[i]))
        return "not measured: " (v[parts[i]] == "run" ? "the section failed (see its output)" : v[parts[i]] " missing")
    return "not measured"
}
function row(figure, measured, beside, target, result) {
    printf "| %s | %s | %s | %s | %s |\n", figure, measured, beside, target, result
}
END {
    w = (has("idle.window") ? v["idle.window"] : "?") " s"
    if (has("idle.elapsed") && v["idle.elapsed"] - v["idle.window"] > 5) w = w " (" v["idle.elapsed"] " s elapsed)"
    host = has("idle.host.exe") ? v["idle.host.exe"] : "headlines-host"
    standin = (host != "headlines-host") ? " (stand-in: " host ")" : ""
    barexe = has("idle.bar.exe") ? v["idle.bar.exe"] : "headlines-bar"
    barin = (barexe != "headlines-bar") ? " (stand-in: " barexe " waybar)" : ""
    oneexe = has("oneshot.bar.exe") ? v["oneshot.bar.exe"] : "headlines-bar"
    print "| issue 14 target, rotation off, dunst on a private bus | measured | beside it | target | result |"
    print "| --- | ---: | --- | --- | --- |"

    floor = "C GLib floor " mb("idle.floor.peak_rss_kb") ", last round's host " mb("idle.baseline.peak_rss_kb")
    if (has("idle.host.peak_rss_kb"))
        row("idle host" standin ", peak RSS over " w " after its first reload", mb("idle.host.peak_rss_kb"),
            floor, "≤ 10 MB", verdict(v["idle.host.peak_rss_kb"] <= 10240))
    else row("idle host, peak RSS", why("idle.host.missing"), floor, "≤ 10 MB", "–")
    floor = "floor " val("idle.floor.wakeups_per_min") ", last round " val("idle.baseline.wakeups_per_min")
    if (has("idle.host.wakeups_per_min"))
        row("idle host" standin ", wake-ups a minute over " w, v["idle.host.wakeups_per_min"],
            floor, "≤ 1", verdict(v["idle.host.wakeups_per_min"] <= 1))
    else row("idle host, wake-ups a minute", why("idle.host.missing"), floor, "≤ 1", "–")

    peer = "`curl \\| jq` script " mb("idle.curl_jq.peak_rss_kb")
    if (has("idle.bar2.peak_rss_kb") && has("idle.bar3.peak_rss_kb"))
        row("each extra waybar copy" barin " (copies 2 and 3), peak RSS", mb("idle.bar2.peak_rss_kb") ", " mb("idle.bar3.peak_rss_kb"),
            peer, "≤ 5 MB", verdict(v["idle.bar2.peak_rss_kb"] <= 5120 && v["idle.bar3.peak_rss_kb"] <= 5120))
    else row("each extra waybar copy, peak RSS", why("idle.bar.missing idle.host.missing idle.bar2.missing"), peer, "≤ 5 MB", "–")
    peer = "`curl \\| jq` script " val("idle.curl_jq.wakeups")
    if (has("idle.bar1.wakeups") && has("idle.bar2.wakeups") && has("idle.bar3.wakeups"))
        row("waybar copies" barin " 1, 2, 3: wake-ups over " w ", nothing changing",
            v["idle.bar1.wakeups"] ", " v["idle.bar2.wakeups"] ", " v["idle.bar3.wakeups"], peer, "0",
            verdict(v["idle.bar1.wakeups"] + v["idle.bar2.wakeups"] + v["idle.bar3.wakeups"] == 0))
    else row("waybar copies: wake-ups, nothing changing", why("idle.bar.missing idle.host.missing idle.bar1.missing"), peer, "0", "–")

    b = v["oneshot.bar.median_ms"]; c = v["oneshot.cat.median_ms"]; nb = v["oneshot.newsboat.median_ms"]
    if (has("oneshot.bar.median_ms") && c > 0) {
        row("one-shot `" oneexe " i3blocks`, median of " v["oneshot.runs"] " paired runs ÷ `cat` of the same lines",
            sprintf("%s ms = %.2fx", b, b / c) (v["oneshot.bar.matches_lines"] == "0" ? " (its output differs from the lines file!)" : ""),
            "cat " ms("oneshot.cat.median_ms"), "≤ 2x", verdict(b <= 2 * c))
        if (has("oneshot.newsboat.median_ms"))
            row("one-shot ÷ `newsboat -x reload` of the same feed", sprintf("1/%.1f", nb / b),
                "newsboat " ms("oneshot.newsboat.median_ms"), "≤ 1/5", verdict(5 * b <= nb))
        else row("one-shot ÷ `newsboat -x reload`", why("oneshot.newsboat.missing"), "", "≤ 1/5", "–")
    } else {
        row("one-shot ÷ `cat` of the same lines", why("oneshot.bar.missing"), "cat " ms("oneshot.cat.median_ms"), "≤ 2x", "–")
        row("one-shot ÷ `newsboat -x reload` of the same feed", why("oneshot.bar.missing"), "newsboat " ms("oneshot.newsboat.median_ms"), "≤ 1/5", "–")
    }

    if (has("latency.signal.bar_without_server.p50")) {
        s = v["latency.signal.bar_without_server.p50"]; r = v["latency.refresh.bar_without_server.p50"]
        row("reload → new line on a follower, p50, SIGUSR1 to the host, server time taken out", s " ms",
            "server " ms("latency.signal.server.p50") ", issue 9: 6.6 ms", "≤ 20 ms", verdict(s <= 20))
        row("reload → new line on a follower, p50, from `headlines refresh` starting, server time taken out", r " ms",
            "server " ms("latency.refresh.server.p50"), "≤ 20 ms", verdict(r <= 20))
    } else row("reload → new line on a follower, p50", why("latency.missing"), "", "≤ 20 ms", "–")

    if (has("host.threads")) {
        print ""
        print "The host" standin " after its first reload: " v["host.threads"] " threads (" v["host.thread_names"] ")" \
            (has("idle.host.wakeups_by_thread") ? "; its wake-ups over the window by thread: " v["idle.host.wakeups_by_thread"] : "") "."
    }

    print ""
    print "| idle over " w ", side by side | peak RSS (VmHWM) | RSS at the end | Pss | private | wake-ups a minute | threads |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    n = split("host bar1 bar2 bar3 floor baseline curl_jq", names, " ")
    label["host"] = "host: `headlines run` → " host
    label["bar1"] = "waybar copy 1: `" barexe " waybar`"
    label["bar2"] = "waybar copy 2"
    label["bar3"] = "waybar copy 3"
    label["floor"] = "floor: C GLib loop, 30-minute timer, `notify_init` (floor.c)"
    label["baseline"] = "last round's host (" (has("idle.baseline.commit") ? v["idle.baseline.commit"] : "baseline") ")"
    label["curl_jq"] = "peer: `curl \\| jq` waybar script (sh loop + sleep)"
    for (i = 1; i <= n; i++) {
        k = "idle." names[i]
        if (has(k ".peak_rss_kb"))
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", label[names[i]], mb(k ".peak_rss_kb"), mb(k ".rss_kb"), mb(k ".pss_kb"),
                mb(k ".private_kb"), val(k ".wakeups_per_min"), val(k ".threads")
        else
            printf "| %s | %s | | | | | |\n", label[names[i]], has(k ".died") ? "died during the window" : \
                why(k ".missing" (names[i] ~ /^bar/ ? " idle.bar.missing idle.host.missing" : ""))
    }

    print ""
    print "| one-shot (a host running, if there is one), " (has("oneshot.runs") ? v["oneshot.runs"] : "?") " paired runs | median wall time | peak RSS |"
    print "| --- | ---: | ---: |"
    n = split("bar cat newsboat old", names, " ")
    label["bar"] = "`" oneexe " i3blocks` (the published lines)"
    label["cat"] = "`cat` of the same lines file" (has("oneshot.lines.missing") ? " (no published lines: the old one-shot's output)" : "")
    label["newsboat"] = "`newsboat -x reload` of the same feed (fresh cache)"
    label["old"] = "old one-shot: `headlines i3blocks`, HEADLINES_NO_BAR_EXEC=1"
    for (i = 1; i <= n; i++) {
        k = "oneshot." names[i]
        if (has(k ".median_ms")) printf "| %s | %s | %s |\n", label[names[i]], ms(k ".median_ms"), mb(k ".peak_rss_kb")
        else printf "| %s | %s | |\n", label[names[i]], why(k ".missing")
    }

    print ""
    print "| reload latency, " (has("latency.reloads") ? v["latency.reloads"] : "?") " reloads of a loopback feed, half per trigger" (has("latency.host.exe") ? ", host " v["latency.host.exe"] : "") " | p50 | p95 |"
    print "| --- | ---: | ---: |"
    if (has("latency.signal.bar.p50")) {
        n = split("signal refresh", names, " ")
        label["signal"] = "SIGUSR1 to the host"; label["refresh"] = "`headlines refresh`"
        for (i = 1; i <= n; i++) {
            k = "latency." names[i]
            printf "| %s → new line on the follower | %s | %s |\n", label[names[i]], ms(k ".bar.p50"), ms(k ".bar.p95")
            printf "| %s → new line, the server's time taken out | %s | %s |\n", label[names[i]], ms(k ".bar_without_server.p50"), ms(k ".bar_without_server.p95")
            printf "| %s → the request reaches the server | %s | %s |\n", label[names[i]], ms(k ".trigger_to_request.p50"), ms(k ".trigger_to_request.p95")
            printf "| the server, request parsed → answer built | %s | %s |\n", ms(k ".server.p50"), ms(k ".server.p95")
        }
        printf "| trigger (either) → Notify call on the bus | %s | %s |\n", ms("latency.notify.p50"), ms("latency.notify.p95")
    } else print "| trigger → new line on the follower | " why("latency.missing") " | |"
}
