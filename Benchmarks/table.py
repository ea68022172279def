#!/usr/bin/env python3
"""results.md from the `name value unit` lines of one make bench run: the figures with their
targets and met / NOT met first, then each section's detail. A figure whose section failed reads
"not measured", and is NOT met where it has a target. Memory: MB = 1024 kB (the targets' 1.6 MB is 1,638 kB, 0.2 MB is
204 kB); throughput: MB = 10^6 bytes. Usage: table.py results.txt"""
import sys

v = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 2 and not line.startswith("#"):
        v[parts[0]] = parts[1]
HOST_KB, BAR_KB, LATENCY_MS, WINDOW_S = 1.6 * 1024, 0.2 * 1024, 40, 300
DAY = 48   # reloads a day at the defaults: common.RELOADS_A_DAY


class Missing(Exception):
    pass


def f(key):
    if key not in v:
        raise Missing(key)
    return float(v[key])


def kb(key):
    return f"{f(key) / 1024:.2f} MB ({int(f(key)):,} kB)"


def verdict(ok):
    return "printed (no target)" if ok is None else "met" if ok else "**NOT met**"


rows = []


def row(figure, measured, beside, target, judge, gated=True):
    """judge() -> (measured text, beside text, ok); a missing figure is NOT met, or, for a figure
    that is only printed (gated=False), not measured."""
    try:
        m, b, ok = judge()
        rows.append((figure, m, b, target, verdict(ok)))
    except Missing as e:
        rows.append((figure, f"not measured ({e.args[0]} missing)", "", target, "**NOT met**" if gated else "not measured"))


window = v.get("idle.window", "?")
short = "" if window != "?" and float(window) >= WINDOW_S else f" (window {window} s, the target's is {WINDOW_S} s)"


def idle_host():
    worst = max(f("idle.host.anonymous_kb"), f("idle.host.private_dirty_kb"))
    m = f"anonymous {kb('idle.host.anonymous_kb')}, private dirty {kb('idle.host.private_dirty_kb')}; " \
        f"Pss {f('idle.host.pss_kb') / 1024:.1f} MB, RSS {f('idle.host.rss_kb') / 1024:.1f} MB (not gated)"
    b = f"C GLib floor: anonymous {kb('idle.floor.anonymous_kb')}, Pss {f('idle.floor.pss_kb') / 1024:.1f} MB; " \
        f"feedparser loop {f('idle.feedparser.anonymous_kb') / 1024:.1f} MB; `curl \\| jq` loop {f('idle.curl_jq.anonymous_kb') / 1024:.1f} MB"
    return m, b, worst <= HOST_KB


def idle_wakeups():
    b = f"floor {int(f('idle.floor.wakeups'))}, feedparser loop {int(f('idle.feedparser.wakeups'))}, " \
        f"`curl \\| jq` loop {int(f('idle.curl_jq.wakeups'))}"
    return str(int(f("idle.host.wakeups"))), b, f("idle.host.wakeups") == 0


def bars_memory():
    worst = max(max(f(f"idle.bar{k}.private_dirty_kb"), f(f"idle.bar{k}.anonymous_kb")) for k in (1, 2, 3))
    m = ", ".join(f"{int(f(f'idle.bar{k}.private_dirty_kb'))} kB" for k in (1, 2, 3))
    b = f"Pss {f('idle.bar2.pss_kb') / 1024:.1f} MB, RSS {f('idle.bar2.rss_kb') / 1024:.1f} MB each (not gated)"
    return m + " private dirty (copies 1, 2, 3)", b, worst <= BAR_KB


def bars_wakeups():
    counts = [f(f"idle.bar{k}.wakeups") for k in (1, 2, 3)]
    lines = [f(f"idle.bar{k}.lines_in_window") for k in (1, 2, 3)]
    return ", ".join(str(int(c)) for c in counts), f"lines printed in the window: {', '.join(str(int(n)) for n in lines)}", \
        sum(counts) == 0


def latency():
    over = f("latency.refresh.bar_minus_server.p50")
    m = f"server + {over:.1f} ms ({f('latency.refresh.bar.p50'):.1f} ms; the server {f('latency.refresh.server.p50'):.1f} ms)"
    b = f"Reload called with gdbus: server + {f('latency.bus.bar_minus_server.p50'):.1f} ms; trigger → Notify on the bus " \
        f"{f('latency.notify.p50'):.1f} ms"
    return m, b, over <= LATENCY_MS


def cpu(case):
    def judge():
        h, nb = f(f"reload.{case}.headlines.cpu_ms"), f(f"reload.{case}.newsboat.cpu_ms")
        m = f"{h:.1f} ms (host {f(f'reload.{case}.headlines.host_cpu_ms'):.1f} + child {f(f'reload.{case}.headlines.child_cpu_ms'):.1f})"
        b = f"newsboat -x reload {nb:.1f} ms; feedparser loop {f(f'reload.{case}.feedparser.cpu_ms'):.1f} ms"
        return m, b, h <= nb
    return judge


def startup():
    def one(name):
        return f"{f(f'reload.startup.{name}.cpu_ms'):.1f} ms ({int(f(f'reload.startup.{name}.page_faults')):,} page faults)"
    m = f"headlines-fetch --version {one('headlines_fetch')}"
    b = f"newsboat --version {one('newsboat')}; a C program that links the child's " \
        f"{int(f('reload.startup.child_libraries.count'))} shared libraries (ldd) and returns {one('child_libraries')}"
    return m, b, None


def parse():
    m = f"{f('parse.all.headlines_mb_s'):.1f} MB/s over {int(f('parse.all.files'))} files, {f('parse.all.bytes') / 1e6:.1f} MB"
    b = f"xmllint --stream --noout {f('parse.all.xmllint_stream_mb_s'):.1f} MB/s (it gives up at the first fatal error, in " \
        f"{int(f('parse.all.xmllint_stream_stopped'))} files); over the {int(f('parse.wellformed.files'))} files it reads " \
        f"through: headlines {f('parse.wellformed.headlines_mb_s'):.1f}, xmllint --stream {f('parse.wellformed.xmllint_stream_mb_s'):.1f} MB/s; " \
        f"xmllint --stream --recover on all {f('parse.all.xmllint_stream_recover_mb_s'):.1f} MB/s"
    return m, b, None


def ledger():
    w, c = f("ledger.full.write_kib_s"), f("ledger.full.cpu_pct")
    m = f"{w:.1f} KiB/s written, {c:.1f} % of a core ({int(f('ledger.full.reloads'))} reloads in {f('ledger.full.seconds'):.0f} s)"
    b = f"the ledger empty: {f('ledger.empty.write_kib_s'):.1f} KiB/s, {f('ledger.empty.cpu_pct'):.1f} % " \
        f"({int(f('ledger.empty.reloads'))} reloads in {f('ledger.empty.seconds'):.0f} s)"
    return m, b, w < 100 and c < 5


def per_day(prefix, tool, figure, idle=()):
    """figure a day: DAY reloads of the measured per-reload figure, plus the idle rate of the
    resident processes named in idle (idle.NAME.*) over 24 hours."""
    x = DAY * f(f"{prefix}.{tool}.{figure}")
    if figure != "bytes":
        for name in idle:
            x += f(f"idle.{name}.{figure}") / f("idle.elapsed") * 86400
    return x


RESIDENT = {"headlines": ("host", "bar1"), "newsboat": (), "feedparser": ("feedparser",), "curl_jq": ("curl_jq",)}
UNITS = {"cpu_ms": ("CPU seconds", lambda x: f"{x / 1000:.2f} s"), "wakeups": ("wake-ups", lambda x: f"{x:,.0f}"),
         "bytes": ("bytes received", lambda x: f"{x / 1e6:.2f} MB" if x >= 1e6 else f"{x / 1e3:.1f} kB")}


def day(prefix, peer, peers, figure):
    def judge():
        show = UNITS[figure][1]
        h = per_day(prefix, "headlines", figure, RESIDENT["headlines"])
        p = per_day(prefix, peer, figure, RESIDENT[peer])
        others = [f"{name} {show(per_day(prefix, tool, figure, RESIDENT[tool]))}" for tool, name in peers]
        if figure != "bytes":
            others.append(f"C GLib floor (idle only) {show(per_day_floor(figure))}")
        return show(h), "; ".join(others), h <= p
    return judge


def per_day_floor(figure):
    return f(f"idle.floor.{figure}") / f("idle.elapsed") * 86400


row("Idle host, after a real reload of the 4 default-like feeds and one notification (dunst, private bus): "
    f"anonymous / private dirty memory{short}", "", "", f"≤ 1.6 MB ({int(HOST_KB):,} kB)", idle_host)
row(f"Idle host: wake-ups over {window} s{short}", "", "", "0", idle_wakeups)
row(f"Each `headlines-bar waybar` copy following the host: private memory{short}", "", "", f"≤ 0.2 MB ({int(BAR_KB)} kB)", bars_memory)
row(f"Each bar copy: wake-ups over {window} s{short}", "", "", "0", bars_wakeups)
row("A reload against a server that answers in 200 ms: `headlines refresh` → new bar line, p50 of "
    f"{v.get('latency.reloads', '?')} reloads (half per trigger)", "", "", "≤ the server's time + 40 ms", latency)
row("CPU per reload, host + child, 1 real feed (every fetch a 200)", "", "", "≤ newsboat -x reload", cpu("one"))
row("CPU per reload, host + child, 10 real feeds (every fetch a 200)", "", "", "≤ newsboat -x reload", cpu("ten"))
row(f"Start-up and exit with no work, mean of {v.get('reload.startup.runs', '?')} runs: CPU, part of each reload above", "", "",
    "none: printed beside newsboat", startup, gated=False)
row("Parse throughput of the reload child, the real-world corpus (RSS, RDF, Atom)", "", "", "none: printed beside xmllint", parse, gated=False)
row("A ledger holding an attempt for every second of the last 24 hours (daily-budget 86400, interval 1s), one feed "
    "answering 304: written by the host and its reload children, and their CPU", "", "", "< 100 KiB/s and < 5 % of a core", ledger)
feed_peers = [("newsboat", "newsboat -x reload"), ("feedparser", "feedparser loop")]
for mode, how in (("changing", "feeds changing (200s)"), ("unchanged", "feeds unchanged (304s)")):
    for figure in ("cpu_ms", "wakeups", "bytes"):
        row(f"A day at the defaults ({DAY} reloads), the 4 feeds, {how}: {UNITS[figure][0]}", "", "",
            "≤ newsboat -x reload, same fetches", day(f"reload.day.{mode}", "newsboat", feed_peers, figure))
for mode, how in (("changing", "answer changing"), ("unchanged", "answer unchanged")):
    for figure in ("cpu_ms", "wakeups", "bytes"):
        row(f"A day at the defaults with a key set (APITube, {DAY} reloads), {how}: {UNITS[figure][0]}", "", "",
            "≤ the `curl \\| jq` loop, same fetches", day(f"reload.api.{mode}", "curl_jq", [("curl_jq", "`curl \\| jq` loop")], figure))

print(f"<!-- written by Benchmarks/bench.sh; do not edit by hand -->")
print()
print(f"Run {v.get('run.date', '?')} on {v.get('run.commit', '?')}, Linux {v.get('run.kernel', '?')}, "
      f"{v.get('run.cores', '?')} cores. Load average (1/5/15 min), which shows what else ran, at the start "
      f"{v.get('run.load_start', '?')}, before each section: " +
      ", ".join(f"{k.split('run.load_before_')[1]} {x}" for k, x in v.items() if k.startswith("run.load_before_")) +
      f"; at the end {v.get('run.load_end', '?')}.")
failed = [k.split(".")[2] for k in v if k.startswith("run.failed.")]
if failed:
    print()
    print(f"**Sections that failed: {', '.join(failed)}** (their figures read \"not measured\").")
print()
print("| figure | headlines | beside it | target | result |")
print("| --- | --- | --- | --- | --- |")
for figure, m, b, target, result in rows:
    print(f"| {figure} | {m} | {b} | {target} | {result} |")


def table(title, header, lines):
    print()
    print(f"#### {title}")
    print()
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")
    for cells in lines:
        print("| " + " | ".join(cells) + " |")


def g(key, fmt="{:g}", missing="–"):
    return fmt.format(f(key)) if key in v else missing


IDLE = [("host", "host: `headlines run` → " + v.get("idle.host.exe", "headlines-host")),
        ("bar1", "`headlines-bar waybar`, copy 1"), ("bar2", "copy 2"), ("bar3", "copy 3"),
        ("floor", "C GLib floor (floor.c: loop, 30-minute timer, notify_init, one notification)"),
        ("feedparser", "python3 feedparser loop, asleep (the same 4 feeds)"),
        ("curl_jq", "`curl \\| jq` loop, asleep (sh + sleep)")]
table(f"Idle side by side, {window} s after the notifications closed (from /proc: smaps_rollup at the end; "
      "context switches of every thread over the window)",
      ["process", "private dirty", "anonymous", "Pss", "Rss", "wake-ups", "CPU", "threads"],
      [[label] + [g(f"idle.{k}.{x}_kb", "{:,.0f} kB") for x in ("private_dirty", "anonymous", "pss", "rss")]
       + [g(f"idle.{k}.wakeups", "{:.0f}"), g(f"idle.{k}.cpu_ms", "{:.0f} ms"), g(f"idle.{k}.threads", "{:.0f}")]
       for k, label in IDLE] + [["`newsboat -x reload`", "no resident process", "", "", "", "", "", ""]])
table(f"Reload latency, server answering in 200 ms, {v.get('latency.reloads', '?')} reloads, the triggers alternating "
      f"(host {v.get('latency.host.exe', '?')})", ["", "p50", "p95"],
      [[f"{label}: {what}", g(f"latency.{how}.{key}.p50", "{:.1f} ms"), g(f"latency.{how}.{key}.p95", "{:.1f} ms")]
       for how, label in (("refresh", "`headlines refresh`"), ("bus", "Reload called with gdbus"))
       for key, what in (("bar", "trigger → new line on the follower"), ("server", "the server, request parsed → answered"),
                         ("bar_minus_server", "trigger → new line, less the server's time"))]
      + [["either trigger → the Notify call on the bus", g("latency.notify.p50", "{:.1f} ms"), g("latency.notify.p95", "{:.1f} ms")]])
lines = []
for case, what in (("one", "1 feed"), ("ten", "10 feeds"), ("day.changing", "4 feeds, changing"),
                   ("day.unchanged", "4 feeds, unchanged"), ("api.changing", "APITube, changing"),
                   ("api.unchanged", "APITube, unchanged")):
    for tool in ("headlines", "newsboat", "feedparser", "curl_jq"):
        k = f"reload.{case}.{tool}"
        if f"{k}.cpu_ms" not in v:
            continue
        split = f" (host {g(k + '.host_cpu_ms', '{:.1f}')}, child {g(k + '.child_cpu_ms', '{:.1f}')}" \
                + (f", bar {g(k + '.bar_cpu_ms', '{:.1f}')}" if k + ".bar_cpu_ms" in v else "") + ")" if tool == "headlines" else ""
        woke = f" (host {g(k + '.host_wakeups', '{:.1f}')}, child {g(k + '.child_wakeups', '{:.1f}')}" \
               + (f", bar {g(k + '.bar_wakeups', '{:.1f}')}" if k + ".bar_wakeups" in v else "") + ")" if tool == "headlines" else ""
        lines.append([f"{what}: {tool}", g(k + ".cpu_ms", "{:.1f} ms") + split, g(k + ".wakeups", "{:.1f}") + woke,
                      g(k + ".involuntary", "{:.1f}"), g(k + ".bytes", "{:,.0f} B"),
                      v.get(k + ".answers", "–").replace("x", " × ").replace(",", ", ")])
table(f"Per reload ({v.get('reload.one.reloads', '?')} reloads of 1 feed, {v.get('reload.ten.reloads', '?')} of 10, "
      f"{v.get('reload.day.reloads', '?')} of each day case; the server's answers after 200 ms)",
      ["case: program", "CPU", "wake-ups", "of them involuntary", "bytes received", "answers"], lines)
threads = [f"{case}: {v[f'reload.{case}.headlines.host_wakeups_by_thread']}" for case in
           ("one", "ten", "day.changing", "day.unchanged", "api.changing", "api.unchanged")
           if f"reload.{case}.headlines.host_wakeups_by_thread" in v]
if threads:
    print()
    print("The host's wake-ups by thread, over all the reloads of each case: " + "; ".join(threads) + ".")

lines = []
for case, what, tools in (("day.changing", "4 feeds, changing", ("headlines", "newsboat", "feedparser")),
                          ("day.unchanged", "4 feeds, unchanged", ("headlines", "newsboat", "feedparser")),
                          ("api.changing", "APITube, changing", ("headlines", "curl_jq")),
                          ("api.unchanged", "APITube, unchanged", ("headlines", "curl_jq"))):
    for tool in tools:
        cells = [f"{what}: {tool}"]
        for figure in ("cpu_ms", "wakeups", "bytes"):
            try:
                cells.append(UNITS[figure][1](per_day(f"reload.{case}", tool, figure, RESIDENT[tool])))
            except Missing:
                cells.append("–")
        lines.append(cells)
try:
    lines.append(["C GLib floor, idle all day", UNITS["cpu_ms"][1](per_day_floor("cpu_ms")),
                  UNITS["wakeups"][1](per_day_floor("wakeups")), "0"])
except Missing:
    pass
table(f"A day at the defaults: {DAY} reloads (one every 30 minutes, the daily budget 48), each the mean of the "
      "measured ones, plus the resident processes' idle rate over 24 hours (headlines: the host and one bar copy)",
      ["case: program", "CPU", "wake-ups", "bytes received"], lines)
