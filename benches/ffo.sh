#!/usr/bin/env bash
# Endgame benchmark: FFO #20-#39 and #40-#49, three runs each (report the median), single thread.
# Usage: benches/ffo.sh [extra solve options, e.g. --no-eval-order]
# Run on an otherwise idle machine; prints the totals lines of `oxello solve` and, for the
# last #40-#49 run, the per-position lines.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/oxello
ffo=../shared/ffo
tmp=$(mktemp -d)
head -n 10 "$ffo/fforum-40-59.obf" > "$tmp/ffo-40-49.obf"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
for i in 1 2 3; do
  echo "FFO #20-#39 run $i: $($bin solve "$ffo/fforum-20-39.obf" "$@" | tail -n 1)"
done
for i in 1 2 3; do
  $bin solve "$tmp/ffo-40-49.obf" "$@" > "$tmp/40-49.txt"
  echo "FFO #40-#49 run $i: $(tail -n 1 "$tmp/40-49.txt")"
done
cut -c1-80 "$tmp/40-49.txt"
rm -rf "$tmp"
