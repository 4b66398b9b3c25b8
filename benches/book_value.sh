#!/usr/bin/env bash
# The opening book's value: oxello with a book against oxello (or another engine) without one,
# from the start position (no XOT openings), both colours, one thread each, equal levels.
# Games from the start differ only through the book's random choices (--book-randomness), so
# the figure includes what those choices give away; the distinct games are counted.
#
# Usage: benches/book_value.sh [BOOK] [RANDOMNESS] [GAME_PAIRS] [LEVEL] [OPPONENT] [SECONDS]
#   BOOK        book file, default the built-in one ("-"); "none" for no book (a control
#               against an OPPONENT that varies its own moves)
#   RANDOMNESS  discs, default 1 (0: a deterministic book, as a tournament player uses one;
#               then the OPPONENT must vary for the games to differ)
#   GAME_PAIRS  game pairs (one with each colour), default 100
#   LEVEL       oxello's level on both sides, default 16
#   OPPONENT    as `oxello match --engine-b` takes it; default oxello at LEVEL with --no-book
#   SECONDS     a clock of this many seconds a game for each side (default none: the level
#               alone sets the effort, so the time a book saves shows nowhere); with a clock,
#               give a level that the clock binds (30)
# Every first move is the same up to symmetry, so the games start after f5.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
book="${1:--}"
randomness="${2:-1}"
pairs="${3:-100}"
level="${4:-16}"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/oxello"
opponent="${5:-gtp:$bin --no-book gtp --threads 1 --level $level}"
clock=()
if [ -n "${6:-}" ]; then clock=(--time "$6"); fi
book_arg=()
case "$book" in
  -) ;;
  none) book_arg=(--no-book) ;;
  *) book_arg=(--book "$book") ;;
esac
openings=$(mktemp)
trap 'rm -f "$openings"' EXIT
for _ in $(seq "$pairs"); do echo f5; done > "$openings"
ggf="book-value-r$randomness${6:+-t$6}.ggf"
rm -f "$ggf"
"$bin" match --openings "$openings" --count "$pairs" --ggf "$ggf" "${clock[@]}" \
  --engine-a "gtp:$bin ${book_arg[*]} --book-randomness $randomness gtp --threads 1 --level $level" \
  --engine-b "$opponent" | tail -n 1
# Distinct games: the move lists without their times.
echo "distinct games: $(sed 's|//[^]]*||g' "$ggf" | sort -u | wc -l) of $(wc -l < "$ggf")"
# Repeated games are not independent: the error that counts each distinct game once.
python3 "$root/benches/clustered_score.py" "$ggf"
