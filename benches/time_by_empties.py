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
import re


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ggf")
    ap.add_argument("player", nargs="?", default="A")
    ap.add_argument("--from", dest="high", type=int, default=30)
    ap.add_argument("--to", dest="low", type=int, default=18)
    args = ap.parse_args()
    seconds = collections.Counter()
    moves = collections.Counter()
    with open(args.ggf) as f:
        for line in f:
            black = re.search(r"PB\[([^\]]*)\]", line)
            white = re.search(r"PW\[([^\]]*)\]", line)
            board = re.search(r"BO\[8 ([^ \]]+)", line)
            if not (black and white and board):
                continue
            empties = board.group(1).count("-")
            for colour, move in re.findall(r"(?<=\])([BW])\[([^\]]*)\]", line):
                parts = move.split("/")
                who = black.group(1) if colour == "B" else white.group(1)
                if who == args.player and len(parts) >= 3 and parts[2]:
                    seconds[empties] += float(parts[2])
                    moves[empties] += 1
                if parts[0].upper() != "PA":
                    empties -= 1
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
