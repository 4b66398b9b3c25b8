#!/usr/bin/env bash
# Timed games for reliability (issue 19): oxello (level 30, so that the clock, not the depth,
# limits it) over GTP against oxello over NBoard (both
# protocols in every game, colours swapped) and, when /usr/games/gtp-rhino is installed,
# oxello over GTP against GRhino, every game at SECONDS a side (sudden death), the 100 openings
# of book/openings.txt per round, ROUNDS rounds. Reports losses on time, illegal moves and
# crashes (the match runner's forfeits), the longest move seen, the budgets the engine itself
# overran (its 'over budget' warnings), and the peak RSS of any process (GNU time, which sees
# the engines as the match runner's children). Resumable: a stopped run goes on where it stopped
# when started again with the same OUTDIR.
# Each round plays every opening twice (colours swapped) in each pairing: 200 games a pairing
# with the 100 openings. Usage: benches/timed_games.sh [ROUNDS] [SECONDS] [OUTDIR] [OPENINGS]
# (defaults: 5 rounds = 1,000 games a pairing, 5 s, target/timed-games, all 100 openings).
# OXELLO_ARGS replaces the engines' level options (default "--level 30"): "" plays at the
# default level, where the clock decides; "--ponder" adds pondering to both sides (then give
# the run both cores).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-5}"
seconds="${2:-5}"
out="${3:-$root/target/timed-games}"
count="${4:-100}"
mkdir -p "$out"
# OXELLO_BIN: a copy of the binary to test (so that builds during a long run change nothing).
if [ -z "${OXELLO_BIN:-}" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
fi
bin="${OXELLO_BIN:-$root/target/release/oxello}"
# Wrappers keep each engine's warnings (stderr) in the output directory.
args="${OXELLO_ARGS---level 30}"
for p in gtp nboard; do
  printf '#!/bin/sh\nexec "%s" %s --threads 1 --no-book %s 2>>"%s/%s.log"\n' "$bin" "$p" "$args" "$out" "$p" > "$out/oxello-$p.sh"
  chmod +x "$out/oxello-$p.sh"
done
pairs=("gtp:$out/oxello-gtp.sh|nboard:$out/oxello-nboard.sh|self")
[ -x /usr/games/gtp-rhino ] && pairs+=("gtp:$out/oxello-gtp.sh|gtp:/usr/games/gtp-rhino|grhino")
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $seconds s a side"
for r in $(seq 1 "$rounds"); do
  for pair in "${pairs[@]}"; do
    IFS='|' read -r a b name <<<"$pair"
    /usr/bin/time -f "%M" -o "$out/$name-$r.rss" "$bin" match --engine-a "$a" --engine-b "$b" \
      --openings "$root/book/openings.txt" --time "$seconds" --timeout $((seconds * 4)) \
      --count "$count" --ggf "$out/$name-$r.ggf" --resume > "$out/$name-$r.out" 2>/dev/null || true
  done
done
python3 - "$out" "$seconds" <<'PY'
import glob, os, re, sys
out, seconds = sys.argv[1], float(sys.argv[2])
for name in ("self", "grhino"):
    outs = sorted(glob.glob(f"{out}/{name}-*.out"))
    if not outs:
        continue
    games, forfeits, longest, used = 0, [], 0.0, []
    for f in outs:
        text = open(f).read()
        m = re.search(r"(\d+) games", text)
        games += int(m.group(1)) if m else 0
        forfeits += [l.strip() for l in text.splitlines() if l.strip().startswith("forfeit:")]
    for g in sorted(glob.glob(f"{out}/{name}-*.ggf")):
        for line in open(g):
            for colour in "BW":
                times = [float(t) for t in re.findall(colour + r"\[[^/\]]*/[^/\]]*/([0-9.]+)\]", line)]
                if times:
                    longest = max(longest, max(times))
                    used.append(sum(times))
    rss = max((int(open(r).read().split()[-1]) for r in glob.glob(f"{out}/{name}-*.rss")), default=0)
    kinds = {k: sum(k in f for f in forfeits) for k in ("lost on time", "illegal move")}
    other = len(forfeits) - sum(kinds.values())
    most = max(used, default=0.0)
    print(f"{name}: {games} games at {seconds:g} s a side; losses on time {kinds['lost on time']}, "
          f"illegal moves {kinds['illegal move']}, other forfeits (crashes, protocol) {other}; "
          f"longest move {longest:.3f} s; most clock used in a game {most:.3f} s; peak RSS {rss / 1024:.0f} MB")
    for f in forfeits[:10]:
        print("   ", f)
over = []
for log in glob.glob(f"{out}/*.log"):
    for line in open(log, errors="replace"):
        m = re.search(r"over budget: ([0-9.]+) s for a budget of ([0-9.]+) s", line)
        if m:
            over.append(float(m.group(1)) - float(m.group(2)))
print(f"oxello's own budgets overrun: {len(over)} moves, longest overrun {max(over, default=0) * 1000:.1f} ms")
PY
