#!/usr/bin/env bash
# The risk-aware style (issue 22) against the ordinary search at equal time: for each
# confidence, matches from balanced openings (both colours), from openings where the side to
# move is behind by 4-10 discs and from ones where it is ahead by 4-10 (the style plays the
# side to move: `match --a-to-move`). One thread each, book off, level 20 under a per-game
# clock so that the clock, not the depth, decides.
#
# Usage: benches/risk.sh [SECONDS_PER_GAME] [BALANCED_COUNT] [CONFIDENCE...]
#   defaults: 4 s per side and game, 24 balanced openings (48 games; 0: none), confidences 5 50 95;
#   the confidence `none` plays the ordinary search against itself (the baseline: how often
#   the side behind wins when both play alike).
# The band openings (100 each since 2026-11-26; before, 24 with --seed 22) were made with
#   oxello openings --count 100 --plies 10 --depth 10 --selectivity 80 --min-score=-10 --max-score=-4 --seed 26 > book/openings-behind.txt
#   oxello openings --count 100 --plies 10 --depth 10 --selectivity 80 --min-score=4 --max-score=10 --seed 26 > book/openings-ahead.txt
# Games go to risk-C-SET.ggf in the current directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-4}"
count="${2:-24}"
shift $(( $# >= 2 ? 2 : $# ))
confidences=("$@")
[ ${#confidences[@]} -gt 0 ] || confidences=(5 50 95)
# OXELLO=path plays that binary (e.g. a copy, so that builds do not replace it mid-match).
bin="${OXELLO:-$root/target/release/oxello}"
[ -n "${OXELLO:-}" ] || cargo build --release --quiet --manifest-path "$root/Cargo.toml"
normal="gtp:$bin gtp --threads 1 --no-book --level 20"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $seconds s per side and game"
printf '%-5s %-9s %-6s %-12s %-7s %-7s %-10s %-22s %-9s %-9s\n' risk openings games W-D-L win% draw% discs/game "Elo (95 %)" "risk s" "normal s"
for c in "${confidences[@]}"; do
  for set in balanced behind ahead; do
    case $set in
      balanced) [ "$count" -gt 0 ] || continue
        file="$root/book/openings.txt"; extra=(--count "$count") ;;
      *) file="$root/book/openings-$set.txt"; extra=(--a-to-move) ;;
    esac
    style=(--risk "$c")
    [ "$c" != none ] || style=()
    json=$("$bin" match --engine-a "gtp:$bin gtp --threads 1 --no-book --level 20 ${style[*]}" \
      --engine-b "$normal" --openings "$file" "${extra[@]}" --time "$seconds" \
      --ggf "risk-$c-$set.ggf" --json)
    field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$json"; }
    games=$(field games)
    printf '%-5s %-9s %-6s %-12s %-7s %-7s %-10s %-22s %-9s %-9s\n' "$c" "$set" "$games" \
      "$(field wins)-$(field draws)-$(field losses)" \
      "$(awk -v w="$(field wins)" -v g="$games" 'BEGIN{printf "%.1f", 100*w/g}')" \
      "$(awk -v d="$(field draws)" -v g="$games" 'BEGIN{printf "%.1f", 100*d/g}')" \
      "$(field average_discs)" "$(field elo) ($(field elo_low) .. $(field elo_high))" \
      "$(field seconds_a)" "$(field seconds_b)"
  done
done
