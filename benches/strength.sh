#!/usr/bin/env bash
# Strength ladder: oxello at several levels (one thread, book off) against one opponent given as
# a match engine spec, both colours of each opening of book/openings.txt; prints one table.
#
# Usage: benches/strength.sh OPPONENT [OPENINGS_COUNT] [LEVEL...]
#   OPPONENT        as `oxello match --engine-b` takes it: "gtp:CMD", "nboard:CMD" or
#                   "nboard:depth=N:CMD" (the GUI's `set depth N`, which NTest needs)
#   OPENINGS_COUNT  openings to play (2 games each), default 100
#   LEVEL...        oxello levels, default 12 16 20
# Example (an NTest built by hand, run from its run/ directory through a wrapper script):
#   benches/strength.sh "nboard:depth=16:/path/to/ntest-wrapper.sh" 100 16
# Each level's games go to strength-LEVEL.ggf in the current directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
opponent="${1:?usage: benches/strength.sh OPPONENT [OPENINGS_COUNT] [LEVEL...]}"
count="${2:-100}"
shift $(( $# >= 2 ? 2 : 1 ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(12 16 20)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/oxello"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "opponent: $opponent; $count openings x 2 colours"
printf '%-6s %-14s %-8s %-22s %-10s %-10s\n' level W-D-L score "Elo (95 %)" "oxello s" "opponent s"
for level in "${levels[@]}"; do
  json=$("$bin" match --engine-a "gtp:$bin gtp --threads 1 --no-book --level $level" \
    --engine-b "$opponent" --openings "$root/book/openings.txt" --count "$count" \
    --ggf "strength-$level.ggf" --json)
  field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$json"; }
  printf '%-6s %-14s %-8s %-22s %-10s %-10s\n' "$level" \
    "+$(field wins) =$(field draws) -$(field losses)" "$(field score) %" \
    "$(field elo) ($(field elo_low) .. $(field elo_high))" "$(field seconds_a)" "$(field seconds_b)"
done
