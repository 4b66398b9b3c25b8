#!/usr/bin/env bash
# Learning curve of the evaluation: fits stages 3 and 4 (18-29 empties) from zeros on 1/8, 1/4,
# 1/2 and all of the training games of the given self-play files, and measures each fit's
# static error at 20-24 empties on the two fixed test sets (exact scores, games never trained
# on). About 4 minutes and 1.7 GB per fit on 2 cores: run it on an otherwise idle machine.
# Usage: benches/learning_curve.sh DATA.txt [DATA.txt ...]
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 DATA.txt [DATA.txt ...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && cargo build --release --quiet)
bin=$root/target/release/oxello
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in 0.125 0.25 0.5 1; do
  mkdir -p "$tmp/$f"
  cp "$root"/params/{endcut.txt,levels.txt,mpc.txt} "$tmp/$f/"
  "$bin" train --data "$@" --out "$tmp/$f/eval.bin" --calibrate 300 --stages 3 4 --fraction "$f" > "$tmp/train.log" 2>&1
  summary=$(grep -o 'static evaluation at 20-24 empties (exact labels): [0-9.]* discs' "$tmp/train.log")
  test=$("$bin" --params "$tmp/$f" eval-mae --data "$root"/benches/data/mae-r5.txt "$root"/benches/data/mae-r8.txt \
    --positions 1000 --depth 1 2> /dev/null | grep -o 'static evaluation MAE [0-9.]* discs')
  echo "fraction $f: test sets $test; train summary: $summary"
done
