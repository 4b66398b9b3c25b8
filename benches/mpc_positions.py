#!/usr/bin/env python3
"""Positions for `oxello fit-mpc` from match games: every position of 13-59 empties of the GGF
games given (each once), moved 1-4 random plies off the game line, so that the set holds the
lopsided positions a search visits and not only the balanced ones of a match between equals
(fitted on game positions alone, v = a*v' + b came out with a = 0.4-0.8 at r2 0.3-0.6).

Usage: benches/mpc_positions.py GAMES.ggf... > positions.txt   (records as `selfplay` writes)
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_points import flips, games, play  # noqa: E402


def moves(b, me):
    op = "O" if me == "X" else "X"
    return [i for i in range(64) if b[i] == "-" and flips(b, i, me, op)]


def main():
    rng = random.Random(7)
    seen = set()
    for path in sys.argv[1:]:
        for plies in games(path):
            for board, side, _, _ in plies:
                b, me = list(board.replace("*", "X")), "X" if side == "*" else "O"
                if not 13 <= b.count("-") <= 59 or (key := "".join(b) + me) in seen:
                    continue
                seen.add(key)
                for _ in range(rng.randint(1, 4)):
                    legal = moves(b, me)
                    if legal:
                        play(b, rng.choice(legal), me, "O" if me == "X" else "X")
                    me = "O" if me == "X" else "X"
                if 13 <= b.count("-") <= 59 and moves(b, me):
                    print("".join(b), me, 0, "game")


if __name__ == "__main__":
    main()
