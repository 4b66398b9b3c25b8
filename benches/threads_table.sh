#!/usr/bin/env bash
# Extra nodes and time of parallel search against one thread, on fixed work:
#   - exact solves of FFO #40-#49 (`oxello solve`, the solver's threads share its table);
#   - the midgame signature positions at a fixed depth (`oxello bench --depth D --selectivity S`).
# Usage: benches/threads_table.sh [threads ...]   (default: 1 2 4 8 16)
# Environment: FFO (directory holding fforum-40-59.obf, default ../shared/ffo), DEPTH (18),
# SELECTIVITY (80), RUNS (1: runs per cell; the table shows the run with the median time).
# More threads than cores oversubscribes the machine: the times then say how the search copes
# with that, not how it scales; the node counts are what the table is for. Node counts above
# one thread vary from run to run (threads race), so RUNS > 1 shows the spread.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/oxello
ffo=${FFO:-../shared/ffo}
depth=${DEPTH:-18}
sel=${SELECTIVITY:-80}
runs=${RUNS:-1}
threads=("$@")
[ ${#threads[@]} -eq 0 ] && threads=(1 2 4 8 16)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 10 "$ffo/fforum-40-59.obf" > "$tmp/ffo-40-49.obf"

# One cell: "nodes seconds" of the run with the median time among RUNS runs.
ffo_cell() {
  for _ in $(seq "$runs"); do
    # total: 10 positions, 0 wrong, 0 errors, N nodes, S s, R nodes/s
    "$bin" solve "$tmp/ffo-40-49.obf" --threads "$1" | tail -n 1 |
      awk '{for (i = 1; i <= NF; i++) { if ($(i+1) == "nodes,") n = $i; if ($(i+1) == "s,") s = $i; if ($i == "wrong,") w = $(i-1) } print n, s, w}'
  done | sort -k2,2n | awk -v r="$runs" 'NR == int((r + 1) / 2)'
}
bench_cell() {
  for _ in $(seq "$runs"); do
    # N nodes, R nodes/s (depth D, Pvs, S s)
    "$bin" bench --depth "$depth" --selectivity "$sel" --threads "$1" | tail -n 1 |
      awk '{s = $(NF-1); print $1, s, 0}'
  done | sort -k2,2n | awk -v r="$runs" 'NR == int((r + 1) / 2)'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (modified)')"
for what in ffo bench; do
  if [ "$what" = ffo ]; then
    echo
    echo "FFO #40-#49, exact solves (10 positions)"
  else
    echo
    echo "bench --depth $depth --selectivity $sel (midgame signature positions)"
  fi
  printf '| threads | nodes | extra nodes vs 1 | time s | speed-up vs 1 |%s\n' "$([ "$what" = ffo ] && echo ' wrong |')"
  printf '| ---: | ---: | ---: | ---: | ---: |%s\n' "$([ "$what" = ffo ] && echo ' ---: |')"
  base_n="" base_s=""
  for t in "${threads[@]}"; do
    read -r n s w < <(${what}_cell "$t")
    if [ -z "$base_n" ]; then base_n=$n base_s=$s; fi
    extra=$(awk -v n="$n" -v b="$base_n" 'BEGIN { printf "%+.1f %%", (n / b - 1) * 100 }')
    speed=$(awk -v s="$s" -v b="$base_s" 'BEGIN { printf "%.2fx", b / s }')
    printf '| %s | %s | %s | %s | %s |%s\n' "$t" "$n" "$extra" "$s" "$speed" "$([ "$what" = ffo ] && echo " $w |")"
  done
done
