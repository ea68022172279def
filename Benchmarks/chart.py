#!/usr/bin/env python3
"""Benchmarks/results/chart.png from one make bench run's figures: CPU per reload of headlines
(host + child) beside newsboat -x reload and the feedparser loop on the same feeds from the same
server, as gnuplot draws it. Usage: chart.py results.txt chart.png"""
import os, subprocess, sys, tempfile

v = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 2:
        v[parts[0]] = parts[1]
cases = [("one", "1 feed"), ("ten", "10 feeds"), ("day.changing", "4 feeds,\\nchanging"), ("day.unchanged", "4 feeds,\\nunchanged")]
tools = ["headlines", "newsboat", "feedparser"]
rows = [(label, [v.get(f"reload.{case}.{tool}.cpu_ms", "NaN") for tool in tools]) for case, label in cases]
with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as data:
    for label, values in rows:
        data.write(f'"{label}" ' + " ".join(values) + "\n")
script = f"""
set terminal png size 900,460 font "DejaVu Sans,11"
set output "{sys.argv[2]}"
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
