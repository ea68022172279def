#!/usr/bin/env python3
"""make bench's report, from one run's figures and the targets (targets.json, the one place a
target is written):

  report.py LINES OUT_DIR   the `name value unit` lines a run printed become OUT_DIR/results.json
                            (the run's figures as data), then rendered as below
  report.py OUT_DIR         renders OUT_DIR/results.json into OUT_DIR/results.md (every row of
                            targets.json, judged met or NOT met, then each section's detail) and
                            OUT_DIR/chart.png (CPU per reload beside the peers, by gnuplot)

A figure whose section failed reads "not measured", and a row that judges it is NOT met.
Memory: MB = 1024 kB; throughput: MB = 10^6 bytes."""
import json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = json.load(open(os.path.join(HERE, "targets.json")))
V = {}   # figure name -> value, this run's and the a-day figures derived from them
NAMES = {"newsboat": "newsboat -x reload", "feedparser": "feedparser loop", "curl_jq": "`curl | jq` loop"}
# The resident processes whose idle rate a day adds to each program's reloads.
RESIDENT = {"headlines": ("host", "bar1"), "newsboat": (), "feedparser": ("feedparser",), "curl_jq": ("curl_jq",)}
DAY_CASES = ("reload.day.changing", "reload.day.unchanged", "reload.maxage", "reload.api.changing", "reload.api.unchanged")
UNITS = {"cpu_ms": ("CPU", lambda x: f"{x / 1000:.2f} s"), "wakeups": ("wake-ups", lambda x: f"{x:,.0f}"),
         "bytes": ("bytes received", lambda x: f"{x / 1e6:.2f} MB" if x >= 1e6 else f"{x / 1e3:.1f} kB"),
         "requests_per_feed": ("requests per feed", lambda x: f"{x:,.0f}")}
# Figures a day counts from its reloads alone, without the resident processes' idle rate.
COUNTED_PER_RELOAD = ("bytes", "requests_per_feed")


def record(lines, out):
    """results.json from a run's lines: {"figures": {name: {"value": number or text, "unit": unit}}}."""
    figures = {}
    for line in open(lines):
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#"):
            unit, value = " ".join(parts[2:]), parts[1]
            if unit not in ("id", "name", "names") and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value):
                value = float(value) if "." in value else int(value)
            figures[parts[0]] = {"value": value, "unit": unit}
    with open(os.path.join(out, "results.json"), "w") as f:
        # One figure a line, in the order the run printed them: a later run's diff reads row by row.
        f.write('{"figures": {\n' + ",\n".join(f" {json.dumps(k)}: {json.dumps(x)}" for k, x in figures.items()) + "\n}}\n")


class Missing(Exception):
    pass


def f(key):
    if key not in V:
        raise Missing(key)
    return float(V[key])


def g(key, fmt="{:g}"):
    """key's figure in fmt, or a dash where it was not measured."""
    return fmt.format(f(key)) if key in V else "–"


def kb(key):
    return f"{f(key) / 1024:.2f} MB ({int(f(key)):,} kB)"


def mb(key, digits=1):
    return f"{f(key) / 1024:.{digits}f} MB"


def derive_days():
    """A day at the defaults: `day` reloads of each measured per-reload figure, plus, but for
    bytes, the idle rate over 24 hours of the program's resident processes (idle.NAME.*)."""
    def rate(name, figure):
        return f(f"idle.{name}.{figure}") / f("idle.elapsed") * 86400
    for figure in UNITS:
        for case in DAY_CASES:
            for tool, resident in RESIDENT.items():
                try:
                    x = f("reload.day.per_day") * f(f"{case}.{tool}.{figure}")
                    if figure not in COUNTED_PER_RELOAD:
                        x += sum(rate(name, figure) for name in resident)
                    V[f"{case}.{tool}.{figure}_a_day"] = x
                except Missing:
                    pass
        try:
            V[f"idle.floor.{figure}_a_day"] = rate("floor", figure)
        except Missing:
            pass


def judge(row):
    """True when every check holds, None for a row that is only printed; Missing when a figure
    it needs was not measured."""
    if not row["checks"]:
        return None
    ok = True
    for check in row["checks"]:
        names = check["value"] if isinstance(check["value"], list) else [check["value"]]
        worst = max(f(name) for name in names)
        bound = check.get("at_most", check.get("below"))
        bound = f(bound) if isinstance(bound, str) else bound
        ok = ok and (worst <= bound if "at_most" in check else worst < bound)
    return ok


def target_text(row):
    def one(check):
        sign, bound = ("≤", check["at_most"]) if "at_most" in check else ("<", check["below"])
        if isinstance(bound, str):
            return f"{sign} {check['than']}"
        if check["unit"] == "kB":
            return f"{sign} {bound / 1024:.1f} MB ({bound:,} kB)"
        return f"{sign} {bound:g} {check['unit']}"
    return " and ".join(map(one, row["checks"])) or "none: printed beside its peers"


# What each kind of row shows: (the headlines cell, the beside-it cell).
def idle_host(row):
    return (f"anonymous {kb('idle.host.anonymous_kb')}, private dirty {kb('idle.host.private_dirty_kb')}; "
            f"Pss {mb('idle.host.pss_kb')}, RSS {mb('idle.host.rss_kb')} (not gated)",
            f"C GLib floor: anonymous {kb('idle.floor.anonymous_kb')}, Pss {mb('idle.floor.pss_kb')}; "
            f"feedparser loop {mb('idle.feedparser.anonymous_kb')}; `curl | jq` loop {mb('idle.curl_jq.anonymous_kb')}")


def idle_host_wakeups(row):
    return (f"{f('idle.host.wakeups'):.0f}", f"floor {f('idle.floor.wakeups'):.0f}, feedparser loop "
            f"{f('idle.feedparser.wakeups'):.0f}, `curl | jq` loop {f('idle.curl_jq.wakeups'):.0f}")


def bars_memory(row):
    return (", ".join(f"{f(f'idle.bar{k}.private_dirty_kb'):.0f} kB" for k in (1, 2, 3)) + " private dirty (copies 1, 2, 3)",
            f"Pss {mb('idle.bar2.pss_kb')}, RSS {mb('idle.bar2.rss_kb')} each (not gated)")


def bars_wakeups(row):
    return (", ".join(f"{f(f'idle.bar{k}.wakeups'):.0f}" for k in (1, 2, 3)),
            "lines printed in the window: " + ", ".join(f"{f(f'idle.bar{k}.lines_in_window'):.0f}" for k in (1, 2, 3)))


def latency(row):
    return (f"server + {f('latency.refresh.bar_minus_server.p50'):.1f} ms ({f('latency.refresh.bar.p50'):.1f} ms; "
            f"the server {f('latency.refresh.server.p50'):.1f} ms)",
            f"Reload called with gdbus: server + {f('latency.bus.bar_minus_server.p50'):.1f} ms; trigger → Notify on "
            f"the bus {f('latency.notify.p50'):.1f} ms")


def cpu(row):
    case = row["checks"][0]["value"].rsplit(".", 2)[0]
    return (f"{f(f'{case}.headlines.cpu_ms'):.1f} ms (host {f(f'{case}.headlines.host_cpu_ms'):.1f} + child "
            f"{f(f'{case}.headlines.child_cpu_ms'):.1f})",
            "; ".join(f"{NAMES[t]} {f(f'{case}.{t}.cpu_ms'):.1f} ms" for t in ("newsboat", "feedparser")))


def startup(row):
    def one(name):
        return f"{f(f'reload.startup.{name}.cpu_ms'):.1f} ms ({f(f'reload.startup.{name}.page_faults'):,.0f} page faults)"
    return (f"headlines-reload --version {one('headlines_reload')}, mean of {f('reload.startup.runs'):.0f} runs",
            f"newsboat --version {one('newsboat')}; a C program that links the child's "
            f"{f('reload.startup.child_libraries.count'):.0f} shared libraries (ldd) and returns {one('child_libraries')}")


def parse(row):
    return (f"{f('parse.all.headlines_mb_s'):.1f} MB/s over {f('parse.all.files'):.0f} files, {f('parse.all.bytes') / 1e6:.1f} MB",
            f"xmllint --stream --noout {f('parse.all.xmllint_stream_mb_s'):.1f} MB/s (it gives up at the first fatal error, "
            f"in {f('parse.all.xmllint_stream_stopped'):.0f} files); over the {f('parse.wellformed.files'):.0f} files it "
            f"reads through: headlines {f('parse.wellformed.headlines_mb_s'):.1f}, xmllint --stream "
            f"{f('parse.wellformed.xmllint_stream_mb_s'):.1f} MB/s; xmllint --stream --recover on all "
            f"{f('parse.all.xmllint_stream_recover_mb_s'):.1f} MB/s")


def ledger(row):
    def one(case):
        return (f"{f(f'ledger.{case}.write_kib_s'):.1f} KiB/s written, {f(f'ledger.{case}.cpu_pct'):.1f} % of a core "
                f"({f(f'ledger.{case}.reloads'):.0f} reloads in {f(f'ledger.{case}.seconds'):.0f} s)")
    return one("full"), "the ledger empty: " + one("empty")


def day(row):
    case, _, figure = row["checks"][0]["value"].rsplit(".", 2)
    figure = figure[: -len("_a_day")]
    show = UNITS[figure][1]
    peers = [f"{name} {show(V[f'{case}.{tool}.{figure}_a_day'])}" for tool, name in NAMES.items()
             if f"{case}.{tool}.{figure}_a_day" in V]
    if figure not in COUNTED_PER_RELOAD:
        peers.append(f"C GLib floor (idle only) {show(f(f'idle.floor.{figure}_a_day'))}")
    return show(f(f"{case}.headlines.{figure}_a_day")), "; ".join(peers)


SHOW = {fn.__name__: fn for fn in (idle_host, idle_host_wakeups, bars_memory, bars_wakeups, latency, cpu, startup,
                                   parse, ledger, day)}


def cells(xs):
    return "| " + " | ".join(str(x).replace("|", "\\|") for x in xs) + " |"


def table(title, header, lines):
    print(f"\n#### {title}\n")
    print(cells(header))
    print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")
    for line in lines:
        print(cells(line))


def summary():
    window = V.get("idle.window", "?")
    short = "" if window != "?" and float(window) >= TARGETS["idle_window_s"] else \
        f" (window {window} s, the target's is {TARGETS['idle_window_s']} s)"
    context = {"window": window, "day": V.get("reload.day.per_day", "?"), "reloads": V.get("latency.reloads", "?")}
    print("| figure | headlines | beside it | target | result |")
    print("| --- | --- | --- | --- | --- |")
    for row in TARGETS["rows"]:
        label = row["label"].format(**context) + (short if row["show"].startswith(("idle", "bars")) else "")
        try:
            measured, beside = SHOW[row["show"]](row)
            ok = judge(row)
            result = "printed (no target)" if ok is None else "met" if ok else "**NOT met**"
        except Missing as e:
            measured, beside = f"not measured ({e.args[0]} missing)", ""
            result = "**NOT met**" if row["checks"] else "not measured"
        print(cells([label, measured, beside, target_text(row), result]))


def details():
    idle = [("host", "host: `headlines run` → " + str(V.get("idle.host.exe", "headlines-host"))),
            ("bar1", "`headlines-bar waybar`, copy 1"), ("bar2", "copy 2"), ("bar3", "copy 3"),
            ("floor", "C GLib floor (floor.c: loop, 30-minute timer, notify_init, one notification)"),
            ("feedparser", "python3 feedparser loop, asleep (the same 4 feeds)"),
            ("curl_jq", "`curl | jq` loop, asleep (sh + sleep)")]
    table(f"Idle side by side, {V.get('idle.window', '?')} s after the notifications closed (from /proc: smaps_rollup "
          "at the end; context switches of every thread over the window)",
          ["process", "private dirty", "anonymous", "Pss", "Rss", "wake-ups", "CPU", "threads"],
          [[label] + [g(f"idle.{k}.{x}_kb", "{:,.0f} kB") for x in ("private_dirty", "anonymous", "pss", "rss")]
           + [g(f"idle.{k}.wakeups", "{:.0f}"), g(f"idle.{k}.cpu_ms", "{:.0f} ms"), g(f"idle.{k}.threads", "{:.0f}")]
           for k, label in idle] + [["`newsboat -x reload`", "no resident process"] + [""] * 6])
    table(f"Reload latency, server answering in 200 ms, {V.get('latency.reloads', '?')} reloads, the triggers "
          f"alternating (host {V.get('latency.host.exe', '?')})", ["", "p50", "p95"],
          [[f"{label}: {what}"] + [g(f"latency.{how}.{key}.{p}", "{:.1f} ms") for p in ("p50", "p95")]
           for how, label in (("refresh", "`headlines refresh`"), ("bus", "Reload called with gdbus"))
           for key, what in (("bar", "trigger → new line on the follower"), ("server", "the server, request parsed → answered"),
                             ("bar_minus_server", "trigger → new line, less the server's time"))]
          + [["either trigger → the Notify call on the bus"] + [g(f"latency.notify.{p}", "{:.1f} ms") for p in ("p50", "p95")]])
    cases = (("one", "1 feed"), ("ten", "10 feeds"), ("day.changing", "4 feeds, changing"),
             ("day.unchanged", "4 feeds, unchanged"), ("maxage", "4 feeds, max-age=3600, by the host's schedule"),
             ("api.changing", "APITube, changing"), ("api.unchanged", "APITube, unchanged"))

    def split(k, figure):
        """headlines' figure split into host, child and (with a follower) bar."""
        return " (" + ", ".join(f"{who} {g(f'{k}.{who}_{figure}', '{:.1f}')}" for who in ("host", "child", "bar")
                                if f"{k}.{who}_{figure}" in V) + ")"
    lines = []
    for case, what in cases:
        for tool in ("headlines", *NAMES):
            k = f"reload.{case}.{tool}"
            if f"{k}.cpu_ms" in V:
                lines.append([f"{what}: {tool}", g(k + ".cpu_ms", "{:.1f} ms") + (split(k, "cpu_ms") if tool == "headlines" else ""),
                              g(k + ".wakeups", "{:.1f}") + (split(k, "wakeups") if tool == "headlines" else ""),
                              g(k + ".involuntary", "{:.1f}"), g(k + ".bytes", "{:,.0f} B"),
                              str(V.get(k + ".answers", "–")).replace("x", " × ").replace(",", ", ")])
    table(f"Per reload ({V.get('reload.one.reloads', '?')} reloads of 1 feed, {V.get('reload.ten.reloads', '?')} of 10, "
          f"{V.get('reload.day.reloads', '?')} of each day case; the server's answers after 200 ms)",
          ["case: program", "CPU", "wake-ups", "of them involuntary", "bytes received", "answers"], lines)
    threads = [f"{case}: {V[f'reload.{case}.headlines.host_wakeups_by_thread']}" for case, _ in cases
               if f"reload.{case}.headlines.host_wakeups_by_thread" in V]
    if threads:
        print("\nThe host's wake-ups by thread, over all the reloads of each case: " + "; ".join(threads) + ".")
    lines = [[f"{what}: {tool}"] + [UNITS[x][1](V[f"reload.{case}.{tool}.{x}_a_day"]) if f"reload.{case}.{tool}.{x}_a_day" in V
                                    else "–" for x in UNITS]
             for case, what in cases[2:] for tool in ("headlines", *NAMES) if f"reload.{case}.{tool}.cpu_ms" in V]
    if "idle.floor.cpu_ms_a_day" in V:
        lines.append(["C GLib floor, idle all day", UNITS["cpu_ms"][1](V["idle.floor.cpu_ms_a_day"]),
                      UNITS["wakeups"][1](V["idle.floor.wakeups_a_day"]), "0", "0"])
    table(f"A day at the defaults: {V.get('reload.day.per_day', '?')} reloads (the defaults' interval, within their daily "
          "budget), each the mean of the measured ones, plus "
          "the resident processes' idle rate over 24 hours (headlines: the host and one bar copy)",
          ["case: program", *(UNITS[x][0] for x in UNITS)], lines)


def chart(png):
    """CPU per reload of headlines (host + child) beside newsboat and feedparser, as gnuplot draws it."""
    cases = [("one", "1 feed"), ("ten", "10 feeds"), ("day.changing", "4 feeds,\\nchanging"),
             ("day.unchanged", "4 feeds,\\nunchanged")]
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as data:
        for case, label in cases:
            data.write(f'"{label}" ' + " ".join(str(V.get(f"reload.{case}.{t}.cpu_ms", "NaN"))
                                                 for t in ("headlines", "newsboat", "feedparser")) + "\n")
    script = f"""
set terminal png size 900,460 font "DejaVu Sans,11"
set output "{png}"
set title "CPU per reload in ms (host + child for headlines), lower is better:\\nthe same real feeds from the same loopback server, answering in 200 ms"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set bmargin 4
set yrange [0:*]
set key top left
plot "{data.name}" using 2:xtic(1) title "headlines" linecolor rgb "#5e81ac", \\
     '' using 3 title "newsboat -x reload" linecolor rgb "#a3be8c", \\
     '' using 4 title "python3 feedparser loop" linecolor rgb "#d08770"
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    finally:
        os.unlink(data.name)


def render(out):
    figures = json.load(open(os.path.join(out, "results.json")))["figures"]
    V.update({name: x["value"] for name, x in figures.items()})
    derive_days()
    with open(os.path.join(out, "results.md"), "w") as md:
        sys.stdout = md
        print("<!-- written by Benchmarks/report.py from results.json and ../targets.json; do not edit by hand -->\n")
        loads = ", ".join(f"{k.split('run.load_before_')[1]} {x}" for k, x in V.items() if k.startswith("run.load_before_"))
        print(f"Run {V.get('run.date', '?')} on {V.get('run.commit', '?')}, Linux {V.get('run.kernel', '?')}, "
              f"{V.get('run.cores', '?')} cores. Load average (1/5/15 min), which shows what else ran, at the start "
              f"{V.get('run.load_start', '?')}, before each section: {loads}; at the end {V.get('run.load_end', '?')}.\n")
        failed = [k.split(".")[2] for k in V if k.startswith("run.failed.")]
        if failed:
            print(f"**Sections that failed: {', '.join(failed)}** (their figures read \"not measured\").\n")
        summary()
        details()
        sys.stdout = sys.__stdout__
    chart(os.path.join(out, "chart.png"))


if __name__ == "__main__":
    if len(sys.argv) == 3:
        record(sys.argv[1], sys.argv[2])
    render(sys.argv[-1])
