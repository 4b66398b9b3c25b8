#!/usr/bin/env python3
"""Where an engine's thinking time goes: its share of the match's time and its mean time a move,
by the number of empty squares before the move.

Reads the GGF games written by `oxello match --ggf` (move times as `B[F5//0.123]`). Shows where
a level spends its clock against its opponent's: e.g. a spike at 25 empties is where an
engine starts solving.

Usage: benches/time_by_empties.py MATCH.ggf [PLAYER] [--from 30] [--to 18]
  PLAYER  the player name in the GGF's PB/PW (oxello match writes A and B), default A
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_points import games  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ggf")
    ap.add_argument("player", nargs="?", default="A")
    ap.add_argument("--from", dest="high", type=int, default=30)
    ap.add_argument("--to", dest="low", type=int, default=18)
    args = ap.parse_args()
    seconds = collections.Counter()
    moves = collections.Counter()
    for plies in games(args.ggf):
        for board, _, _, name, spent in plies:
            if name == args.player and spent is not None:
                empties = board.count("-")
                seconds[empties] += spent
                moves[empties] += 1
    total = sum(seconds.values())
    if total == 0:
        raise SystemExit(f"no timed moves of {args.player} in {args.ggf}")
    print(f"{args.player}: {total:.1f} s in all")
    print(f"{'empties':>7} {'share':>7} {'s/move':>8} {'moves':>6}")
    for e in range(args.high, args.low - 1, -1):
        if moves[e]:
            print(f"{e:>7} {100 * seconds[e] / total:>6.1f}% {seconds[e] / moves[e]:>8.3f} {moves[e]:>6}")


if __name__ == "__main__":
    main()
