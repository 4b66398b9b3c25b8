#!/usr/bin/env bash
# Peak RSS against the transposition table's size: for each --hash MB, one GTP game of oxello
# against itself at SECONDS a side (benches/clock_game.sh: level 30, two threads, no book),
# the peak measured by GNU time (the engine is the largest process it sees).
# Usage: benches/memory.sh [SECONDS] [HASH...]   (defaults: 3 s; 1 16 64 256)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs=${1:-3}
shift $(($# >= 1 ? 1 : 0))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 16 64 256)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
export OXELLO="$root/target/release/oxello"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $secs s a side"
for h in "${sizes[@]}"; do
    kib=$(OXELLO_ARGS="--hash $h --threads 2 --no-book" /usr/bin/time -f %M \
        "$root/benches/clock_game.sh" "$secs" 30 f5d6c3d3c4 gtp 2>&1 >/dev/null | tail -1)
    awk -v h="$h" -v k="$kib" 'BEGIN { printf "--hash %4d: peak RSS %6.1f MB (--hash + 33 MB = %d MB)\n", h, k / 1024, h + 33 }'
done
