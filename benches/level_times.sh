#!/usr/bin/env bash
# Seconds a game at each level: oxello against itself (one thread, book off) over the first
# COUNT openings of book/openings.txt, both colours; prints each level's mean thinking time per
# game and side, and its maximum for one game.
# Usage: benches/level_times.sh [COUNT] [LEVEL...]   (defaults: 5 openings, levels 1-20)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${1:-5}"
shift $(( $# >= 1 ? 1 : 0 ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=($(seq 1 20))
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/oxello"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $count openings x 2 colours"
printf '%-6s %-28s %-14s %-14s\n' level "depth@sel exact/WLD" "s/game/side" "max s/game"
for level in "${levels[@]}"; do
  engine="gtp:$bin gtp --threads 1 --no-book --level $level"
  "$bin" match --engine-a "$engine" --engine-b "$engine" --openings "$root/book/openings.txt" \
    --count "$count" --ggf "$tmp/games.ggf" --json > "$tmp/result.json"
  # Per game, each side's total of the move times written as B[move//seconds] / W[move//seconds].
  stats=$(awk '{
      for (c = 0; c < 2; c++) t[c] = 0
      n = split($0, parts, /\]/)
      for (i = 1; i <= n; i++)
        if (match(parts[i], /(^|[^A-Z])[BW]\[[A-Za-z][A-Za-z0-9]\/\/[0-9.]+$/)) {
          side = (parts[i] ~ /B\[[A-Za-z][A-Za-z0-9]\/\/[0-9.]+$/ && parts[i] !~ /PB\[/) ? 0 : 1
          split(parts[i], v, "//"); t[side] += v[2]
        }
      for (c = 0; c < 2; c++) { sum += t[c]; sides++; if (t[c] > max) max = t[c] }
    } END { printf "%.3f %.3f", sum / sides, max }' "$tmp/games.ggf")
  row=$(awk -v l="$level" '!/^#/ && $1 == l { printf "%s@%s%% %s/%s", $2, $5, $3, $4 }' "$root/params/levels.txt")
  printf '%-6s %-28s %-14s %-14s\n' "$level" "$row" $stats
done
