#!/usr/bin/env python3
"""Positions for `oxello fit-mpc` from match games: every position of 13-59 empties of the GGF
games given (each once), moved 1-4 random plies off the game line, so that the set holds the
lopsided positions a search visits and not only the balanced ones of a match between equals
(fitted on game positions alone, v = a*v' + b came out with a = 0.4-0.8 at r2 0.3-0.6).

Usage: benches/mpc_positions.py GAMES.ggf... > positions.txt   (records as `selfplay` writes)
"""
import random
import re
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(b, i, me, op):
    r, c = divmod(i, 8)
    out = []
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and b[rr * 8 + cc] == op:
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and b[rr * 8 + cc] == me:
            out += line
    return out


def play(b, i, me):
    op = "O" if me == "X" else "X"
    f = flips(b, i, me, op)
    if not f:
        raise ValueError("illegal move")
    b[i] = me
    for j in f:
        b[j] = me


def game_positions(ggf_line):
    """(board, side to move) before each move of one GGF game."""
    bo = re.search(r"BO\[8 ([^ \]]+)", ggf_line)
    if not bo:
        return
    b = ["X" if x == "*" else x for x in bo.group(1)]
    for colour, move in re.findall(r"(?<=\])([BW])\[([^\]]*)\]", ggf_line):
        me = "X" if colour == "B" else "O"
        yield list(b), me
        sq = move.split("/")[0].upper()
        if sq != "PA":
            play(b, (int(sq[1]) - 1) * 8 + ord(sq[0]) - ord("A"), me)


def moves(b, me):
    op = "O" if me == "X" else "X"
    return [i for i in range(64) if b[i] == "-" and flips(b, i, me, op)]


def main():
    rng = random.Random(7)
    seen = set()
    for path in sys.argv[1:]:
        for line in open(path):
            for b, me in game_positions(line):
                if not 13 <= b.count("-") <= 59 or (key := "".join(b) + me) in seen:
                    continue
                seen.add(key)
                for _ in range(rng.randint(1, 4)):
                    legal = moves(b, me)
                    if legal:
                        play(b, rng.choice(legal), me)
                    me = "O" if me == "X" else "X"
                if 13 <= b.count("-") <= 59 and moves(b, me):
                    print("".join(b), me, 0, "game")


if __name__ == "__main__":
    main()
