#!/usr/bin/env python3
"""Parse throughput of the reload child over the real-world corpus (every RSS, RDF and Atom file
of Fixtures/real-world; the JSON feeds are left out, xmllint cannot read them): headlines-bench
runs the child's parse (FeedParser.parse) on the bytes held in memory, timed by its own CPU;
`xmllint --stream --noout` of the same files, timed by wait4's rusage, BENCH_XMLLINT_RUNS runs
(default 10). xmllint --stream gives up on a file at its first fatal error (real feeds have
text before the XML declaration, undefined entities, extra content), so it is also timed over
the files it reads to the end (the well-formed ones, headlines beside it on the same files) and,
on the whole corpus, with --recover, which reads every file through. MB/s are 10^6 bytes a
second of CPU. Prints `parse.*` lines."""
import os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, emit, rusage_run

passes = int(os.environ.get("BENCH_PARSE_PASSES", "3"))
runs = int(os.environ.get("BENCH_XMLLINT_RUNS", "10"))
corpus = sorted(os.path.join(d, f) for d, _, names in os.walk("Fixtures/real-world") for f in names
                if f.endswith((".xml", ".rss", ".atom", ".rdf")))


def headlines(files):
    out = subprocess.run([os.path.join(BIN, "headlines-bench"), "--passes", str(passes)] + files,
                         check=True, capture_output=True, text=True).stdout
    v = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}
    if v["parse.refused"]:
        raise SystemExit(f"bench: headlines refused {v['parse.refused']} of the corpus files")
    return v["parse.bytes"] * passes / v["parse.cpu_us"]


def xmllint(flags, files):
    size = sum(os.path.getsize(f) for f in files)
    return size * runs / sum(rusage_run(["xmllint"] + flags + ["--noout"] + files, check=False)[0] for _ in range(runs))


stopped = set()
for line in subprocess.run(["xmllint", "--stream", "--noout"] + corpus, capture_output=True).stderr.decode(errors="replace").splitlines():
    if line.endswith(" : failed to parse"):
        stopped.add(line[: -len(" : failed to parse")])
whole = [f for f in corpus if f not in stopped]
for name, files in (("all", corpus), ("wellformed", whole)):
    emit(f"parse.{name}.files", len(files), "count")
    emit(f"parse.{name}.bytes", sum(os.path.getsize(f) for f in files), "B")
    emit(f"parse.{name}.headlines_mb_s", f"{headlines(files):.1f}", "MB/s")
    emit(f"parse.{name}.xmllint_stream_mb_s", f"{xmllint(['--stream'], files):.1f}", "MB/s")
emit("parse.all.xmllint_stream_stopped", len(stopped), "count")
emit("parse.all.xmllint_stream_recover_mb_s", f"{xmllint(['--stream', '--recover'], corpus):.1f}", "MB/s")
emit("parse.passes", passes, "count")
emit("parse.xmllint_runs", runs, "count")
