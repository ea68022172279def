#!/usr/bin/env bash
# The shipped binary beside the last round's, in the same run: file size, stripped size, shared
# libraries loaded, whether ICU or FoundationNetworking/FoundationXML are in it, and start-up
# (`headlines --version` and a one-shot `headlines i3blocks` from a cache, median of RUNS).
# The baseline is BASELINE_COMMIT (default: the last commit of round 1, before the libcurl/libxml2
# stack), built once with the same flags into .build/baseline-COMMIT and reused.
# Usage: bench_binary.sh CURRENT_BIN_DIR WORK_DIR; prints `name value unit` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
current_bin=$1
work=$2
baseline=${BASELINE_COMMIT:-22e8c70}
commit=$(git rev-parse --short "$baseline^{commit}") || { echo "bench_binary: commit $baseline is not in this clone" >&2; exit 1; }
tree=".build/baseline-$commit"
if [ ! -x "$tree/.build/release/headlines" ]; then
    rm -rf "$tree"; mkdir -p "$tree"
    git archive "$commit" | tar -x -C "$tree"
    (cd "$tree" && swift build -c release --static-swift-stdlib --product headlines >/dev/null)
fi
baseline_bin="$tree/.build/release/headlines"
echo "binary.baseline.commit $commit id"

measure() { # name binary
    local name=$1 bin=$2
    echo "binary.$name.size $(stat -c %s "$bin") bytes"
    strip -o "$work/$name.stripped" "$bin"
    echo "binary.$name.stripped $(stat -c %s "$work/$name.stripped") bytes"
    echo "binary.$name.libraries $(ldd "$bin" | grep -c '=>') count"
    # ICU's converters and collators are linked in by name; FoundationNetworking/XML by their types.
    echo "binary.$name.icu_symbols $(nm "$bin" 2>/dev/null | grep -c -E 'ucnv_open|ucol_open|_FoundationICU' || true) count"
    echo "binary.$name.urlsession_symbols $(nm "$bin" 2>/dev/null | grep -c -E 'URLSession|FoundationXML' || true) count"
}
measure baseline "$baseline_bin"
measure current "$current_bin/headlines"
python3 scripts/bench_startup.py "$baseline_bin" "$current_bin/headlines" "$work"
