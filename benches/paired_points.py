#!/usr/bin/env python3
"""Paired comparison of two matches played over the same openings file (`oxello match --ggf`):
game k of one run and game k of the other start from the same opening with A on the same
colour, so the difference of A's points per game (win 1, draw 1/2, loss 0) varies much less
than two separate scores do. Prints each run's score, the mean paired difference (second minus
first) with a 95 % normal interval, and how many games came out the same. Also A's and B's
thinking time per band of empties (`--bands W`, default 4 empties wide) for each run.

Usage: benches/paired_points.py FIRST.ggf SECOND.ggf [--bands 4]
"""
import argparse
import collections
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_points import games  # noqa: E402


def points(path):
    """A's points and colour ('B' or 'W') per game, in file order."""
    out = []
    for line in open(path):
        if "GM[Othello]" not in line:
            continue
        black = re.search(r"PB\[([^\]]*)\]", line).group(1)
        margin = float(re.search(r"RE\[([-+0-9.]+)", line).group(1))
        if black != "A":
            margin = -margin
        out.append((1.0 if margin > 0 else 0.5 if margin == 0 else 0.0, "B" if black == "A" else "W"))
    return out


def time_bands(path, width):
    seconds = {"A": collections.Counter(), "B": collections.Counter()}
    for plies in games(path):
        for board, _side, _mv, player, sec in plies:
            if sec is not None:
                seconds[player][board.count("-") // width * width] += sec
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--bands", type=int, default=4)
    args = ap.parse_args()
    a, b = points(args.first), points(args.second)
    n = min(len(a), len(b))
    if n < 2:
        sys.exit("fewer than two games in common")
    if any(a[k][1] != b[k][1] for k in range(n)):
        sys.exit("A's colours differ game by game: not the same openings file and order")
    d = [b[k][0] - a[k][0] for k in range(n)]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    same = sum(x == 0 for x in d)
    for path, p in ((args.first, a), (args.second, b)):
        print(f"{path}: {len(p)} games, A {100 * sum(x for x, _ in p) / len(p):.1f} %")
    print(f"paired over {n} games: {100 * mean:+.1f} ± {196 * sd / math.sqrt(n):.1f} points in 100 (95 %), {same} games with the same result")
    w = args.bands
    for path in (args.first, args.second):
        t = time_bands(path, w)
        bands = sorted(set(t["A"]) | set(t["B"]), reverse=True)
        cells = "  ".join(f"{lo}-{lo + w - 1}: {t['A'][lo]:.0f}/{t['B'][lo]:.0f}" for lo in bands if t["A"][lo] + t["B"][lo] >= 0.5)
        print(f"{path}: seconds A/B by empties  {cells}  (total {sum(t['A'].values()):.1f}/{sum(t['B'].values()):.1f})")


if __name__ == "__main__":
    main()
