#!/usr/bin/env bash
# Runs headlines' feed parser over the real-world corpus (Fixtures/real-world, or $REALWORLD_DIR:
# feeds captured from public sites by other feed readers, see its SOURCES.md) and python3-feedparser
# over the same bytes, and compares title, link and date per item (scripts/conformance_realworld.py
# and realworld_reference.py say how items are matched and each field compared). Fails when any of
# title, link, date, their sum, or the share of items agreeing on all three is under 99%; when we
# reject a file the reference reads items from, or read none from it without an error; on any
# crash or hang of the checker; and when the corpus is missing or empty. Cases where the reference
# is wrong are listed in REFERENCE-ERRATA.tsv and count as ours.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${REALWORLD_DIR:-$repo/Fixtures/real-world}"
# The Debian package, not whatever a pyenv or venv puts first on PATH.
reference_python="${REFERENCE_PYTHON:-/usr/bin/python3}"

files=()
if [ -d "$corpus" ]; then
    while IFS= read -r -d '' f; do files+=("$f"); done < <(
        find "$corpus" -type f \( -iname '*.xml' -o -iname '*.rss' -o -iname '*.atom' -o -iname '*.rdf' -o -iname '*.json' \) -print0 | sort -z)
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "conformance-realworld: FAILED: no feed files under $corpus" >&2
    exit 2
fi

cd "$repo"
# $FEEDCHECK replaces the checker, e.g. with one that crashes, to see this script catch it.
if [ -n "${FEEDCHECK:-}" ]; then
    checker="$FEEDCHECK"
else
    swift build --product headlines-feedcheck >/dev/null
    checker="$(swift build --show-bin-path)/headlines-feedcheck"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# One checker process per file, so a crash is pinned to its file and costs no other file's result;
# a file that takes over 20 s is a hang and counts as a crash (timeout's status 124).
for f in "${files[@]}"; do
    status=0
    timeout -s KILL 20 "$checker" "$f" >>"$work/results" 2>>"$work/stderr" || status=$?
    [ "$status" -eq 137 ] && status=124
    printf '%s\t%s\n' "$status" "$f" >>"$work/status"
done

"$reference_python" "$repo/scripts/conformance_realworld.py" "$corpus" "$work/results" "$work/status"
