#!/usr/bin/env bash
# Endgame benchmark: FFO #20-#39 (median of 3 runs) and #40-#49 (one run), single thread.
# Usage: benches/ffo.sh [extra solve options, e.g. --no-eval-order]
# Run on an otherwise idle machine; prints the totals lines of `oxello solve`.
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
$bin solve "$tmp/ffo-40-49.obf" "$@" | tee "$tmp/40-49.txt" | cut -c1-80
rm -rf "$tmp"
